// Issue 9 (append → report): a tail read extends the tree of the previous read when the new entries simply
// continue the active branch, instead of re-walking every entry. Whatever is appended, the result must equal
// a full parse of the same bytes (tree.ts's rules: leaf rows, side appends, duplicate ids, missing parents).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseTranscriptBytes } from "../../server/sources/jsonl/read-transcript.ts";
import { type JsonlTailState, loadJsonlIncremental } from "../../server/sources/jsonl/tail.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-tree-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const header = { type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z" };
const msg = (id: string, parentId: string | null, extra: Record<string, unknown> = {}) => ({
  type: "message",
  id,
  parentId,
  timestamp: "2026-01-01T00:00:00.000Z",
  message: { role: "user", content: `text of ${id}` },
  ...extra,
});
const line = (v: unknown) => `${JSON.stringify(v)}\n`;

/** Write `base`, read it, append each step and read again: every read equals a full parse. */
function check(name: string, base: unknown[], steps: unknown[][]): { fast: boolean[] } {
  const file = path.join(dir, `${name}.jsonl`);
  fs.writeFileSync(file, base.map(line).join(""));
  let state: JsonlTailState | null = loadJsonlIncremental(file, name, null).state;
  const fast: boolean[] = [];
  for (const step of steps) {
    const before = state;
    fs.appendFileSync(file, step.map(line).join(""));
    const load = loadJsonlIncremental(file, name, before);
    expect(load.loadedBy).toBe("tail");
    expect(load.transcript, `${name} after ${JSON.stringify(step).slice(0, 60)}`).toEqual(
      parseTranscriptBytes(fs.readFileSync(file), name),
    );
    // the fast path keeps the earlier active branch array's prefix and adds exactly the new entries
    fast.push(before?.tree !== undefined && load.state.tree?.byId === before.tree.byId);
    state = load.state;
  }
  return { fast };
}

describe("tail reads extend the tree", () => {
  it("a chain of appends takes the fast path and equals a full parse", () => {
    const r = check(
      "chain",
      [header, msg("a", null), msg("b", "a")],
      [[msg("c", "b")], [msg("d", "c"), msg("e", "d")]],
    );
    expect(r.fast).toEqual([true, true]);
  });

  it("anything else falls back to tree.ts and still equals a full parse", () => {
    const base = [header, msg("a", null), msg("b", "a"), msg("x", "later")];
    const r = check("other", base, [
      [msg("c", "a")], // a branch off an earlier entry
      [msg("d", "c", { appendMode: "side" })], // side append: leaf stays
      [{ type: "leaf", id: "l1", parentId: null, targetId: "b" }], // leaf row moves the leaf
      [msg("b", "b")], // duplicate id
      [msg("later", "b")], // resolves x's missing parent
      [msg("e", "later"), "not an object"], // chain again, with a bad line
    ]);
    expect(r.fast.slice(0, 5)).toEqual([false, false, false, false, false]);
  });

  it("review cases: a repeated id within one append, a leaf id reused by a side append, a leaf row's late target", () => {
    check("dup-in-batch", [header, msg("a", null)], [[msg("c", "a"), msg("c", "c")]]);
    check(
      "leaf-id-reused",
      [header, msg("a", null), msg("x", "a"), msg("x", "a", { appendMode: "side" })],
      [[msg("c", "x")]],
    );
    check(
      "late-leaf-target",
      [header, msg("a", null), { type: "leaf", id: "l", parentId: null, targetId: "t" }, msg("b", "a")],
      [[msg("t", "b")], [msg("u", "t")]],
    );
  });
});
