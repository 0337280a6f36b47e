// argv → command. stdout carries the result only (text or --json); logs and warnings go to stderr,
// so `npm run -s cli -- … | diff` works. Every command calls the same service the HTTP API uses.

import { parseArgs } from "node:util";
import { createRuntime, type Runtime } from "./runtime.ts";

const HELP = `clawscope — what fills your OpenClaw context window, what pruning and caching do, and what it costs

Usage: clawscope <command> [options]

Commands:
  serve        start the dashboard (default)        [--port N] [--host H] [--open|--no-open]
  sessions     list every session of every agent    [--json]
  context      OpenClaw's /context text             --session REF --mode list|detail|json
  truncation   bootstrap truncation per file        --session REF [--max-per-file N] [--max-total N]
                                                    [--workspace DIR] [--family 2026.3|2026.7|2026.9] [--json]
  prune        cache-TTL pruning replay             --session REF [--ttl DUR] [--keep-last-assistants N]
                                                    [--soft-trim-ratio X] [--hard-clear-ratio X]
                                                    [--min-prunable-tool-chars N] [--soft-trim-max-chars N]
                                                    [--soft-trim-head-chars N] [--soft-trim-tail-chars N]
                                                    [--hard-clear on|off] [--placeholder S] [--allow GLOB]…
                                                    [--deny GLOB]… [--context-window N]
                                                    [--algorithm auto|2026.3|2026.7|2026.9] [--at ISO] [--json]
  cost         per-call usage, cache verdicts, cost --session REF | --all [--json]
  export       self-contained HTML report           --session REF --out FILE [--redact|--no-redact]
  bench        benchmark (see docs/performance.md)

Common options:
  --state-dir DIR   OpenClaw state dir (else OPENCLAW_STATE_DIR, CLAWDBOT_STATE_DIR, --profile NAME,
                    ~/.openclaw, ~/.clawdbot, ~/.moldbot, ~/.moltbot; OPENCLAW_HOME replaces ~).
                    When none exists, the bundled demo state dir is used.
  --profile NAME    use ~/.openclaw-NAME (--dev: ~/.openclaw-dev)
  --demo            use the bundled demo state dir
REF: a sessionId, a session key (agent:main:main) or AGENT/SESSIONID.
`;

