// OpenClaw's fixed size estimates, one definition each (all releases 2026.3.2 … 2026.9.x):
// tokens from chars (context-report.md §3, pruning.md §2.3), the char estimate of an image block and of a message of
// any role other than user / assistant / toolResult (pruning.md §1.4, §2.3). Everything that shows OpenClaw's
// token estimate — `/context`, OpenClaw's map, clawscope's map and truncation tables — uses tokensFromChars.

/** OpenClaw's token estimate for a char count: `ceil(max(0, chars) / 4)`. */
export function tokensFromChars(chars: number): number {
  return Math.ceil(Math.max(0, chars) / 4);
}

/** An image block counts 8,000 chars, every generation (pruning.md §1.4; OpenClaw's map, context-report.md §5.4). */
export const IMAGE_CHAR_ESTIMATE = 8000;

/** Any role other than user / assistant / toolResult counts 256 chars (pruning.md §1.4, §2.3). */
export const OTHER_ROLE_CHAR_ESTIMATE = 256;
