// `clawscope map --session REF [--call N|all] [--json]`. Without `--call` (issue 15): the context at the last call as
// numbers — the billed prompt, clawscope's tracked estimate, the untracked rest and the prompt by group (Σ
// groups[].tokens = billedPromptTokens whenever the billed prompt is known) — the same DTO the map, /context and the
// exports print (server/reports/context-numbers.ts). With `--call` (issue 16): the context as sent at one agent call
// (its sent counts, billed usage and the map's tiles) or at every call.

import type { ContextNumbersDTO } from "../../shared/context-numbers.ts";
import { fmtInt, fmtPct } from "../../shared/format.ts";
import { promptTokensOf } from "../../shared/pricing.ts";
import type { Result } from "../../shared/result.ts";
import type { SentAtCallDTO, SentCallsDTO } from "../../shared/sent.ts";
import type { SessionService } from "../service/session-service.ts";
import { UsageError } from "./options.ts";

/** `--call`: "all" or a 1-based call number. */
export function parseCallFlag(value: string): number | "all" {
  if (value === "all") return "all";
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`--call must be a call number (1, 2, …) or all, not ${JSON.stringify(value)}`);
  return n;
}

export function formatSentCalls(dto: SentCallsDTO): string {
  const rows = dto.calls.map((c) =>
    [
      String(c.call).padStart(5),
      (c.timestamp ?? "-").padEnd(24),
      String(c.sent.messages).padStart(8),
      fmtInt(c.sent.messageChars).padStart(13),
      fmtInt(promptTokensOf(c.usage)).padStart(14),
      c.estimated.length ? "estimated" : "",
    ].join("  "),
  );
  const head = [
    "call".padStart(5),
    "timestamp".padEnd(24),
    "messages",
    "message chars",
    "billed prompt",
    "",
  ].join("  ");
  return [
    head,
    ...rows,
    "",
    `rules: OpenClaw ${dto.basis.family}; stamps in ${dto.basis.timeZone} (${dto.basis.timeZoneSource})`,
    ...dto.basis.notes,
  ]
    .join("\n")
    .trimEnd();
}

export function formatSentAtCall(dto: SentAtCallDTO): string {
  const lines = [
    `call ${dto.call} (${dto.timestamp ?? "no timestamp"}): ${dto.sent.messages} messages, ${fmtInt(dto.sent.messageChars)} message chars as sent`,
    `billed: input ${fmtInt(dto.usage.input)}, cache read ${fmtInt(dto.usage.cacheRead)}, cache write ${fmtInt(dto.usage.cacheWrite)}, output ${fmtInt(dto.usage.output)}`,
    ...dto.estimated.map((e) => `estimated: ${e}`),
    "",
    ...dto.tiles.map(
      (t) =>
        `${fmtInt(t.chars).padStart(10)}  ${t.path}${t.state && t.state !== "full" ? `  (${t.state})` : ""}`,
    ),
  ];
  return lines.join("\n");
}

function value<T>(r: Result<T>, fail: (message: string) => never): T {
  return r.ok ? r.value : fail(r.error.message);
}

/** The text form: one row per group, then the totals and how they were made. */
export function formatContextNumbers(n: ContextNumbersDTO): string {
  const width = Math.max(5, ...n.groups.map((g) => g.name.length));
  const row = (name: string, chars: string, tokens: string) =>
    `${name.padEnd(width)}  ${chars.padStart(11)}  ${tokens.padStart(10)}`;
  const w = n.contextWindow;
  const lines = [
    row("group", "chars", "tokens"),
    ...n.groups.map((g) => row(g.name, g.key === "untracked" ? "" : fmtInt(g.chars), fmtInt(g.tokens))),
    "",
    `billed prompt (last call): ${n.billedPromptTokens === null ? "unknown" : `${fmtInt(n.billedPromptTokens)} tok`}`,
    `tracked: ${fmtInt(n.trackedChars)} chars, ~${fmtInt(n.trackedTokens)} tok (Σ of the tiles' chars/4 estimates)`,
    `untracked: ${n.untrackedTokens === null ? "unknown" : `${fmtInt(n.untrackedTokens)} tok`} — ${n.untrackedReason}`,
    `context window: ${fmtInt(w.tokens)} tok (${w.source})${n.windowUsed === null ? "" : `, ${fmtPct(n.windowUsed)} used`}`,
  ];
  if (n.skills)
    lines.push(
      `skills prompt: ${fmtInt(n.skills.promptChars)} chars (/context's Skills list) = ${fmtInt(n.skills.entriesChars)} in the entries (Skills) + ${fmtInt(n.skills.frameChars)} of list frame (under System prompt)`,
    );
  if (n.images.count > 0)
    lines.push(
      `images: ${fmtInt(n.images.count)} × 8,000 chars (OpenClaw's estimate) = ${fmtInt(n.images.chars)}`,
    );
  if (n.afterLastCall.messages > 0)
    lines.push(
      `after the last call (not in its prompt): ${fmtInt(n.afterLastCall.messages)} message(s), ${fmtInt(n.afterLastCall.chars)} chars`,
    );
  if (n.openclaw)
    lines.push(
      `OpenClaw's /context: tracked ~${fmtInt(n.openclaw.trackedTokens)} tok, untracked ${n.openclaw.untrackedTokens === null ? "unknown" : `${fmtInt(n.openclaw.untrackedTokens)} tok`} — ${n.whyTheyDiffer}`,
    );
  return lines.join("\n");
}

/** The JSON value and the text of `map` for one session. */
export function mapOutput(
  service: SessionService,
  ref: { agentId: string; sessionId: string },
  call: string | undefined,
  fail: (message: string) => never,
): { json: unknown; text: () => string } {
  if (call === undefined) {
    const r: Result<ContextNumbersDTO> = service.contextNumbers(ref.agentId, ref.sessionId);
    const numbers = value(r, fail);
    return { json: numbers, text: () => formatContextNumbers(numbers) };
  }
  const n = parseCallFlag(call);
  if (n === "all") {
    const dto = value(service.sentCalls(ref.agentId, ref.sessionId), fail);
    return { json: dto, text: () => formatSentCalls(dto) };
  }
  const dto = value(service.sentAtCall(ref.agentId, ref.sessionId, n), fail);
  return { json: dto, text: () => formatSentAtCall(dto) };
}
