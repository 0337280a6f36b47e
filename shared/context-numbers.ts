// The headline numbers of a session's context at its last model call — billed prompt, clawscope's tracked
// estimate, the untracked rest, the prompt's groups, images, skills and the context window — one DTO built by
// server/reports/context-numbers.ts, shown unchanged by the map, the /context tab, "Copy as issue", the HTML
// export and `clawscope map --json`. OpenClaw's own /context numbers (its tracked estimate, its untracked line) are
// kept beside them under `openclaw`, with the sentence that says why the two differ.

/** One group of the prompt: its chars and its tokens (Σ of its tiles' chars/4 estimates; untracked: the rest). */
export interface PromptGroupNumbers {
  /** The map's group key (`workspace`, `system`, `tools`, `skills`, `current-turn`, `conversation`, `untracked`). */
  key: string;
  name: string;
  chars: number;
  tokens: number;
}

/** The context window the session ran with, as OpenClaw's pruner resolves it (config → SessionEntry → default). */
export interface ContextWindowNumbers {
  tokens: number;
  /** Where the number came from, in words (`SessionEntry.contextTokens`, `models.providers.….contextWindow`, …). */
  source: string;
  /** Nothing was configured or recorded: `tokens` is OpenClaw's 200,000 default, an assumption. */
  assumed: boolean;
}

/** OpenClaw's own figures from `/context detail` (7.1+), null without a stored run report. */
export interface OpenClawNumbers {
  /** systemPrompt.chars + tools.schemaChars + currentTurn prompt + runtime context ("Tracked prompt estimate"). */
  trackedChars: number;
  trackedTokens: number;
  /** The SessionEntry's fresh `totalTokens` − trackedTokens ("Untracked provider/runtime overhead"), null when unknown. */
  untrackedTokens: number | null;
}

export interface ContextNumbersDTO {
  /** input + cacheRead + cacheWrite of the session's last billed model call; null when no call recorded usage. */
  billedPromptTokens: number | null;
  /** Σ chars of the tiles in the last call's prompt (images at OpenClaw's 8,000-char estimate). */
  trackedChars: number;
  /** Σ of those tiles' token estimates, each `ceil(chars / 4)`: what the map draws. */
  trackedTokens: number;
  /** billedPromptTokens − trackedTokens (negative: the estimate exceeds the bill); null when not comparable. */
  untrackedTokens: number | null;
  /** Why untracked is what it is, or why it is unknown. */
  untrackedReason: string;
  /**
   * The prompt by group, in the map's order, ending with `untracked` whenever it is known, so that
   * Σ tokens = billedPromptTokens exactly.
   */
  groups: PromptGroupNumbers[];
  /** Image blocks in the prompt, each counted as `imageChars` (OpenClaw's estimate). */
  images: { count: number; chars: number };
  /**
   * The skills prompt: `promptChars` is OpenClaw's `skills.promptChars` (/context's "Skills list"); the map's
   * Skills group holds the entries (`Σ blockChars`, OpenClaw's map) and the rest is the list's frame, drawn under
   * System prompt. Null without a stored run report.
   */
  skills: { promptChars: number; entriesChars: number; frameChars: number } | null;
  contextWindow: ContextWindowNumbers;
  /** billedPromptTokens / contextWindow.tokens, null when either is unknown or the window is assumed. */
  windowUsed: number | null;
  /** Messages written after the last call (its reply, a newer turn): not in that call's prompt, not in the map. */
  afterLastCall: { messages: number; chars: number };
  openclaw: OpenClawNumbers | null;
  /** One sentence: why clawscope's tracked / untracked differ from OpenClaw's. */
  whyTheyDiffer: string;
}
