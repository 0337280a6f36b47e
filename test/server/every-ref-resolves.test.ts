// Issue 13: every `sessionKey` and every `agentId/sessionId` that `sessions --json` prints resolves with
// `--session REF` to that very row, and the row opens — on every state dir at hand: the synthetic ones in
// test/fixtures/ (real-world/, no-run-report/, sqlite/, the captures' state/), the captures in ../shared/fixtures
// and the scrubbed real dirs in ../shared/corpus (both skipped visibly when absent). In process, through the
// service the CLI uses (createSessionService: listSessions, resolveRef, load).

import path from "node:path";
import { describe, expect, it } from "vitest";
import { createSessionService } from "../../server/service/session-service.ts";
import { stateDirs } from "../helpers/state-dirs.ts";

const REPO = path.resolve(__dirname, "../..");

// `open`: also load each row (corpus.test.ts already loads every corpus session; resolving is what is new here).
const ROOTS = [
  {
    name: "test/fixtures + the demo",
    dirs: [path.join(REPO, "test/fixtures"), path.join(REPO, "server/demo/state")],
    open: true,
  },
  { name: "../shared/fixtures", dirs: [path.resolve(REPO, "../shared/fixtures")], open: true },
  { name: "../shared/corpus", dirs: [path.resolve(REPO, "../shared/corpus")], open: false },
];

/** The refs `sessions --json` prints that do not resolve to their own row, or whose row does not open. */
function unresolved(stateDir: string, open: boolean): { refs: number; bad: string[] } {
  const service = createSessionService({ stateDir, demo: false, reason: "test" });
  try {
    const bad: string[] = [];
    let refs = 0;
    for (const s of service.listSessions().sessions) {
      const want = { agentId: s.agentId, sessionId: s.sessionId };
      const printed = [`${s.agentId}/${s.sessionId}`, ...(s.sessionKey === null ? [] : [s.sessionKey])];
      for (const ref of printed) {
        refs++;
        const got = service.resolveRef(ref);
        if (got?.agentId !== want.agentId || got.sessionId !== want.sessionId)
          bad.push(`${ref} → ${JSON.stringify(got)}, want ${want.agentId}/${want.sessionId}`);
      }
      const loaded = open ? service.load(s.agentId, s.sessionId) : null;
      if (loaded && !loaded.ok)
        bad.push(`${s.agentId}/${s.sessionId} does not open: ${loaded.error.message}`);
    }
    return { refs, bad };
  } finally {
    service.close();
  }
}

describe("every session ref that `sessions --json` prints resolves with --session", () => {
  for (const root of ROOTS) {
    const dirs = root.dirs.flatMap((d) => stateDirs(d));
    if (dirs.length === 0)
      console.warn(`[skip] no state dirs at ${root.dirs.join(", ")}: ${root.name} not checked`);
    it.skipIf(dirs.length === 0)(`${root.name}: every key and agent/id resolves to its row`, () => {
      let total = 0;
      for (const dir of dirs) {
        const { refs, bad } = unresolved(dir, root.open);
        total += refs;
        expect(bad, path.relative(REPO, dir)).toEqual([]);
      }
      expect(total).toBeGreaterThan(0);
    });
  }
});
