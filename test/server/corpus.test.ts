// Every scrubbed real JSONL-era state dir of ../shared/corpus (spec fixtures.md §4): no crash, every
// session listed and loaded, the measured counts reproduced. Files are read in place, never copied.

import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { LoadedSession, SessionSummary } from "../../server/model/session.ts";
import { discoverState } from "../../server/sources/discover.ts";
import { LINE_ERROR_CODES } from "../../server/sources/jsonl/read-transcript.ts";
import { listJsonlSessions } from "../../server/sources/jsonl/sessions-store.ts";
import { openStateReader } from "../../server/sources/state-reader.ts";
import { obj, str } from "../../shared/json.ts";

const CORPUS = path.resolve(__dirname, "../../../shared/corpus");
const haveCorpus = existsSync(CORPUS);
if (!haveCorpus) console.warn(`[skip] corpus not found at ${CORPUS}: corpus tests skipped`);

interface Expected {
  agents: string[];
  /** agents whose sessions.json is `{}` */
  emptyStores: string[];
  live: number;
  reset: number;
  deleted: number;
  lock: number;
  entries: number;
  withoutFile: number;
  orphans: number;
  headers: number;
  user: number;
  assistant: number;
  toolResult: number;
  compactions: number;
  cacheTtl: number;
  branchPoints: number;
  /** entries whose parentId is in no line of their file (not in the spec table; counted with grep/python) */
  danglingParents: number;
}

// spec fixtures.md §4, both tables.
const EXPECTED: Record<string, Expected> = {
  "state-feb-small": {
    agents: ["main"],
    emptyStores: [],
    live: 2,
    reset: 0,
    deleted: 2,
    lock: 0,
    entries: 1,
    withoutFile: 0,
    orphans: 1,
    headers: 4,
    user: 57,
    assistant: 107,
    toolResult: 47,
    compactions: 0,
    cacheTtl: 0,
    branchPoints: 2,
    danglingParents: 0,
  },
  "state-feb-errors": {
    agents: ["main"],
    emptyStores: [],
    live: 3,
    reset: 0,
    deleted: 0,
    lock: 0,
    entries: 1,
    withoutFile: 0,
    orphans: 2,
    headers: 3,
    user: 50,
    assistant: 93,
    toolResult: 36,
    compactions: 0,
    cacheTtl: 0,
    branchPoints: 0,
    danglingParents: 0,
  },
  "state-branches-images": {
    agents: ["main"],
    emptyStores: [],
    live: 1,
    reset: 0,
    deleted: 0,
    lock: 1,
    entries: 1,
    withoutFile: 0,
    orphans: 0,
    headers: 1,
    user: 38,
    assistant: 148,
    toolResult: 99,
    compactions: 0,
    cacheTtl: 0,
    branchPoints: 2,
    danglingParents: 0,
  },
  "state-compactions": {
    agents: ["main"],
    emptyStores: [],
    live: 7,
    reset: 0,
    deleted: 6,
    lock: 2,
    entries: 1,
    withoutFile: 0,
    orphans: 6,
    headers: 13,
    user: 201,
    assistant: 1289,
    toolResult: 1085,
    compactions: 5,
    cacheTtl: 0,
    branchPoints: 1,
    danglingParents: 0,
  },
  "state-multiagent-cjk": {
    agents: ["anuo", "chairong", "chairrong", "huatuo", "main", "mrbeast", "yuantiangang"],
    emptyStores: ["chairrong"],
    live: 77,
    reset: 3,
    deleted: 9,
    lock: 0,
    entries: 54,
    withoutFile: 2,
    orphans: 27,
    headers: 89,
    user: 776,
    assistant: 3638,
    toolResult: 2874,
    compactions: 5,
    cacheTtl: 0,
    branchPoints: 25,
    danglingParents: 0,
  },
  "state-anthropic-cache": {
    agents: ["gabriel", "main", "metis", "rafael", "raguel", "samael", "uriel"],
    emptyStores: ["metis"],
    live: 51,
    reset: 14,
    deleted: 3,
    lock: 0,
    entries: 62,
    withoutFile: 10,
    orphans: 0,
    headers: 68,
    user: 1336,
    assistant: 4363,
    toolResult: 3054,
    compactions: 1,
    cacheTtl: 2,
    branchPoints: 47,
    danglingParents: 1,
  },
};

