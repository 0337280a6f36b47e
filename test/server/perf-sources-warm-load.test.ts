// Issue 9, warm JSONL load: the version verdict is memoised per Transcript object and SessionEntry, so a
// warm load does not rescan the transcript — and an append or a changed entry is still seen at once.

import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { LoadedSession } from "../../server/model/session.ts";
import { detectJsonlVersion } from "../../server/sources/detect-version.ts";
import { type LoadError, openStateReader, transcriptLoadInfo } from "../../server/sources/state-reader.ts";

const J1_STATE = path.resolve(__dirname, "../../../shared/fixtures/j1-jsonl-cache-ttl-default/state");
const J1_ID = "4b707e2a-5983-497f-a2d7-d3ea6b3a5e84";
const haveJ1 = existsSync(J1_STATE);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function loaded(v: LoadedSession | LoadError): LoadedSession {
  if ("error" in v) throw new Error(`load failed: ${v.error.code} ${v.error.message}`);
  return v;
}

describe.skipIf(!haveJ1)("warm JSONL load: version verdict", () => {
  it("is reused while nothing changed, recomputed after an append and after an entry change", () => {
    const stateDir = mkdtempSync(path.join(os.tmpdir(), "clawscope-perf-sources-"));
    dirs.push(stateDir);
    cpSync(J1_STATE, stateDir, { recursive: true });
    const reader = openStateReader(stateDir);
    const ref = { agentId: "main", sessionId: J1_ID };

    const first = loaded(reader.loadSession(ref));
    expect(first.version.family).toBe("2026.7");
    const second = loaded(reader.loadSession(ref));
    expect(second.transcript).toBe(first.transcript);
    expect(second.version).toEqual(first.version);
    // A copy: a caller changing its LoadedSession cannot change the memo.
    second.version.reason = "changed by a caller";
    expect(loaded(reader.loadSession(ref)).version).toEqual(first.version);

    // A `reset` entry is a 2026.9 signal (detect-version.ts): the appended line must be seen.
    const file = path.join(stateDir, "agents", "main", "sessions", `${J1_ID}.jsonl`);
    const last = first.transcript.entries.at(-1);
    appendFileSync(
      file,
      `${JSON.stringify({ type: "reset", id: "perf-reset-1", parentId: last?.id ?? null, timestamp: "2026-11-30T00:00:00.000Z" })}\n`,
    );
    const appended = loaded(reader.loadSession(ref));
    expect(appended.transcript).not.toBe(first.transcript);
    expect(appended.version.family).toBe("2026.9");

    // A changed SessionEntry (same transcript bytes) is a new verdict input too.
    const store = path.join(stateDir, "agents", "main", "sessions", "sessions.json");
    const text = readFileSync(store, "utf8");
    writeFileSync(store, text.replace(/"systemPromptReport"/, '"systemPromptReportX"'));
    const retagged = loaded(reader.loadSession(ref));
    expect(retagged.entry).not.toEqual(appended.entry);
    expect(retagged.version.family).toBe("2026.9");
  });
});

describe.skipIf(!haveJ1)(
  "version verdict after tail reads (row signals scanned over the appended entries only)",
  () => {
    it("equals a fresh detection after every appended line", () => {
      const stateDir = mkdtempSync(path.join(os.tmpdir(), "clawscope-perf-sources-"));
      dirs.push(stateDir);
      cpSync(J1_STATE, stateDir, { recursive: true });
      const reader = openStateReader(stateDir);
      const ref = { agentId: "main", sessionId: J1_ID };
      const file = path.join(stateDir, "agents", "main", "sessions", `${J1_ID}.jsonl`);
      let s = loaded(reader.loadSession(ref));
      const parent = s.transcript.entries.at(-1)?.id ?? null;
      const at = "2026-11-30T00:00:00.000Z";
      const lines = [
        {
          type: "message",
          id: "v1",
          parentId: parent,
          timestamp: at,
          message: { role: "user", content: "x" },
        },
        {
          type: "custom",
          customType: "openclaw.cache-ttl",
          id: "v2",
          parentId: "v1",
          timestamp: at,
          data: {},
        },
        {
          type: "message",
          id: "v3",
          parentId: "v2",
          timestamp: at,
          appendMode: "side",
          message: { role: "user", content: "y" },
        },
        { type: "leaf", id: "v4", parentId: "v3", targetId: "v1", timestamp: at },
        {
          type: "custom",
          customType: "openclaw.cache-ttl",
          id: "v5",
          parentId: "v1",
          timestamp: at,
          data: { prunedToolResults: [] },
        },
        { type: "reset", id: "v6", parentId: "v5", timestamp: at },
      ];
      const reasons = new Set<string>();
      for (const line of lines) {
        appendFileSync(file, `${JSON.stringify(line)}\n`);
        s = loaded(reader.loadSession(ref));
        expect(transcriptLoadInfo(s.transcript)?.loadedBy).toBe("tail");
        expect(s.version).toEqual(detectJsonlVersion(s.entry, s.transcript));
        reasons.add(s.version.reason);
      }
      // the appended rows changed the verdict's reason several times (leaf rows, side appends, snapshots, reset)
      expect(reasons.size).toBeGreaterThan(3);
    });
  },
);
