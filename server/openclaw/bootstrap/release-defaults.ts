// OpenClaw's bootstrap defaults per release, read from each npm build's dist/ (docs/openclaw-facts.md §4.2,
// extended by the fidelity pass to 2026.5.12/5.18/5.19/5.20/5.26): `DEFAULT_BOOTSTRAP_MAX_CHARS`,
// `DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS`, `BOOTSTRAP_HEAD_RATIO`/`BOOTSTRAP_TAIL_RATIO`, whether AGENTS.md gets the
// policy digest, `DEFAULT_BOOTSTRAP_PROMPT_TRUNCATION_WARNING_MODE` and whether a per-agent cap is read — from
// src/agents/pi-embedded-helpers/bootstrap.ts (≤ 2026.5.18) / src/agents/embedded-agent-helpers/bootstrap.ts.
// clawscope's rule families (2026.3 / 2026.7 / 2026.9) are coarser: this table says what a known release used
// where a session's stored report does not. Pure.

import { compareReleases, parseRelease, type Release } from "../release.ts";
import type { BootstrapLimits } from "./files-and-limits.ts";

export interface ReleaseBootstrapDefaults {
  /** The npm releases whose dist/ was read for this row (first … last). */
  first: string;
  last: string;
  maxPerFile: number;
  /** `bootstrapTotalMaxChars` default; null = the release has no total cap (≤ 2026.2.12: no total loop). */
  maxTotal: number | null;
  /** `trimBootstrapContent`: fixed 70/20 head/tail, or the converging 75/25 split. */
  split: "70/20" | "75/25";
  /** AGENTS.md is cut with the policy digest instead of the head/tail split. */
  agentsDigest: boolean;
  /** Whose digest: 2026.7.1's (English keywords, one line each) or 2026.9.4's (CJK words, prose pairs, fences). */
  digest: "2026.7" | "2026.9";
  /** `bootstrapPromptTruncationWarning` default; null = the option does not exist. */
  warningDefault: "once" | "always" | null;
  /** `resolveBootstrapMaxChars(cfg, agentId)` reads the agent's own value before `agents.defaults`. */
  perAgentCaps: boolean;
}

/** In release order; every row from the code of its `first` and `last` release (and the ones between named there). */
export const RELEASE_BOOTSTRAP_DEFAULTS: readonly ReleaseBootstrapDefaults[] = [
  // 1.29, 2.9, 2.12: `maxChars ?? DEFAULT_BOOTSTRAP_MAX_CHARS`, no total loop
  row("2026.1.29", "2026.2.12", 20_000, null, "70/20", false, null, false),
  // 2.17, 2.26, 3.2: DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS = 15e4
  row("2026.2.17", "2026.3.2", 20_000, 150_000, "70/20", false, null, false),
  // 3.22, 4.1, 4.9, 4.12, 4.14: the warning option appears, default "once"
  row("2026.3.22", "2026.4.14", 20_000, 150_000, "70/20", false, "once", false),
  // 4.15: 12e3 / 6e4, still BOOTSTRAP_HEAD_RATIO = .7 (no npm release between 4.15 and 4.20)
  row("2026.4.15", "2026.4.15", 12_000, 60_000, "70/20", false, "once", false),
  // 4.20 … 5.12: BOOTSTRAP_HEAD_RATIO = .75 with the converging marker; no digest yet
  row("2026.4.20", "2026.5.12", 12_000, 60_000, "75/25", false, "once", false),
  // 5.18: warning default "always", per-agent caps (resolveAgentConfig); no digest yet
  row("2026.5.18", "2026.5.18", 12_000, 60_000, "75/25", false, "always", true),
  // 5.19, 5.20, 5.26, 5.28: AGENTS.md policy digest; bootstrap.ts equal to 2026.7.1's but the per-file cap
  row("2026.5.19", "2026.5.31-beta.3", 12_000, 60_000, "75/25", true, "always", true),
  // 5.31-beta.4 … 9.3 (6.1, 6.5, 6.6, 6.8, 6.11, 6.35, 7.1, 7.2-beta.1, 7.35, 8.1, 8.2, 9.1–9.3): 2e4 / 6e4
  row("2026.5.31-beta.4", "2026.9.3", 20_000, 60_000, "75/25", true, "always", true),
  // 9.4, 9.5, 9.6: the same caps; AGENTS_POLICY_DIGEST_CANDIDATE_PATTERN with CJK policy words, prose pairing
  row("2026.9.4", "2026.9.6", 20_000, 60_000, "75/25", true, "always", true, "2026.9"),
];

