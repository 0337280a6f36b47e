// The truncation warning's signature, `systemPromptReport.bootstrapTruncation.promptWarningSignature` — spec
// bootstrap.md §7.1. Pure.

import type { BootstrapFileRow } from "../../model/system-prompt-report.ts";
import type { TruncationCause } from "./analysis.ts";

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
