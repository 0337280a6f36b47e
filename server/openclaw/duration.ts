// OpenClaw durations (`"20s"`, `"30m"`, `"1h30m"`, `"0m"`; bare numbers = minutes) — the one parser for
// every duration in the config: contextPruning.ttl, heartbeat.every and the what-if `--ttl`.
// Reproduces OpenClaw `src/cli/parse-duration.ts` parseDurationMs (FINDINGS.md §6 [code 9.6]). Pure.

import type { JsonValue } from "../../shared/json.ts";

export type DurationUnit = "ms" | "s" | "m" | "h" | "d";

const UNIT_MS: Record<DurationUnit, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

function unitMs(unit: string | undefined): number | undefined {
  return unit === "ms" || unit === "s" || unit === "m" || unit === "h" || unit === "d"
    ? UNIT_MS[unit]
    : undefined;
}

/**
 * One token `^\d+(\.\d+)?(ms|s|m|h|d)?$` (bare number → `defaultUnit`) or a composite of unit-bearing tokens
 * (`1h30m`, `2m500ms`), case-insensitive, trimmed. Null when unparseable.
 */
export function parseDurationMs(raw: string, defaultUnit: DurationUnit = "m"): number | null {
  const text = raw.trim().toLowerCase();
  if (!text) return null;
  const single = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text);
  if (single) {
    const value = Number(single[1]);
    const mult = unitMs(single[2] ?? defaultUnit);
    if (!Number.isFinite(value) || value < 0 || mult === undefined) return null;
    return Math.round(value * mult);
  }
  let total = 0;
  let consumed = 0;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)) {
    if (m.index !== consumed) return null;
    const value = Number(m[1]);
    const mult = unitMs(m[2]);
    if (!Number.isFinite(value) || mult === undefined) return null;
    total += value * mult;
    consumed += m[0].length;
  }
  if (consumed === 0 || consumed !== text.length) return null;
  return Math.round(total);
}

/**
 * A duration as it stands in the config JSON: a string by parseDurationMs (default unit minutes), a JSON
 * number as minutes. Anything else → null (shown as unknown rather than guessed).
 */
export function durationFromJson(value: JsonValue | undefined): number | null {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? value * 60_000 : null;
  return typeof value === "string" ? parseDurationMs(value, "m") : null;
}
