// Which transcript file a sessions.json entry uses (spec storage.md §3, §7): its recorded `sessionFile` when it is
// inside this state dir, else rebased by name, else — a key whose session OpenClaw deleted or reset — the newest
// archive of it. A recorded path outside the state dir is never opened.

import path from "node:path";
import { type JsonObject, str } from "../../../shared/json.ts";
import { isSafeId } from "../discover.ts";
import { isInside, realpathOrNull } from "../fs-safety.ts";
import { classifyTranscriptFileName } from "./file-names.ts";

/**
 * Which transcript file a SessionEntry uses (storage.md §3, §7):
 * 1. the recorded absolute `sessionFile` when it exists inside this state dir's `agents/<id>/sessions`;
 * 2. else `<sessionsDir>/<basename(sessionFile)>` (rebased);
 * 3. else `<sessionsDir>/<sessionId>.jsonl` (rebased when a `sessionFile` was recorded);
 * 4. else none. A recorded path outside the state dir is never opened.
 */
export function resolveEntryFile(
  entry: JsonObject,
  sessionsDir: string,
  realStateDir: string,
  existing: Set<string>,
  newestArchive: ReadonlyMap<string, string>,
): { file: string | null; rebased: { recorded: string; actual: string } | null } {
  const recorded = str(entry, "sessionFile");
  const sessionId = str(entry, "sessionId") ?? "";
  if (recorded && path.isAbsolute(recorded)) {
    const real = realpathOrNull(recorded);
    const agentsDir = path.join(realStateDir, "agents");
    if (real && isInside(real, agentsDir) && path.basename(path.dirname(real)) === "sessions") {
      // Same dir as the one being read (possibly through a symlinked state dir): use our own spelling
      // so the file is recognised as consumed; a sibling agent's sessions dir is used as is.
      const realSessionsDir = realpathOrNull(sessionsDir);
      if (realSessionsDir && path.dirname(real) === realSessionsDir) {
        return { file: path.join(sessionsDir, path.basename(real)), rebased: null };
      }
      return { file: real, rebased: null };
    }
  }
  const candidates: string[] = [];
  if (recorded) {
    const base = path.basename(recorded.replace(/\\/g, "/"));
    if (base && base !== "." && base !== ".." && !base.includes("/")) candidates.push(base);
  }
  if (isSafeId(sessionId)) candidates.push(`${sessionId}.jsonl`);
  // the transcript itself, else its newest reset/deleted archive (a key whose session was deleted or reset)
  const found =
    candidates.find((name) => existing.has(name)) ??
    candidates.map((name) => newestArchive.get(name)).find((name) => name !== undefined);
  if (found === undefined) return { file: null, rebased: null };
  const actual = path.join(sessionsDir, found);
  return { file: actual, rebased: recorded && recorded !== actual ? { recorded, actual } : null };
}

/** `<id>.jsonl` → the file name of its newest reset/deleted archive in the dir. */
export function newestArchives(existing: Set<string>): Map<string, string> {
  const best = new Map<string, { name: string; at: number }>();
  for (const name of existing) {
    const kind = classifyTranscriptFileName(name);
    if (kind.kind !== "reset" && kind.kind !== "deleted") continue;
    const at = kind.archivedAt ?? Number.NEGATIVE_INFINITY;
    const prev = best.get(kind.baseName);
    if (!prev || at > prev.at || (at === prev.at && name > prev.name)) best.set(kind.baseName, { name, at });
  }
  return new Map([...best].map(([base, b]) => [base, b.name]));
}
