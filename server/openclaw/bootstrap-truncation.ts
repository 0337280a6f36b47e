// OpenClaw's bootstrap-file injection and truncation, reproduced per rule family.
// Pure: file contents in, injected text + structured segments out. Every rule cites
// spec bootstrap.md (§1 file list, §2 limits, §3 total-budget loop, §4 trimming,
// §5 missing marker, §6 near-limit/causes, §7.1 warning signature).

import type { VersionInfo } from "../model/session.ts";
import type { BootstrapFileRow } from "../model/system-prompt-report.ts";

export type RuleFamily = VersionInfo["family"];

export interface BootstrapLimits {
  /** `bootstrapMaxChars`: cap per file. */
  maxPerFile: number;
  /** `bootstrapTotalMaxChars`: budget shared by all files, consumed in injection order. */
  maxTotal: number;
}

/** Defaults when neither report nor config names a value — spec bootstrap.md §2. */
export const DEFAULT_LIMITS: Record<RuleFamily, BootstrapLimits> = {
  "2026.3": { maxPerFile: 20_000, maxTotal: 150_000 },
  "2026.7": { maxPerFile: 20_000, maxTotal: 60_000 },
  "2026.9": { maxPerFile: 20_000, maxTotal: 60_000 },
};

/** 2026.9.x: USER.md is capped at min(bootstrapMaxChars, 4000) — spec bootstrap.md §2. */
export const USER_MD_FIXED_CAP = 4_000;
/** Files at ≥ 85 % of their limit are "near limit" — spec bootstrap.md §6. */
export const NEAR_LIMIT_RATIO = 0.85;
/** The loop stops when fewer than 64 chars remain for a non-missing file — spec §3. */
export const MIN_FILE_BUDGET = 64;

/**
 * Bootstrap file names in injection (= report) order — spec bootstrap.md §1.
 * 2026.3/2026.7 also inject TOOLS.md and HEARTBEAT.md; 2026.9.x retired both.
 * 2026.3.2 additionally accepts a lower-case `memory.md` (deduplicated by real path).
 */
export function bootstrapFileNames(family: RuleFamily): readonly string[] {
  switch (family) {
    case "2026.3":
      return [
        "AGENTS.md",
        "SOUL.md",
        "TOOLS.md",
        "IDENTITY.md",
        "USER.md",
        "HEARTBEAT.md",
        "BOOTSTRAP.md",
        "MEMORY.md",
        "memory.md",
      ];
    case "2026.7":
      return [
        "AGENTS.md",
        "SOUL.md",
        "TOOLS.md",
        "IDENTITY.md",
        "USER.md",
        "HEARTBEAT.md",
        "BOOTSTRAP.md",
        "MEMORY.md",
      ];
    case "2026.9":
      return ["AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md", "BOOTSTRAP.md", "MEMORY.md"];
  }
}

/** Memory files are listed only when they exist (never as `missing`) — spec §1. */
export function isOptionalBootstrapFile(name: string): boolean {
  return name === "MEMORY.md" || name === "memory.md";
}

function isAgentsFile(name: string): boolean {
  return name.toLowerCase() === "agents.md";
}

function isUserFile(name: string): boolean {
  return name.toLowerCase() === "user.md";
}

/**
 * Effective per-file limit L — spec bootstrap.md §2/§6: 2026.9.x caps USER.md at
 * min(bootstrapMaxChars, 4000); every other file (and every file before 9.x) gets bootstrapMaxChars.
 */
export function effectiveFileLimit(family: RuleFamily, name: string, maxPerFile: number): number {
  return family === "2026.9" && isUserFile(name) ? Math.min(maxPerFile, USER_MD_FIXED_CAP) : maxPerFile;
}

/** True when the file's limit is the fixed USER.md cap rather than bootstrapMaxChars. */
export function isFixedUserCap(family: RuleFamily, name: string, maxPerFile: number): boolean {
  return family === "2026.9" && isUserFile(name) && USER_MD_FIXED_CAP < maxPerFile;
}