const OPTIONS = {
  "state-dir": { type: "string" },
  profile: { type: "string" },
  demo: { type: "boolean" },
  dev: { type: "boolean" },
  json: { type: "boolean" },
  session: { type: "string" },
  mode: { type: "string" },
  port: { type: "string" },
  host: { type: "string" },
  open: { type: "boolean" },
  "no-open": { type: "boolean" },
  "max-per-file": { type: "string" },
  "max-total": { type: "string" },
  workspace: { type: "string" },
  family: { type: "string" },
  ttl: { type: "string" },
  "keep-last-assistants": { type: "string" },
  "soft-trim-ratio": { type: "string" },
  "hard-clear-ratio": { type: "string" },
  "min-prunable-tool-chars": { type: "string" },
  "soft-trim-max-chars": { type: "string" },
  "soft-trim-head-chars": { type: "string" },
  "soft-trim-tail-chars": { type: "string" },
  "hard-clear": { type: "string" },
  placeholder: { type: "string" },
  allow: { type: "string", multiple: true },
  deny: { type: "string", multiple: true },
  "context-window": { type: "string" },
  algorithm: { type: "string" },
  at: { type: "string" },
  all: { type: "boolean" },
  archived: { type: "boolean" },
  out: { type: "string" },
  redact: { type: "boolean" },
  "no-redact": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export type CliValues = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>["values"];

class UsageError extends Error {}

function fail(message: string, code = 2): never {
  process.stderr.write(`clawscope: ${message}\n`);
  process.exit(code);
}

function out(text: string): void {
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

function outJson(value: unknown): void {
  out(JSON.stringify(value, null, 2));
}

function requireSession(rt: Runtime, values: CliValues): { agentId: string; sessionId: string } {
  const ref = values.session;
  if (!ref) throw new UsageError("--session REF is required");
  const resolved = rt.service.resolveRef(ref);
  if (!resolved) throw new UsageError(`no session matches ${JSON.stringify(ref)} in ${rt.state.stateDir}`);
  return resolved;
}

async function main(argv: string[]): Promise<void> {
  let parsed: { values: CliValues; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    fail(`${e instanceof Error ? e.message : String(e)}\n\n${HELP}`);
  }
  const { values, positionals } = parsed;
  const command = positionals[0] ?? "serve";
  if (values.help || command === "help") {
    out(HELP);
    return;
  }
  if (command === "bench") {
    const { runBench } = await import("./bench/run-bench.ts");
    await runBench(positionals.slice(1));
    return;
  }
  let rt: Runtime;
  try {
    rt = createRuntime(values);
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  process.stderr.write(`clawscope: state dir ${rt.state.stateDir} (${rt.state.reason})\n`);

  switch (command) {
    case "serve": {
      const { startServer } = await import("./serve.ts");
      await startServer(rt, values);
      return;
    }
    case "sessions": {
      const { sessions, issues } = rt.service.listSessions();
      for (const issue of issues) {
        process.stderr.write(
          `warning: ${issue.source}${issue.line ? `:${issue.line}` : ""}: ${issue.message}\n`,
        );
      }
      if (values.json) outJson(sessions);
      else {
        const { formatSessionsTable } = await import("./cli/text-output.ts");
        out(formatSessionsTable(sessions));
      }
      return;
    }
    case "context": {
      const ref = requireSession(rt, values);
      const mode = values.mode ?? "list";
      if (mode !== "list" && mode !== "detail" && mode !== "json")
        throw new UsageError("--mode must be list|detail|json");
      const r = rt.service.contextText(ref.agentId, ref.sessionId, mode);
      if ("error" in r) fail(r.error.message, 1);
      process.stdout.write(r.value);
      return;
    }
    case "truncation": {
      const ref = requireSession(rt, values);
      const query: Record<string, string> = {};
      if (values["max-per-file"]) query.maxPerFile = values["max-per-file"];
      if (values["max-total"]) query.maxTotal = values["max-total"];
      if (values.family) query.family = values.family;
      if (values.workspace) query.workspace = values.workspace;
      const r = rt.service.truncation(ref.agentId, ref.sessionId, query, { allowWorkspaceOverride: true });
      if ("error" in r) fail(r.error.message, 1);
      if (values.json) outJson(r.value);
      else {
        const { formatTruncation } = await import("./cli/text-output.ts");
        out(formatTruncation(r.value));
      }
      return;
    }
    case "prune": {
      const ref = requireSession(rt, values);
      const { pruneQueryFromCli } = await import("./cli/prune-flags.ts");
      const r = rt.service.prune(ref.agentId, ref.sessionId, pruneQueryFromCli(values));
      if ("error" in r) fail(r.error.message, 1);
      if (values.json) outJson(r.value);
      else {
        const { formatPrune } = await import("./cli/text-output.ts");
        out(formatPrune(r.value));
      }
      return;
    }
    case "cost": {
      if (values.all) {
        const totals = rt.service.costAll(values.archived !== false);
        if (values.json) outJson(totals);
        else {
          const { formatCostAll } = await import("./cli/text-output.ts");
          out(formatCostAll(totals));
        }
        return;
      }
      const ref = requireSession(rt, values);
      const r = rt.service.cost(ref.agentId, ref.sessionId);
      if ("error" in r) fail(r.error.message, 1);
      if (values.json) outJson(r.value);
      else {
        const { formatCost } = await import("./cli/text-output.ts");
        out(formatCost(r.value));
      }
      return;
    }
    case "export": {
      const ref = requireSession(rt, values);
      if (!values.out) throw new UsageError("--out FILE is required");
      const { ExportError, writeExport } = await import("./export/write-export.ts");
      const redact = !values["no-redact"];
      try {
        await writeExport(rt, ref, values.out, { redact });
      } catch (e) {
        if (e instanceof ExportError) fail(e.message, 1);
        throw e;
      }
      process.stderr.write(`clawscope: wrote ${values.out}${redact ? " (redacted)" : ""}\n`);
      return;
    }
    default:
      throw new UsageError(`unknown command ${JSON.stringify(command)}\n\n${HELP}`);
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  if (e instanceof UsageError) fail(e.message);
  fail(e instanceof Error ? (e.stack ?? e.message) : String(e), 1);
});
