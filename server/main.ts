// `clawscope` (built: dist/server/main.js; from the sources: server/bin.mjs): argv → one command of cli/commands.ts; a usage mistake exits 2, a
// failed command 1. Nothing imports this module.

import { CommandError, commandNamed } from "./cli/commands.ts";
import { HELP, parseCli, UsageError } from "./cli/options.ts";
import { escapeControls } from "./cli/terminal-text.ts";
import { PACKAGE_VERSION } from "./package-root.ts";

async function main(argv: string[]): Promise<void> {
  const { command, rest, values } = parseCli(argv);
  if (values.help || command === "help") {
    process.stdout.write(HELP);
    return;
  }
  if (values.version) {
    process.stdout.write(`${PACKAGE_VERSION}\n`);
    return;
  }
  const run = commandNamed(command);
  if (!run) throw new UsageError(`unknown command ${JSON.stringify(command)}\n\n${HELP}`);
  await run({ values, rest });
}

// `clawscope cost --json | head`: the reader closed the pipe, nothing more can be printed — exit quietly (as
// `cat` does) instead of dying on an unhandled EPIPE with a stack trace.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code !== "EPIPE") throw e;
  process.exit(0);
});

main(process.argv.slice(2)).catch((e: unknown) => {
  const known = e instanceof UsageError || e instanceof CommandError;
  const message = known ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e);
  // An error can quote stored data (a session key, a file name): shown with its control sequences escaped.
  process.stderr.write(`clawscope: ${escapeControls(message)}\n`);
  process.exitCode = e instanceof UsageError ? 2 : 1;
});
