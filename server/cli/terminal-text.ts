// What the CLI's text output may send to a terminal (issue 20). Transcripts, session keys, model names and file
// names are data from the state dir; written raw, a stored ESC/BEL/C1 sequence reaches the user's terminal (OSC 52
// writes the clipboard, CSI 2 J clears the screen, OSC 8 forges links). Text output (stdout without --json, every
// warning and error on stderr) shows C0 and C1 controls escaped instead; `--json` stays the exact data (JSON
// escapes C0 itself; a consumer that prints it raw is on its own). Newline and tab keep their meaning.

import type { ParseIssue } from "../../shared/session.ts";

/** Made on first use: the first Intl object loads ICU's locale data (~20 ms), which `--json` output never needs. */
let intFormat: Intl.NumberFormat | null = null;
function formatInt(n: number): string {
  intFormat ??= new Intl.NumberFormat("en-US");
  return intFormat.format(n);
}

/** True for the code units escaped: C0 except \t and \n, DEL, and C1 (U+0080–U+009F). */
function isControl(c: number): boolean {
  return (c < 0x20 && c !== 0x09 && c !== 0x0a) || (c >= 0x7f && c <= 0x9f);
}

/** `text` with every C0/C1 control (but \t and \n) written as `\xHH` (C0, DEL) or `\u00HH` (C1). */
export function escapeControls(text: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isControl(c)) continue;
    const hex = c.toString(16).padStart(2, "0");
    out += `${text.slice(from, i)}${c < 0x80 ? `\\x${hex}` : `\\u00${hex}`}`;
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * The `sessions` warnings as lines: issues of one file with one code collapse into one line — the first one's
 * location and message and how many more there are — so a store with thousands of broken entries prints one line
 * per kind of problem, not thousands (`--json` and the API keep every issue).
 */
export function issueLines(issues: readonly ParseIssue[]): string[] {
  const groups = new Map<string, { first: ParseIssue; count: number }>();
  for (const issue of issues) {
    const key = `${issue.severity}\u0000${issue.source}\u0000${issue.code}`;
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { first: issue, count: 1 });
  }
  return [...groups.values()].map(({ first, count }) => {
    const where = `${first.source}${first.line ? `:${first.line}` : first.seq !== undefined ? `#seq ${first.seq}` : ""}`;
    const more = count > 1 ? ` (and ${formatInt(count - 1)} more ${first.code} in this file)` : "";
    return escapeControls(`warning: ${where}: ${first.message}${more}`);
  });
}
