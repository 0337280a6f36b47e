// Process-level wiring shared by the CLI commands and the server: which state dir, the reader, the service.
// One of the few modules allowed to look at process.env / the home dir (through config.ts).

import path from "node:path";
import { fileURLToPath } from "node:url";
import type { CliValues } from "./cli.ts";
import { resolveStateDirFromProcess } from "./config.ts";
import { createSessionService, type SessionService } from "./session-service.ts";

const here = path.dirname(fileURLToPath(import.meta.url));

/** The bundled demo state dir: real OpenClaw captures (see server/demo/README.md). */
export const DEMO_STATE_DIR = path.join(here, "demo", "state");

export interface StateChoice {
  stateDir: string;
  demo: boolean;
  reason: string;
}

export interface Runtime {
  state: StateChoice;
  service: SessionService;
}

export function chooseStateDir(
  values: Pick<CliValues, "state-dir" | "profile" | "demo" | "dev">,
): StateChoice {
  if (values.demo) return { stateDir: DEMO_STATE_DIR, demo: true, reason: "Started with --demo." };
  // OpenClaw's `--dev` is the `dev` profile (~/.openclaw-dev) — spec storage.md §1.
  const profile = values.profile ?? (values.dev ? "dev" : undefined);
  const resolved = resolveStateDirFromProcess({
    ...(values["state-dir"] !== undefined ? { stateDir: values["state-dir"] } : {}),
    ...(profile !== undefined ? { profile } : {}),
  });
  if (resolved.path) return { stateDir: resolved.path, demo: false, reason: resolved.reason };
  // An explicitly named state dir that does not exist is an error, not a reason to show the demo.
  const explicit =
    values["state-dir"] !== undefined ||
    profile !== undefined ||
    Boolean(process.env.OPENCLAW_STATE_DIR) ||
    Boolean(process.env.CLAWDBOT_STATE_DIR);
  if (explicit) throw new Error(resolved.reason);
  return {
    stateDir: DEMO_STATE_DIR,
    demo: true,
    reason: `Looked at ${resolved.candidates.join(", ")}.`,
  };
}

export function createRuntime(values: CliValues): Runtime {
  const state = chooseStateDir(values);
  return { state, service: createSessionService(state) };
}
