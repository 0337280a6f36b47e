// File names of a JSONL-era sessions dir (spec storage.md §3.2): live transcripts, reset/deleted archives and
// the copies and sidecars that are not sessions. Pure.

export type TranscriptFileKind =
  | { kind: "live"; id: string }
  | { kind: "reset" | "deleted"; id: string; baseName: string; archivedAt: number | null }
  | { kind: "skip"; reason: string }
  | { kind: "other" };

const ARCHIVE_RE = /^(.+)\.jsonl\.(reset|deleted)\.(\d{4}-\d{2}-\d{2}T[0-9:.-]+Z)$/;
const CHECKPOINT_RE = /\.checkpoint\.[^.]+\.jsonl$/;

/** `2026-04-05T04-22-28.629Z` (archive suffix: `:` and `.` replaced by `-`) → epoch ms. */
export function parseArchiveTimestamp(ts: string): number | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})[-:](\d{2})[-:](\d{2})(?:[-.](\d+))?Z$/.exec(ts);
  if (!m) return null;
  const ms = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}${m[5] ? `.${m[5]}` : ""}Z`);
  return Number.isFinite(ms) ? ms : null;
}

/** Classify a file name of a sessions dir (storage.md §3.2). Pure. */
export function classifyTranscriptFileName(name: string): TranscriptFileKind {
  if (name.endsWith(".trajectory.jsonl")) return { kind: "skip", reason: "trajectory (run trace)" };
  if (CHECKPOINT_RE.test(name)) return { kind: "skip", reason: "pre-compaction checkpoint copy" };
  if (/\.lock$/.test(name)) return { kind: "skip", reason: "writer lock" };
  if (/\.jsonl\..*\bbak\b|\.bak$/.test(name)) return { kind: "skip", reason: "backup copy" };
  if (/\.(tmp|zst)$/.test(name))
    return { kind: "skip", reason: name.endsWith(".zst") ? "compressed archive" : "temp file" };
  if (name.endsWith(".jsonl")) return { kind: "live", id: name.slice(0, -".jsonl".length) };
  const m = ARCHIVE_RE.exec(name);
  if (m?.[1] && m[3] && (m[2] === "reset" || m[2] === "deleted")) {
    return {
      kind: m[2],
      id: `${m[1]}.${m[2]}.${m[3]}`,
      baseName: `${m[1]}.jsonl`,
      archivedAt: parseArchiveTimestamp(m[3]),
    };
  }
  if (name.includes(".jsonl.")) return { kind: "skip", reason: "unrecognised transcript-like file" };
  return { kind: "other" };
}
