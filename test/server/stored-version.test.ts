// Issue 18, "a command computes only what it prints": `truncation` reads a session's SessionEntry and release
// verdict without parsing its transcript whenever StoredEntry.version decides them (a stored report and no row
// that could change the verdict). That shortcut is only right if it is the load's own answer: on every state dir
// at hand (test/fixtures, the demo, ../shared/fixtures, ../shared/corpus — skipped visibly when absent), for every
// listed session, a decided StoredEntry.version deep-equals the loaded session's version, its entry and id the
// loaded ones: what the truncation report reads is the full load's. A generated session with a stored
// report decides it from the bytes; one row of a 2026.9 signal sends it back to the load.

import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeJsonlStateDir } from "../../server/bench/generate-session.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import { truncationSession, truncationSessionOf } from "../../server/service/truncation-input.ts";
import { isLoadError } from "../../server/sources/session-era.ts";
import { openStateReader } from "../../server/sources/state-reader.ts";
import { fail } from "../../shared/result.ts";
import { stateDirs } from "../helpers/state-dirs.ts";

const REPO = path.resolve(__dirname, "../..");
const ROOTS = [
  {
    name: "test/fixtures + the demo",
    dirs: [path.join(REPO, "test/fixtures"), path.join(REPO, "server/demo/state")],
  },
  { name: "../shared/fixtures", dirs: [path.resolve(REPO, "../shared/fixtures")] },
  { name: "../shared/corpus", dirs: [path.resolve(REPO, "../shared/corpus")] },
];

/** Sessions whose decided stored version is not the load's, and how many were decided without a load. */
function mismatches(stateDir: string): { decided: number; bad: string[] } {
  const reader = openStateReader(stateDir);
  const service = createSessionService({ stateDir, demo: false, reason: "test" });
  try {
    const bad: string[] = [];
    let decided = 0;
    for (const s of reader.listSessions().sessions) {
      const ref = { agentId: s.agentId, sessionId: s.sessionId };
      const stored = reader.storedEntry(ref, { version: true });
      if (stored === null || "error" in stored || stored.version === null) continue;
      decided++;
      const loaded = reader.loadSession(ref);
      const where = `${s.agentId}/${s.sessionId}`;
      if (isLoadError(loaded)) {
        bad.push(`${where}: stored entry decided, but the load fails: ${loaded.error.message}`);
        continue;
      }
      if (JSON.stringify(stored.version) !== JSON.stringify(loaded.version))
        bad.push(
          `${where}: version ${JSON.stringify(stored.version)} ≠ load ${JSON.stringify(loaded.version)}`,
        );
      if (JSON.stringify(stored.entry) !== JSON.stringify(loaded.entry)) bad.push(`${where}: entry differs`);
      if (stored.sessionId !== loaded.summary.sessionId) bad.push(`${where}: id ${stored.sessionId}`);
      // what the truncation report reads (truncationInput is a function of it, the query and the config)
      const fast = truncationSession(reader, ref, () => fail("x", "the load was asked for", 500));
      if (!fast.ok || JSON.stringify(fast.value) !== JSON.stringify(truncationSessionOf(loaded)))
        bad.push(`${where}: the truncation input differs from the full load's`);
      if (!service.truncation(s.agentId, s.sessionId, {}).ok) bad.push(`${where}: no truncation report`);
    }
    return { decided, bad };
  } finally {
    service.close();
  }
}

describe("StoredEntry.version is the load's own verdict", () => {
  for (const root of ROOTS) {
    const dirs = root.dirs.flatMap((d) => stateDirs(d));
    if (dirs.length === 0)
      console.warn(`[skip] no state dirs at ${root.dirs.join(", ")}: ${root.name} not checked`);
    it.skipIf(dirs.length === 0)(
      `${root.name}: every decided version, entry and truncation report equal the load's`,
      () => {
        let decided = 0;
        for (const dir of dirs) {
          const r = mismatches(dir);
          decided += r.decided;
          expect(r.bad, path.relative(REPO, dir)).toEqual([]);
        }
        expect(decided).toBeGreaterThan(0);
      },
    );
  }

  const tmp = mkdtempSync(path.join(os.tmpdir(), "clawscope-stored-version-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  it("decides a generated session with a stored report from its bytes; a `reset` row sends it to the load", () => {
    const s = writeJsonlStateDir(tmp, { targetBytes: 2 << 20, seed: 3 });
    const ref = { agentId: s.agentId, sessionId: s.sessionId };
    const before = openStateReader(s.stateDir).storedEntry(ref, { version: true });
    const loaded = openStateReader(s.stateDir).loadSession(ref);
    if (before === null || "error" in before || isLoadError(loaded))
      throw new Error("no stored entry / load");
    expect(before.version).toEqual(loaded.version);
    appendFileSync(
      s.file,
      `${JSON.stringify({ type: "reset", id: "r1", parentId: null, timestamp: new Date(0).toISOString() })}\n`,
    );
    const after = openStateReader(s.stateDir).storedEntry(ref, { version: true });
    expect(after === null || "error" in after ? null : after.version).toBeNull();
  });
});
