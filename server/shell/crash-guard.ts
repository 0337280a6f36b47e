// `serve`'s last line of defence (issue 20: "no single input may end the process"). Background work (the tokenizer
// queue, the watcher, the sliced cost aggregate) runs from timers and worker callbacks, outside any request's
// error handler; an error thrown there would otherwise end the server and every open tab with it. Each component
// catches its own errors and reports them located; this logs whatever still escapes and keeps serving.

/** What the guard needs of the process (injected: the unit test drives it without a real process). */
export interface CrashGuardTarget {
  on(event: "uncaughtException" | "unhandledRejection", handler: (error: unknown) => void): void;
  log(line: string): void;
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
}

export function installCrashGuard(target: CrashGuardTarget): void {
  target.on("uncaughtException", (error) => {
    target.log(`clawscope: uncaught error in background work (kept running): ${describe(error)}\n`);
  });
  target.on("unhandledRejection", (error) => {
    target.log(`clawscope: unhandled rejection in background work (kept running): ${describe(error)}\n`);
  });
}

/** The guard on this process, logging to stderr. */
export function guardProcess(): void {
  installCrashGuard({
    on: (event, handler) => process.on(event, handler),
    log: (line) => process.stderr.write(line),
  });
}
