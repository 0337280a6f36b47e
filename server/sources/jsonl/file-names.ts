// File names of a JSONL-era sessions dir (spec storage.md §3.2, docs/openclaw-facts.md §2): live
// transcripts, reset/deleted archives, backup and checkpoint copies, and the sidecars that are not sessions.
// Pure.
//
// Archive suffixes as OpenClaw writes them (`formatSessionArchiveTimestamp`, 2026.1.29 → 2026.9.6): UTC ISO with
// every `:` replaced by `-`, e.g. `….jsonl.reset.2026-04-05T04-22-28.629Z`. Also read, because they are found in
// real state dirs although OpenClaw's own recogniser rejects them (so its usage scan skips them):
// - epoch suffixes: `….jsonl.deleted.<13-digit ms>` (memory-core dreaming cleanup, 2026.4.15–2026.6.8) and
//   `….jsonl.deleted.<10-digit seconds>` (seen in real dirs; writer not found in any release checked — the
//   seconds reading is a guess, labelled);
// - a local UTC offset, `….jsonl.reset.2026-03-14T19-52-43.739+08-00` (seen on Windows installs; writer not
//   found — labelled);
// - a collision counter after the ISO suffix, `….deleted.<ISO-Z>.1` (Feishu doctor repair, 2026.6.5–2026.7.1).
// Copies that DUPLICATE another transcript's entries (never counted twice):
// - `….jsonl.bak.<ISO-Z>` (manual compact: the full pre-compact transcript), `….jsonl.bak-<pid>-<ms>` (session
//   file repair: the original bytes), `….jsonl.pre-doctor-<repair>-<ISO with : and . → ->.bak` (doctor repairs);
// - `<id>.checkpoint.<uuid>.jsonl` (pre-compaction checkpoint copy, 2026.4.15–2026.5.x).

export type ArchiveKind = "reset" | "deleted";
export type CopyKind = "backup" | "checkpoint";

export type TranscriptFileKind =
  | { kind: "live"; id: string }
  | {
      kind: ArchiveKind | CopyKind;
      /** Addressable id: the file name without its `.jsonl` part (`+` of an offset as `_`). */
      id: string;
      /** The transcript the file was archived or copied from (`<stem>.jsonl`). */
      baseName: string;
      /** Time encoded in the name (UTC ms), null when the name has none that parses. */
      archivedAt: number | null;
      /** How a suffix that is not OpenClaw's ISO-`Z` format was read (null for OpenClaw's own format). */
      timestampNote: string | null;
    }
  | { kind: "skip"; reason: string }
  | { kind: "other" };

/** `2026-04-05T04-22-28.629Z` (OpenClaw's archive suffix, `:` → `-`) → epoch ms; also `…+08-00` offsets. */
export function parseArchiveTimestamp(ts: string): number | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})[-:](\d{2})[-:](\d{2})(?:[-.](\d+))?(Z|[+-]\d{2}[-:]?\d{2})$/.exec(
    ts,
  );
  if (!m) return null;
  const zone = m[6] === "Z" || m[6] === undefined ? "Z" : `${m[6].slice(0, 3)}:${m[6].slice(-2)}`;
  const ms = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}${m[5] ? `.${m[5]}` : ""}${zone}`);
  return Number.isFinite(ms) ? ms : null;
}

/** A suffix after `.reset.` / `.deleted.` → time + how it was read; null when it is no timestamp. */
function archiveSuffixTime(suffix: string): { at: number | null; note: string | null } | null {
  const iso = /^(\d{4}-\d{2}-\d{2}T[0-9-]+(?:\.\d+)?Z)(?:\.(\d{1,3}))?$/.exec(suffix);
  if (iso?.[1]) {
    const at = parseArchiveTimestamp(iso[1]);
    return at === null
      ? null
      : { at, note: iso[2] ? `collision counter .${iso[2]} after the timestamp` : null };
  }
  if (/^\d{4}-\d{2}-\d{2}T[0-9-]+(?:\.\d+)?[+-]\d{2}-?\d{2}$/.test(suffix)) {
    const at = parseArchiveTimestamp(suffix);
    return at === null
      ? null
      : { at, note: "local time with a UTC offset (not OpenClaw's ISO-Z archive format)" };
  }
  if (/^\d{13}$/.test(suffix)) return { at: Number(suffix), note: "epoch milliseconds" };
  if (/^\d{10}$/.test(suffix))
    return {
      at: Number(suffix) * 1000,
      note: "epoch seconds (10 digits read as seconds; the writer is unknown)",
    };
  return null;
}

const COPY_RES: { re: RegExp; kind: CopyKind; time: (m: RegExpExecArray) => number | null }[] = [
  { re: /^(.+)\.jsonl\.(bak\.(.+))$/, kind: "backup", time: (m) => parseArchiveTimestamp(m[3] ?? "") },
  { re: /^(.+)\.jsonl\.(bak-\d+-(\d{13}))$/, kind: "backup", time: (m) => Number(m[3]) },
  {
    re: /^(.+)\.jsonl\.(pre-doctor-[a-z0-9-]+?-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\.bak)$/,
    kind: "backup",
    time: (m) => Date.parse(`${m[3]}T${m[4]}:${m[5]}:${m[6]}.${m[7]}Z`),
  },
  { re: /^(.+)\.jsonl\.(bak(?:[.-][^/]*)?)$/, kind: "backup", time: () => null },
  {
    re: /^(.+)\.(checkpoint\.[^./]+)\.jsonl$/,
    kind: "checkpoint",
    time: () => null,
  },
];

function copyKind(name: string): TranscriptFileKind | null {
  for (const { re, kind, time } of COPY_RES) {
    const m = re.exec(name);
    if (!m?.[1] || !m[2]) continue;
    const at = time(m);
    return {
      kind,
      id: `${m[1]}.${m[2]}`,
      baseName: `${m[1]}.jsonl`,
      archivedAt: at !== null && Number.isFinite(at) ? at : null,
      timestampNote: null,
    };
  }
  return null;
}

/** Classify a file name of a sessions dir (storage.md §3.2). Pure. */
export function classifyTranscriptFileName(name: string): TranscriptFileKind {
  if (name.endsWith(".trajectory.jsonl")) return { kind: "skip", reason: "trajectory (run trace)" };
  const copy = copyKind(name);
  if (copy) return copy;
  if (/\.lock$/.test(name)) return { kind: "skip", reason: "writer lock" };
  if (/\.(tmp|zst)$/.test(name))
    return { kind: "skip", reason: name.endsWith(".zst") ? "compressed archive" : "temp file" };
  if (name.endsWith(".jsonl")) return { kind: "live", id: name.slice(0, -".jsonl".length) };
  const m = /^(.+)\.jsonl\.(reset|deleted)\.([^/]+)$/.exec(name);
  const time = m?.[3] ? archiveSuffixTime(m[3]) : null;
  if (m?.[1] && m[3] && time && (m[2] === "reset" || m[2] === "deleted")) {
    return {
      kind: m[2],
      id: `${m[1]}.${m[2]}.${m[3].replace(/\+/g, "_")}`,
      baseName: `${m[1]}.jsonl`,
      archivedAt: time.at,
      timestampNote: time.note,
    };
  }
  if (name.includes(".jsonl.")) return { kind: "skip", reason: "unrecognised transcript-like file" };
  return { kind: "other" };
}

/** Archives and copies: files OpenClaw never appends to again. */
export function isArchiveOrCopy(kind: TranscriptFileKind): boolean {
  return (
    kind.kind === "reset" || kind.kind === "deleted" || kind.kind === "backup" || kind.kind === "checkpoint"
  );
}