// ---------------------------------------------------------------------------------------------
// UTF-16 slicing. OpenClaw 2026.9.x uses sliceUtf16Safe/truncateUtf16Safe (never leaves half of a
// surrogate pair at a cut); 2026.7.1 slices non-AGENTS files plainly — spec bootstrap.md §3.

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Start index of `s.slice(start)` after moving past a split pair (start inside a pair → +1). */
function safeStart(s: string, start: number): number {
  if (start > 0 && start < s.length && isLow(s.charCodeAt(start)) && isHigh(s.charCodeAt(start - 1))) {
    return start + 1;
  }
  return start;
}

/** End index of `s.slice(0, end)` after backing off a split pair (end inside a pair → −1). */
function safeEnd(s: string, end: number): number {
  if (end > 0 && end < s.length && isHigh(s.charCodeAt(end - 1)) && isLow(s.charCodeAt(end))) {
    return end - 1;
  }
  return end;
}

// ---------------------------------------------------------------------------------------------
// Segments: the injected text as an ordered list of parts, so a diff view can show what was kept,
// what OpenClaw added (markers, digest) and which source ranges were dropped.

export type SegmentKind =
  | "kept-head" // verbatim prefix of the trimmed file (the whole file when not truncated)
  | "kept-tail" // verbatim suffix of the trimmed file
  | "marker" // text OpenClaw adds: truncation notices, digest header, omitted-lines line
  | "digest" // AGENTS.md policy digest lines (normalised copies of source lines)
  | "separator" // the "\n" joining parts
  | "clamp-ellipsis" // the "…" the total-budget clamp appends
  | "missing-marker"; // "[MISSING] Expected at: <path>"

export interface InjectedSegment {
  kind: SegmentKind;
  text: string;
  /** For kept-head / kept-tail: the [from, to) range of the trimmed source text it copies. */
  sourceFrom?: number;
  sourceTo?: number;
}

export interface DroppedRange {
  /** [from, to) in the trimmed source text (UTF-16 code units). */
  from: number;
  to: number;
  text: string;
}

export interface PolicyDigest {
  text: string;
  /** Candidate lines (9.x: units, possibly two lines) considered. */
  candidates: number;
  selected: number;
  omittedLines: number;
  /** Digest budget D after any shrinking. */
  budget: number;
}

export interface TrimResult {
  /** Final text for this file before the total-budget clamp. */
  text: string;
  truncated: boolean;
  /** Length of content.trimEnd() — the report's rawChars. */
  rawChars: number;
  /** The cap the file was trimmed to. */
  cap: number;
  /** Head/tail sizes as printed in the marker (0/0 when not truncated). */
  headChars: number;
  tailChars: number;
  digest: PolicyDigest | null;
  segments: InjectedSegment[];
}

function sliceSeg(
  trimmed: string,
  from: number,
  to: number,
  kind: "kept-head" | "kept-tail",
  safe: boolean,
): InjectedSegment {
  const f = safe ? safeStart(trimmed, from) : from;
  const t = safe ? safeEnd(trimmed, to) : to;
  return { kind, text: trimmed.slice(f, Math.max(f, t)), sourceFrom: f, sourceTo: Math.max(f, t) };
}

function joinText(segments: readonly InjectedSegment[]): string {
  return segments.map((s) => s.text).join("");
}

/** Interleave non-empty parts with "\n" separator segments. */
function joinWithNewlines(parts: InjectedSegment[]): InjectedSegment[] {
  const out: InjectedSegment[] = [];
  for (const p of parts) {
    if (p.text.length === 0) continue;
    if (out.length > 0) out.push({ kind: "separator", text: "\n" });
    out.push(p);
  }
  return out;
}

/**
 * Cut a segment list to its first `n` chars (like `text.slice(0, n)`; UTF-16-safe when `safe`),
 * keeping segment kinds and adjusting source ranges of kept parts.
 */
