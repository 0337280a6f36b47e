// `export --out` never writes into the OpenClaw state dir (issue 20): not through a dangling symlink (it created a
// file there), not through a symlink to a state file, not through a hard link (it overwrote openclaw.json). The
// target is lstat'ed (symlinks and `nlink > 1` refused) and written as a temp file created with O_EXCL in the
// realpath'd parent, then renamed over the name.

import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExportError, writeExport } from "../../server/export/write-export.ts";
import { createSessionService, type SessionService } from "../../server/service/session-service.ts";
import { buildCanaryStateDir, CANARY_AGENT, CANARY_SESSION_ID } from "../e2e/canary-session.ts";

let tmp: string;
let state: string;
let out: string;
let service: SessionService;
const ref = { agentId: CANARY_AGENT, sessionId: CANARY_SESSION_ID };
const CONFIG = '{"agents":{}}\n';

/** Every file under `dir` with its content, to compare the state dir before and after. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const p = path.join(dir, name);
    try {
      files[name] = readFileSync(p, "utf8");
    } catch {
      files[name] = "<dir>";
    }
  }
  return files;
}

beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "clawscope-export-out-"));
  state = buildCanaryStateDir(tmp);
  writeFileSync(path.join(state, "openclaw.json"), CONFIG);
  out = path.join(tmp, "out");
  mkdirSync(out);
  service = createSessionService({ stateDir: state, demo: false, reason: "test" });
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function refused(target: string, message: RegExp): Promise<void> {
  const before = snapshot(state);
  await expect(writeExport(service, state, ref, target, { redact: true })).rejects.toThrow(ExportError);
  await expect(writeExport(service, state, ref, target, { redact: true })).rejects.toThrow(message);
  expect(snapshot(state)).toEqual(before);
  expect(readdirSync(out).filter((n) => n.includes(".tmp"))).toEqual([]);
}

describe("export --out (issue 20)", () => {
  it("a dangling symlink into the state dir is refused: no file is created there", async () => {
    const target = path.join(out, "dangling.html");
    symlinkSync(path.join(state, "created-by-export.html"), target);
    await refused(target, /symbolic link/);
    expect(existsSync(path.join(state, "created-by-export.html"))).toBe(false);
  });

  it("a symlink to a state file is refused", async () => {
    const target = path.join(out, "to-config.html");
    symlinkSync(path.join(state, "openclaw.json"), target);
    await refused(target, /symbolic link|inside the OpenClaw state dir/);
    expect(readFileSync(path.join(state, "openclaw.json"), "utf8")).toBe(CONFIG);
  });

  it("a hard link to openclaw.json is refused: the config is not overwritten", async () => {
    const target = path.join(out, "hard.html");
    linkSync(path.join(state, "openclaw.json"), target);
    await refused(target, /hard link/);
    expect(readFileSync(path.join(state, "openclaw.json"), "utf8")).toBe(CONFIG);
  });

  it("a folder under a symlink into the state dir is refused", async () => {
    const link = path.join(out, "state-link");
    symlinkSync(state, link);
    await refused(path.join(link, "r.html"), /inside the OpenClaw state dir/);
  });

  it("a new file is written, an existing regular file replaced, no temp file left behind", async () => {
    const target = path.join(out, "report.html");
    await writeExport(service, state, ref, target, { redact: true });
    expect(readFileSync(target, "utf8")).toMatch(/^<!DOCTYPE html>/i);
    writeFileSync(target, "old");
    await writeExport(service, state, ref, target, { redact: true });
    expect(readFileSync(target, "utf8")).toMatch(/^<!DOCTYPE html>/i);
    expect(readdirSync(out).filter((n) => n.includes(".tmp"))).toEqual([]);
  });
});
