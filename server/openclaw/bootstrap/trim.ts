// Trimming one bootstrap file to its cap — spec bootstrap.md §4: `trimEnd()` first; 2026.3.2's fixed 70/20 split
// (§4.1), 2026.7.1/2026.9.x's converging 75/25 split (§4.2) and the AGENTS.md policy digest (§4.3). Pure.

import { isAgentsFile, type RuleFamily } from "./files-and-limits.ts";
import { buildPolicyDigest, type PolicyDigest } from "./policy-digest.ts";
import { cutSegments, type InjectedSegment, joinText, joinWithNewlines, sliceSeg } from "./segments.ts";

/**
 * The cut a release applies — openclaw/bootstrap/release-defaults.ts: 2026.4.20–2026.5.18 already split 75/25 but
 * had no AGENTS.md policy digest (it came with 2026.5.19); ≤ 2026.4.15 split 70/20. Absent = the family's own.
 */
export interface TrimRule {
  split: "70/20" | "75/25";
  agentsDigest: boolean;
  /** Whose policy digest: 2026.7.1's (to 2026.9.3) or 2026.9.6's (CJK policy words, prose pairing: 2026.9.4+). */
  digest: "2026.7" | "2026.9";
}

/** The cut of clawscope's reference releases: 2026.3.2 70/20; 2026.7.1 and 2026.9.x 75/25 with the digest. */
export function familyTrimRule(family: RuleFamily): TrimRule {
  const digest = family === "2026.9" ? "2026.9" : "2026.7";
  return family === "2026.3"
    ? { split: "70/20", agentsDigest: false, digest }
    : { split: "75/25", agentsDigest: true, digest };
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

/** A truncated file's result: its segments hard-cut to the cap (§4.2 step 6, §4.3 step 5). */
function cutResult(
  segments: readonly InjectedSegment[],
  sizes: Pick<TrimResult, "rawChars" | "cap" | "headChars" | "tailChars" | "digest">,
  safe: boolean,
): TrimResult {
  const cut = cutSegments(segments, sizes.cap, safe);
  return { text: joinText(cut), truncated: true, ...sizes, segments: cut };
}

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
  // the over-cap fallback is `truncateUtf16Safe` in 7.1 and 9.x alike (dist 7.1 embedded-agent-helpers-*.js)
  return cutResult(segments, { rawChars: n, cap, headChars: h, tailChars: t, digest: null }, true);
}

// §4.3 AGENTS.md policy digest (2026.7.1 and 2026.9.x).

function trimAgentsWithDigest(
  family: RuleFamily,
  digestRules: TrimRule["digest"],
  trimmed: string,
  cap: number,
): TrimResult {
  const n = trimmed.length;
  let h = Math.floor(cap * 0.45);
  let t = Math.floor(cap * 0.15);
  let d = Math.floor(cap * 0.35);
  let digest = buildPolicyDigest(digestRules, trimmed, d);
  // Head and tail: 7.1's `trimAgentsBootstrapContent` slices plainly (`trimmed.slice(0, headChars)`), 9.x
  // with `sliceUtf16Safe` (7.2-beta.1 / 7.35 already did; the 2026.7 family follows 7.1, its reference release).
  const safe = family === "2026.9";
  const render = (): InjectedSegment[] =>
    joinWithNewlines([
      sliceSeg(trimmed, 0, h, "kept-head", safe),
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
      t > 0 ? sliceSeg(trimmed, n - t, n, "kept-tail", safe) : { kind: "kept-tail", text: "" },
    ]);
  let segments = render();
  let len = joinText(segments).length;
  while (len > cap && (t > 0 || h > 1 || d > 0)) {
    const overflow = len - cap;
    if (t > 0) t = Math.max(0, t - overflow);
    else if (h > 1) h = Math.max(1, h - overflow);
    else {
      d = Math.max(0, d - overflow);
      digest = buildPolicyDigest(digestRules, trimmed, d);
    }
    segments = render();
    len = joinText(segments).length;
  }
  return cutResult(segments, { rawChars: n, cap, headChars: h, tailChars: t, digest }, true);
}

/**
 * Whether trimming this file to `cap` renders the AGENTS.md policy digest (2026.7.1+, §4.3): then the injected
 * length depends on the file's lines, not only on its length.
 */
export function trimUsesPolicyDigest(
  family: RuleFamily,
  name: string,
  rawChars: number,
  cap: number,
  rule: TrimRule = familyTrimRule(family),
): boolean {
  return rule.agentsDigest && isAgentsFile(name) && rawChars > cap;
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
  rule: TrimRule = familyTrimRule(family),
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
  if (rule.split === "70/20") return trim70_20(trimmed, name, cap);
  if (rule.agentsDigest && isAgentsFile(name)) return trimAgentsWithDigest(family, rule.digest, trimmed, cap);
  return trim75_25(trimmed, name, cap, family === "2026.9");
}