export function cutSegments(
  segments: readonly InjectedSegment[],
  n: number,
  safe: boolean,
): InjectedSegment[] {
  const full = joinText(segments);
  if (full.length <= n) return segments.map((s) => ({ ...s }));
  const end = Math.max(0, safe ? safeEnd(full, n) : n);
  const out: InjectedSegment[] = [];
  let pos = 0;
  for (const s of segments) {
    if (pos >= end) break;
    const take = Math.min(s.text.length, end - pos);
    if (take === s.text.length) out.push({ ...s });
    else {
      const cut: InjectedSegment = { kind: s.kind, text: s.text.slice(0, take) };
      if (s.sourceFrom !== undefined) {
        cut.sourceFrom = s.sourceFrom;
        cut.sourceTo = s.sourceFrom + take;
      }
      out.push(cut);
    }
    pos += take;
  }
  return out;
}

/** Source ranges of the trimmed text that appear nowhere verbatim in the injected segments. */
export function droppedRanges(trimmed: string, segments: readonly InjectedSegment[]): DroppedRange[] {
  const kept = segments
    .filter((s) => s.sourceFrom !== undefined && s.sourceTo !== undefined && s.sourceTo > s.sourceFrom)
    .map((s) => [s.sourceFrom ?? 0, s.sourceTo ?? 0] as const)
    .sort((a, b) => a[0] - b[0]);
  const out: DroppedRange[] = [];
  let pos = 0;
  for (const [from, to] of kept) {
    if (from > pos) out.push({ from: pos, to: from, text: trimmed.slice(pos, from) });
    pos = Math.max(pos, to);
  }
  if (pos < trimmed.length) out.push({ from: pos, to: trimmed.length, text: trimmed.slice(pos) });
  return out;
}

// ---------------------------------------------------------------------------------------------
// §4.1 2026.3.2: fixed 70/20 split, not re-fitted to the cap.

function trim70_20(trimmed: string, name: string, cap: number): TrimResult {
  const n = trimmed.length;
  const h = Math.floor(cap * 0.7);
  const t = Math.floor(cap * 0.2);
  const segments: InjectedSegment[] = [
    sliceSeg(trimmed, 0, h, "kept-head", false),
    {
      kind: "marker",
      text: `\n\n[...truncated, read ${name} for full content...]\n…(truncated ${name}: kept ${h}+${t} chars of ${n})…\n\n`,
    },
  ];
  if (t > 0) segments.push(sliceSeg(trimmed, n - t, n, "kept-tail", false));
  const nonEmpty = segments.filter((s) => s.text.length > 0);
  return {
    text: joinText(nonEmpty),
    truncated: true,
    rawChars: n,
    cap,
    headChars: h,
    tailChars: t,
    digest: null,
    segments: nonEmpty,
  };
}

// §4.2 2026.7.1 / 2026.9.x: converging 75/25 split of what remains after the marker.
const MIN_TRIMMED_CONTENT = 16;

function trim75_25(trimmed: string, name: string, cap: number, safe: boolean): TrimResult {
  const n = trimmed.length;
  const full = (h: number, t: number) =>
    `\n[...truncated, read ${name} for full content...]\n…(truncated ${name}: kept ${h}+${t} chars of ${n})…\n`;
  const compact = (h: number, t: number) => `[…truncated ${h}+${t}/${n}]`;
  const useFull = cap - full(0, 0).length - 2 >= MIN_TRIMMED_CONTENT;
  const marker = useFull ? full : compact;
  // Separators count only with the full marker, and only for non-empty head/tail.
  const seps = (h: number, t: number) => (useFull ? Number(h > 0) + Number(t > 0) : 0);

  let h = 0;
  let t = 0;
  let m = marker(0, 0);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const budget = Math.max(0, cap - m.length - seps(h, t));
    const nh = Math.floor(budget * 0.75);
    const nt = Math.floor(budget * 0.25);
    const nm = marker(nh, nt);
    if (nh === h && nt === t && nm.length === m.length) break;
    h = nh;
    t = nt;
    m = nm;
  }
  let len = h + t + m.length + seps(h, t);
  while (len > cap && (t > 0 || h > 0)) {
    const overflow = len - cap;
    if (t > 0) t = Math.max(0, t - overflow);
    else h = Math.max(0, h - overflow);
    m = marker(h, t);
    len = h + t + m.length + seps(h, t);
  }
  if (h === 0 && t === 0 && n > 0) {
    const single = marker(1, 0);
    if (1 + single.length + seps(1, 0) <= cap) {
      h = 1;
      m = single;
    }
  }
  const head = sliceSeg(trimmed, 0, h, "kept-head", safe);
  const tail: InjectedSegment =
    t > 0 ? sliceSeg(trimmed, n - t, n, "kept-tail", safe) : { kind: "kept-tail", text: "" };
  const parts = [head, { kind: "marker" as const, text: m }, tail].filter((p) => p.text.length > 0);
  let segments: InjectedSegment[] = [];
  if (useFull) segments = joinWithNewlines(parts);
  else segments = parts;
  segments = cutSegments(segments, cap, safe);
  return {
    text: joinText(segments),
    truncated: true,
    rawChars: n,
    cap,
    headChars: h,
    tailChars: t,
    digest: null,
    segments,
  };
}