function countBranchPoints(s: LoadedSession): number {
  const children = new Map<string, number>();
  for (const e of s.transcript.entries) {
    if (e.parentId !== null) children.set(e.parentId, (children.get(e.parentId) ?? 0) + 1);
  }
  let n = 0;
  for (const c of children.values()) if (c >= 2) n++;
  return n;
}

describe.skipIf(!haveCorpus)("corpus state dirs", () => {
  for (const [folder, exp] of Object.entries(EXPECTED)) {
    const stateDir = path.join(CORPUS, folder);
    describe.skipIf(!existsSync(stateDir))(folder, () => {
      it("discovers every agent (empty stores included) and lists live / archived / orphans / missing", () => {
        const d = discoverState(stateDir);
        expect(d.issues).toEqual([]);
        expect(d.agents.map((a) => a.agentId)).toEqual(exp.agents);
        expect(d.agents.every((a) => a.sessionsDir !== null && a.sqlitePath === null)).toBe(true);

        const c = { live: 0, reset: 0, deleted: 0, lock: 0, entries: 0, withoutFile: 0, orphans: 0 };
        const empty: string[] = [];
        for (const a of d.agents) {
          if (!a.sessionsDir) continue;
          const l = listJsonlSessions(stateDir, a.agentId, a.sessionsDir);
          expect(l.issues).toEqual([]);
          if (l.entryKeyCount === 0) empty.push(a.agentId);
          c.entries += l.entryKeyCount;
          c.lock += l.skippedFiles.filter((f) => f.reason === "writer lock").length;
          for (const r of l.rows) {
            if (r.file === null) c.withoutFile++;
            else if (r.summary.archived === "reset") c.reset++;
            else if (r.summary.archived === "deleted") c.deleted++;
            else c.live++;
            if (r.summary.archived === "orphan") c.orphans++;
            // entries without file carry exactly one issue; every other row none
            expect(r.issues.map((i) => i.code)).toEqual(r.file === null ? ["transcript-missing"] : []);
          }
        }
        expect(c).toEqual({
          live: exp.live,
          reset: exp.reset,
          deleted: exp.deleted,
          lock: exp.lock,
          entries: exp.entries,
          withoutFile: exp.withoutFile,
          orphans: exp.orphans,
        });
        expect(empty).toEqual(exp.emptyStores);
      });

      it("every session key and every agent/sessionId that `sessions --json` prints resolves to its row (issue 13)", () => {
        const reader = openStateReader(stateDir, { cacheSize: 1 });
        const { sessions } = reader.listSessions();
        for (const s of sessions) {
          const ref = { agentId: s.agentId, sessionId: s.sessionId };
          expect(reader.resolveRef(`${s.agentId}/${s.sessionId}`), `${s.agentId}/${s.sessionId}`).toEqual(
            ref,
          );
          if (s.sessionKey !== null) expect(reader.resolveRef(s.sessionKey), s.sessionKey).toEqual(ref);
          // a listed entry without transcript is flagged, with the path it was looked for at
          if (s.missing) expect(s.location).toMatch(/^agents\/[^/]+\/sessions\/.+\.jsonl$/);
        }
        expect(sessions.filter((s) => s.missing).length).toBe(exp.withoutFile);
      });

      it("loads every listed session without crash and reproduces the parse counts", () => {
        const reader = openStateReader(stateDir, { cacheSize: 2 });
        const { sessions, issues } = reader.listSessions();
        // store-level issues are only the entries without transcript
        expect(issues.filter((i) => i.code !== "transcript-missing")).toEqual([]);
        expect(issues).toHaveLength(exp.withoutFile);
        const ids = new Set(sessions.map((s) => `${s.agentId}/${s.sessionId}`));
        expect(ids.size).toBe(sessions.length);

        const totals = {
          danglingParents: 0,
          headers: 0,
          user: 0,
          assistant: 0,
          toolResult: 0,
          compactions: 0,
          cacheTtl: 0,
          branchPoints: 0,
        };
        for (const summary of sessions) {
          const res = reader.loadSession({ agentId: summary.agentId, sessionId: summary.sessionId });
          if ("error" in res) throw new Error(`${summary.location}: ${res.error.code} ${res.error.message}`);
          const t = res.transcript;
          checkSummary(summary, res);
          // every problem is located: file-level issues name the file, line-level ones add the line
          for (const i of t.issues) {
            expect(i.source).toBe(summary.location);
            if (LINE_ERROR_CODES.has(i.code) || i.code === "truncated-line")
              expect(i.line).toBeGreaterThan(0);
          }
          if (summary.entryCount === null) {
            expect(t.entries).toEqual([]);
            continue;
          }
          // Real data has dangling parent links (state-anthropic-cache: one reset archive). Recompute them
          // independently and require exactly those as issues, at the right line.
          const ids = new Set(t.entries.map((e) => e.id));
          const dangling = t.entries
            .filter((e) => e.parentId !== null && !ids.has(e.parentId))
            .map((e) => e.line);
          expect(t.issues.map((i) => [i.code, i.line])).toEqual(
            dangling.map((line) => ["missing-parent", line]),
          );
          totals.danglingParents += dangling.length;
          expect(t.version).toBe(3);
          expect(t.entries.some((e) => e.type === "leaf")).toBe(false);
          expect(res.version.family).toBe("2026.3");
          expect(t.activeBranch.length).toBeGreaterThan(0);
          for (const e of t.entries) {
            if (e.type === "session") totals.headers++;
            else if (e.type === "compaction") totals.compactions++;
            else if (e.type === "custom" && str(e.raw, "customType") === "openclaw.cache-ttl")
              totals.cacheTtl++;
            else if (e.type === "message") {
              const role = str(obj(e.raw, "message"), "role");
              if (role === "user") totals.user++;
              else if (role === "assistant") totals.assistant++;
              else if (role === "toolResult") totals.toolResult++;
            }
          }
          totals.branchPoints += countBranchPoints(res);
        }
        expect(totals).toEqual({
          danglingParents: exp.danglingParents,
          headers: exp.headers,
          user: exp.user,
          assistant: exp.assistant,
          toolResult: exp.toolResult,
          compactions: exp.compactions,
          cacheTtl: exp.cacheTtl,
          branchPoints: exp.branchPoints,
        });
      });
    });
  }

  it("the two cache-ttl markers sit in a reset archive of agent main (state-anthropic-cache)", () => {
    const stateDir = path.join(CORPUS, "state-anthropic-cache");
    if (!existsSync(stateDir)) return;
    const reader = openStateReader(stateDir);
    const holders = reader
      .listSessions()
      .sessions.filter((s) => s.archived === "reset")
      .filter((s) => {
        const res = reader.loadSession({ agentId: s.agentId, sessionId: s.sessionId });
        return (
          !("error" in res) &&
          res.transcript.entries.some(
            (e) => e.type === "custom" && str(e.raw, "customType") === "openclaw.cache-ttl",
          )
        );
      });
    expect(holders.map((h) => h.agentId)).toEqual(["main"]);
  });
});

/** The cheap list row agrees with the full parse (entry count) and with the store entry. */
function checkSummary(listed: SessionSummary, s: LoadedSession): void {
  expect(s.summary.sessionId).toBe(listed.sessionId);
  // the load resolves the row without reading other files, then derives these from the full parse
  expect([s.summary.updatedAt, s.summary.model, s.summary.provider, s.summary.sizeBytes]).toEqual([
    listed.updatedAt,
    listed.model,
    listed.provider,
    listed.sizeBytes,
  ]);
  expect(s.summary.entryCount).toBe(listed.entryCount === null ? null : s.transcript.entries.length);
  if (listed.entryCount !== null) expect(listed.entryCount).toBe(s.transcript.entries.length);
  expect(s.summary.parseErrorCount).toBe(0);
  if (listed.archived === null) {
    expect(s.entry).not.toBeNull();
    expect(listed.sessionKey).not.toBeNull();
  } else {
    expect(s.entry).toBeNull();
  }
}