function row(
  first: string,
  last: string,
  maxPerFile: number,
  maxTotal: number | null,
  split: "70/20" | "75/25",
  agentsDigest: boolean,
  warningDefault: "once" | "always" | null,
  perAgentCaps: boolean,
  digest: "2026.7" | "2026.9" = "2026.7",
): ReleaseBootstrapDefaults {
  return { first, last, maxPerFile, maxTotal, split, agentsDigest, digest, warningDefault, perAgentCaps };
}

/** The defaults of one release and how sure that is. */
export interface ReleaseDefaultsLookup {
  release: string;
  defaults: ReleaseBootstrapDefaults;
  /** True when the release lies inside a row's checked range; false = assumed from a neighbour. */
  verified: boolean;
  /** Said to the user: "2026.5.7: defaults of 2026.4.20–2026.5.12" or "… assumed from …". */
  note: string;
}

function range(d: ReleaseBootstrapDefaults): string {
  return d.first === d.last ? d.first : `${d.first}–${d.last}`;
}

const parsed = RELEASE_BOOTSTRAP_DEFAULTS.map((d) => {
  const first = parseRelease(d.first);
  const last = parseRelease(d.last);
  if (!first || !last) throw new Error(`release-defaults: bad row ${d.first}–${d.last}`);
  return { d, first, last };
});

/**
 * The bootstrap defaults of an OpenClaw release (null when the string is no release). A release between two rows
 * (a beta or an unchecked stable, e.g. 2026.5.16-beta.3) takes the older row's values, labelled as assumed.
 */
export function releaseBootstrapDefaults(version: string): ReleaseDefaultsLookup | null {
  const v = parseRelease(version);
  if (!v) return null;
  const le = (a: Release, b: Release) => compareReleases(a, b) <= 0;
  let before: (typeof parsed)[number] | null = null;
  for (const p of parsed) {
    if (le(p.first, v) && le(v, p.last)) {
      return { release: v.text, defaults: p.d, verified: true, note: `${v.text}: defaults of ${range(p.d)}` };
    }
    if (le(p.last, v)) before = p;
  }
  const first = parsed[0];
  if (before === null) {
    if (!first) return null;
    const note = `${v.text} is older than every release checked: defaults of ${range(first.d)} assumed`;
    return { release: v.text, defaults: first.d, verified: false, note };
  }
  const next = parsed[parsed.indexOf(before) + 1];
  const why = next
    ? `it lies between ${before.d.last} and ${next.d.first}, not checked`
    : `it is newer than ${before.d.last}, the newest release checked`;
  const note = `${v.text}: defaults of ${range(before.d)} assumed (${why})`;
  return { release: v.text, defaults: before.d, verified: false, note };
}

/**
 * The caps a release applies when neither the report nor the config names one. A release without a total cap
 * (≤ 2026.2.12) gets `fallbackTotal` — the caller says so (see totalCapNote).
 */
export function releaseLimits(d: ReleaseBootstrapDefaults, fallbackTotal: number): BootstrapLimits {
  return { maxPerFile: d.maxPerFile, maxTotal: d.maxTotal ?? fallbackTotal };
}

/** What the table says when the release had no total cap and clawscope's loop needs one. */
export function totalCapNote(d: ReleaseBootstrapDefaults, usedTotal: number): string | null {
  if (d.maxTotal !== null) return null;
  return (
    `OpenClaw ${range(d)} has no total bootstrap cap (bootstrapTotalMaxChars did not exist yet); the table applies ` +
    `${usedTotal.toLocaleString("en-US")}, which changes nothing unless the files would inject more than that.`
  );
}