// §4.3 AGENTS.md policy digest (2026.7.1 and 2026.9.x).

const POLICY_WORDS =
  /\b(?:AGENTS\.md|scoped|required|must|never|do not|before subtree|read scoped|owner|security|secret|credential|test|validation|command|commit|push|github|pr)\b/iu;
const HIGH_PRIORITY_WORDS =
  /\b(?:AGENTS\.md|scoped|required|must|never|do not|before subtree|read scoped|security|secret|credential)\b/iu;
// 2026.9.x adds CJK / emoji policy words. `\b` never matches next to CJK characters, so these
// are matched as plain substrings (as the 9.x digest does).
const POLICY_WORDS_CJK = /(?:🔴|禁止|嚴禁|不得|絕不|絕對不|切勿|必須|務必|一律|紅線)/u;
const HIGH_PRIORITY_CJK = /(?:🔴|禁止|嚴禁|不得|絕不|絕對不|切勿)/u;
const STRUCTURAL_LINE = /^(?:#{1,6}|\s*[-*+]|\s*\d+[.)])\s+\S/u;
const FENCE_LINE = /^\s*(?:`{3,}|~{3,})/u;
const DIGEST_MAX_LINE = 240;

function normalizeDigestLine(line: string): string {
  const normalized = line.trim().replace(/\s+/gu, " ");
  if (normalized.length <= DIGEST_MAX_LINE) return normalized;
  return `${normalized.slice(0, safeEnd(normalized, DIGEST_MAX_LINE - 1))}…`;
}

interface DigestCandidate {
  index: number;
  text: string;
  high: boolean;
}

function isCandidate(family: RuleFamily, line: string): boolean {
  if (STRUCTURAL_LINE.test(line) || POLICY_WORDS.test(line)) return true;
  return family === "2026.9" && POLICY_WORDS_CJK.test(line);
}

function isHighPriority(family: RuleFamily, line: string): boolean {
  if (HIGH_PRIORITY_WORDS.test(line)) return true;
  return family === "2026.9" && HIGH_PRIORITY_CJK.test(line);
}

/**
 * Candidate lines of the digest. 2026.7.1: single normalised lines. 2026.9.x: a candidate directly
 * preceded by a prose line (non-candidate, non-fence, non-empty) becomes the unit "prose\nline";
 * empty lines and code fences reset the previous prose line — spec bootstrap.md §4.3.
 */
export function policyDigestCandidates(family: RuleFamily, content: string): DigestCandidate[] {
  const out: DigestCandidate[] = [];
  let prose: string | null = null;
  const lines = content.split(/\r?\n/u);
  for (let index = 0; index < lines.length; index += 1) {
    const line = normalizeDigestLine(lines[index] ?? "");
    if (line.length === 0) {
      prose = null;
      continue;
    }
    if (family === "2026.9" && FENCE_LINE.test(line)) {
      prose = null;
      continue;
    }
    if (!isCandidate(family, line)) {
      prose = line;
      continue;
    }
    const text = family === "2026.9" && prose !== null ? `${prose}\n${line}` : line;
    out.push({ index, text, high: isHighPriority(family, line) });
    prose = null;
  }
  return out;
}

/** Select digest lines: high priority first, then the rest, each only if it still fits in `budget`. */
export function buildPolicyDigest(family: RuleFamily, content: string, budget: number): PolicyDigest {
  if (budget <= 0) return { text: "", candidates: 0, selected: 0, omittedLines: 0, budget };
  const candidates = policyDigestCandidates(family, content);
  const selected = new Set<number>();
  let used = 0;
  const trySelect = (c: DigestCandidate) => {
    const sep = selected.size > 0 ? 1 : 0;
    if (used + sep + c.text.length > budget) return;
    selected.add(c.index);
    used += sep + c.text.length;
  };
  for (const c of candidates) if (c.high) trySelect(c);
  for (const c of candidates) if (!selected.has(c.index)) trySelect(c);
  const lines = candidates.filter((c) => selected.has(c.index)).map((c) => c.text);
  return {
    text: lines.join("\n"),
    candidates: candidates.length,
    selected: lines.length,
    omittedLines: Math.max(0, candidates.length - lines.length),
    budget,
  };
}

function trimAgentsWithDigest(family: RuleFamily, trimmed: string, cap: number): TrimResult {
  const n = trimmed.length;
  let h = Math.floor(cap * 0.45);
  let t = Math.floor(cap * 0.15);
  let d = Math.floor(cap * 0.35);
  let digest = buildPolicyDigest(family, trimmed, d);
  // The AGENTS.md renderer always uses UTF-16-safe slicing (7.1 and 9.x).
  const render = (): InjectedSegment[] =>
    joinWithNewlines([
      sliceSeg(trimmed, 0, h, "kept-head", true),
      { kind: "marker", text: "[...truncated, read AGENTS.md for full content...]" },
      { kind: "marker", text: digest.text ? "[Policy digest from AGENTS.md]" : "" },
      { kind: "digest", text: digest.text },
      {
        kind: "marker",
        text: digest.omittedLines > 0 ? `[...${digest.omittedLines} more policy lines omitted...]` : "",
      },
      {
        kind: "marker",
        text: `…(truncated AGENTS.md: kept ${h}+policy ${digest.text.length}+${t} chars of ${n})…`,
      },
      t > 0 ? sliceSeg(trimmed, n - t, n, "kept-tail", true) : { kind: "kept-tail", text: "" },
    ]);
  let segments = render();
  let len = joinText(segments).length;
  while (len > cap && (t > 0 || h > 1 || d > 0)) {
    const overflow = len - cap;
    if (t > 0) t = Math.max(0, t - overflow);
    else if (h > 1) h = Math.max(1, h - overflow);
    else {
      d = Math.max(0, d - overflow);
      digest = buildPolicyDigest(family, trimmed, d);
    }
    segments = render();
    len = joinText(segments).length;
  }
  segments = cutSegments(segments, cap, true);
  return {
    text: joinText(segments),
    truncated: true,
    rawChars: n,
    cap,
    headChars: h,
    tailChars: t,
    digest,
    segments,
  };
}

/**
 * Trim one file's content to `cap` — spec bootstrap.md §4. Always `trimEnd()` first; content that
 * fits is injected unchanged.
 */
export function trimBootstrapContent(
  family: RuleFamily,
  name: string,
  content: string,
  cap: number,
): TrimResult {
  const trimmed = content.trimEnd();
  if (trimmed.length <= cap) {
    const segments: InjectedSegment[] =
      trimmed.length > 0
        ? [{ kind: "kept-head", text: trimmed, sourceFrom: 0, sourceTo: trimmed.length }]
        : [];
    return {
      text: trimmed,
      truncated: false,
      rawChars: trimmed.length,
      cap,
      headChars: 0,
      tailChars: 0,
      digest: null,
      segments,
    };
  }
  if (family === "2026.3") return trim70_20(trimmed, name, cap);
  if (isAgentsFile(name)) return trimAgentsWithDigest(family, trimmed, cap);
  return trim75_25(trimmed, name, cap, family === "2026.9");
}

/**
 * The total-budget clamp — spec bootstrap.md §3: budget ≤ 0 → ""; fits → unchanged;
 * budget ≤ 3 → first `budget` chars; else first budget−1 chars + "…".
 */
export function clampToBudget(
  segments: readonly InjectedSegment[],
  budget: number,
  safe: boolean,
): { segments: InjectedSegment[]; clamped: boolean } {
  const len = joinText(segments).length;
  if (budget <= 0) return { segments: [], clamped: len > 0 };
  if (len <= budget) return { segments: segments.map((s) => ({ ...s })), clamped: false };
  if (budget <= 3) return { segments: cutSegments(segments, budget, safe), clamped: true };
  return {
    segments: [...cutSegments(segments, budget - 1, safe), { kind: "clamp-ellipsis", text: "…" }],
    clamped: true,
  };
}

// ---------------------------------------------------------------------------------------------
// §3 the total-budget loop.

export interface BootstrapFileInput {
  name: string;
  /** Recorded path (used verbatim in the missing marker); "" = no path → skipped with a warning. */
  path: string;
  /** File content; null = missing. */
  content: string | null;
  /**
   * What happens to a missing file's `[MISSING] Expected at: <path>` marker — spec §5:
   * "inject" (2026.3.2: in the prompt, counted in injectedChars, E1–E3 reports show 66/72);
   * "budget-only" (2026.7/2026.9 default: the marker consumes total budget in the loop but the
   * prompt and the report show nothing — held-back 9.6 capture: 1,444 left after USER.md, MEMORY.md
   * trimmed to 1,378 = 1,444 − 66, the BOOTSTRAP.md marker length; 7.1 UNVERIFIED);
   * "none" (not part of the loop at all).
   */
  missingMarker?: MissingMarkerMode;
}

export type MissingMarkerMode = "inject" | "budget-only" | "none";

export type SkipReason =
  | "budget-exhausted" // remaining total budget was 0 before this file
  | "below-min-budget" // fewer than 64 chars left for a non-missing file
  | "no-path" // hook-provided file without a path
  | "empty-after-clamp" // nothing left after trimming/clamping
  | "missing-not-injected"; // missing file whose marker OpenClaw does not inject

export interface FileInjection {
  name: string;
  path: string;
  missing: boolean;
  /** content.trimEnd().length (0 when missing) — the report's rawChars. */
  rawChars: number;
  /** Chars removed by trimEnd() (trailing whitespace; never counted in rawChars). */
  trailingWhitespaceChars: number;
  /** Chars this file took from the total budget (= injectedChars, or the marker for "budget-only"). */
  budgetUsed: number;
  /** Whether OpenClaw put this file into Project Context at all. */
  injected: boolean;
  injectedText: string;
  /** Length of injectedText (incl. markers) — the report's injectedChars. */
  injectedChars: number;
  /** !missing && injectedChars < rawChars — as the report computes it. */
  truncated: boolean;
  /** Effective per-file limit L (USER.md fixed cap in 9.x). */
  fileLimit: number;
  /** Total budget left when the loop reached this file (null if it stopped earlier). */
  budgetBefore: number | null;
  /** Cap the file was trimmed to: max(1, min(L, budgetBefore)); null when not trimmed. */
  trimCap: number | null;
  /** Trimming cut the file (per-file or budget-limited cap). */
  trimmedByCap: boolean;
  /** The total-budget clamp shortened the trimmed text. */
  clampedByTotal: boolean;
  skipReason: SkipReason | null;
  headChars: number;
  tailChars: number;
  digest: PolicyDigest | null;
  segments: InjectedSegment[];
  dropped: DroppedRange[];
}

export interface InjectionRun {
  family: RuleFamily;
  maxPerFile: number;
  maxTotal: number;
  /** Total budget actually used (max(1, floor(maxTotal))). */
  totalBudget: number;
  files: FileInjection[];
  remainingAfter: number;
  /** OpenClaw's log warnings for this run (skips, budget stop). */
  warnings: string[];
}

/** Default handling of a missing file's marker per family — see BootstrapFileInput.missingMarker. */
export function defaultMissingMarkerMode(family: RuleFamily): MissingMarkerMode {
  return family === "2026.3" ? "inject" : "budget-only";
}

/** Simulate OpenClaw's injection of `files` (in the given order) — spec bootstrap.md §3–§5. */
export function simulateBootstrapInjection(opts: {
  family: RuleFamily;
  files: readonly BootstrapFileInput[];
  maxPerFile: number;
  maxTotal: number;
}): InjectionRun {
  const { family, maxPerFile, maxTotal } = opts;
  const totalBudget = Math.max(1, Math.floor(maxTotal));
  let remaining = totalBudget;
  let stopped = false;
  const warnings: string[] = [];
  const safe = family === "2026.9";
  const files: FileInjection[] = [];
  for (const f of opts.files) {
    const missing = f.content === null;
    const trimmedSource = f.content === null ? "" : f.content.trimEnd();
    const row: FileInjection = {
      name: f.name,
      path: f.path,
      missing,
      rawChars: trimmedSource.length,
      trailingWhitespaceChars: f.content === null ? 0 : f.content.length - trimmedSource.length,
      budgetUsed: 0,
      injected: false,
      injectedText: "",
      injectedChars: 0,
      truncated: false,
      fileLimit: effectiveFileLimit(family, f.name, maxPerFile),
      budgetBefore: stopped || remaining <= 0 ? null : remaining,
      trimCap: null,
      trimmedByCap: false,
      clampedByTotal: false,
      skipReason: null,
      headChars: 0,
      tailChars: 0,
      digest: null,
      segments: [],
      dropped: [],
    };
    files.push(row);
    const finish = () => {
      row.injectedText = joinText(row.segments);
      row.injectedChars = row.injectedText.length;
      row.injected = row.injectedChars > 0;
      row.truncated = !missing && row.injectedChars < row.rawChars;
      row.dropped = missing ? [] : droppedRanges(trimmedSource, row.segments);
    };
    if (stopped || remaining <= 0) {
      stopped = true;
      row.skipReason = "budget-exhausted";
      finish();
      continue;
    }
    if (f.path.trim() === "") {
      warnings.push(`skipping bootstrap file "${f.name}" — missing or invalid "path" field`);
      row.skipReason = "no-path";
      finish();
      continue;
    }
    if (missing) {
      const mode = f.missingMarker ?? defaultMissingMarkerMode(family);
      if (mode === "none") {
        row.skipReason = "missing-not-injected";
        finish();
        continue;
      }
      const marker: InjectedSegment[] = [
        { kind: "missing-marker", text: `[MISSING] Expected at: ${f.path.trim()}` },
      ];
      const clamped = clampToBudget(marker, remaining, safe);
      if (clamped.segments.length === 0) {
        stopped = true;
        row.skipReason = "budget-exhausted";
        finish();
        continue;
      }
      const markerChars = joinText(clamped.segments).length;
      if (mode === "inject") {
        row.segments = clamped.segments;
        row.clampedByTotal = clamped.clamped;
      }
      finish();
      row.budgetUsed = markerChars;
      remaining = Math.max(0, remaining - markerChars);
      continue;
    }
    if (remaining < MIN_FILE_BUDGET) {
      warnings.push(
        `remaining bootstrap budget is ${remaining} chars (<${MIN_FILE_BUDGET}); skipping additional bootstrap files`,
      );
      stopped = true;
      row.skipReason = "below-min-budget";
      finish();
      continue;
    }
    const cap = Math.max(1, Math.min(row.fileLimit, remaining));
    const trim = trimBootstrapContent(family, f.name, f.content ?? "", cap);
    row.trimCap = cap;
    row.trimmedByCap = trim.truncated;
    row.headChars = trim.headChars;
    row.tailChars = trim.tailChars;
    row.digest = trim.digest;
    // 2026.7.1 clamps with truncateUtf16Safe for AGENTS.md only; 9.x everywhere — spec §3.
    const clamped = clampToBudget(
      trim.segments,
      remaining,
      safe || (family === "2026.7" && isAgentsFile(f.name)),
    );
    if (clamped.segments.length === 0) {
      row.skipReason = "empty-after-clamp";
      finish();
      continue;
    }
    row.segments = clamped.segments;
    row.clampedByTotal = clamped.clamped;
    if (trim.truncated || clamped.clamped) {
      warnings.push(
        `workspace bootstrap file ${f.name} is ${trim.rawChars} chars (limit ${cap}); truncating in injected context`,
      );
    }
    finish();
    row.budgetUsed = row.injectedChars;
    remaining = Math.max(0, remaining - row.injectedChars);
  }
  return { family, maxPerFile, maxTotal, totalBudget, files, remainingAfter: remaining, warnings };
}

// ---------------------------------------------------------------------------------------------
// §6 near-limit analysis and causes.

export type TruncationCause = "per-file-limit" | "total-limit";

export interface RowAnalysis {
  fileLimit: number;
  nearLimit: boolean;
  causes: TruncationCause[];
  /** Total budget available when the walk reached this file (9.x rule; informative for others). */
  availBefore: number;
}

export interface BootstrapAnalysis {
  rows: RowAnalysis[];
  totalRawChars: number;
  totalInjectedChars: number;
  truncatedFiles: number;
  nearLimitFiles: number;
  totalNearLimit: boolean;
}

/**
 * Near-limit flags and causes from report rows — spec bootstrap.md §6. 2026.3.2 stores no analysis;
 * there clawscope applies the 7.1 rules per file with the /context 3.2 total rule (Σraw > total cap).
 */
export function analyzeBootstrapRows(
  family: RuleFamily,
  rows: readonly BootstrapFileRow[],
  maxPerFile: number,
  maxTotal: number,
): BootstrapAnalysis {
  const counted = rows.filter((r) => !r.missing && r.nativeUnverified !== true);
  const totalRawChars = counted.reduce((a, r) => a + r.rawChars, 0);
  const totalInjectedChars = counted.reduce((a, r) => a + r.injectedChars, 0);
  const totalHit = family === "2026.3" ? totalRawChars > maxTotal : totalInjectedChars >= maxTotal;
  let avail = maxTotal;
  const out: RowAnalysis[] = [];
  for (const r of rows) {
    const fileLimit = effectiveFileLimit(family, r.name, maxPerFile);
    const availBefore = avail;
    avail = Math.max(0, avail - r.injectedChars);
    const nearLimit = !r.missing && r.rawChars >= Math.ceil(fileLimit * NEAR_LIMIT_RATIO);
    const causes: TruncationCause[] = [];
    if (r.truncated) {
      if (r.rawChars > fileLimit) causes.push("per-file-limit");
      const total = family === "2026.9" ? availBefore < fileLimit && r.rawChars > availBefore : totalHit;
      if (total) causes.push("total-limit");
    }
    out.push({ fileLimit, nearLimit, causes, availBefore });
  }
  return {
    rows: out,
    totalRawChars,
    totalInjectedChars,
    truncatedFiles: rows.filter((r) => r.truncated).length,
    nearLimitFiles: rows.filter((r, i) => out[i]?.nearLimit === true && r.nativeUnverified !== true).length,
    totalNearLimit: totalInjectedChars >= Math.ceil(maxTotal * NEAR_LIMIT_RATIO),
  };
}

/**
 * `bootstrapTruncation.promptWarningSignature` — spec bootstrap.md §7.1. Undefined when nothing
 * is truncated.
 */
export function promptWarningSignature(
  rows: readonly BootstrapFileRow[],
  causes: readonly (readonly TruncationCause[])[],
  maxPerFile: number,
  maxTotal: number,
): string | undefined {
  const files = rows
    .map((r, i) => ({ r, c: [...(causes[i] ?? [])].sort() }))
    .filter(({ r }) => r.truncated)
    .map(({ r, c }) => ({
      path: r.path || r.name,
      rawChars: r.rawChars,
      injectedChars: r.injectedChars,
      causes: c,
    }))
    .sort(
      (a, b) =>
        a.path.localeCompare(b.path) ||
        a.rawChars - b.rawChars ||
        a.injectedChars - b.injectedChars ||
        a.causes.join(",").localeCompare(b.causes.join(",")),
    );
  if (files.length === 0) return undefined;
  return JSON.stringify({ bootstrapMaxChars: maxPerFile, bootstrapTotalMaxChars: maxTotal, files });
}
