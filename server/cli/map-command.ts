// `clawscope map --session REF --call N|all [--json]` (issue 16): the context as sent at one agent call (its
// sent counts, billed usage and the map's tiles) or at every call. Without `--call` it prints the session's
// context map (the plain `map --json` contract is issue 15's).

import { promptTokensOf } from "../../shared/pricing.ts";
import type { Result } from "../../shared/result.ts";
import type { SentAtCallDTO, SentCallsDTO } from "../../shared/sent.ts";
import type { SessionService } from "../service/session-service.ts";
import { UsageError } from "./options.ts";

const int = new Intl.NumberFormat("en-US");

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
      int.format(c.sent.messageChars).padStart(13),
      int.format(promptTokensOf(c.usage)).padStart(14),
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
    `call ${dto.call} (${dto.timestamp ?? "no timestamp"}): ${dto.sent.messages} messages, ${int.format(dto.sent.messageChars)} message chars as sent`,
    `billed: input ${int.format(dto.usage.input)}, cache read ${int.format(dto.usage.cacheRead)}, cache write ${int.format(dto.usage.cacheWrite)}, output ${int.format(dto.usage.output)}`,
    ...dto.estimated.map((e) => `estimated: ${e}`),
    "",
    ...dto.tiles.map(
      (t) =>
        `${int.format(t.chars).padStart(10)}  ${t.path}${t.state && t.state !== "full" ? `  (${t.state})` : ""}`,
    ),
  ];
  return lines.join("\n");
}

function value<T>(r: Result<T>, fail: (message: string) => never): T {
  return r.ok ? r.value : fail(r.error.message);
}

/** The JSON value and the text of `map` for one session. */
export function mapOutput(
  service: SessionService,
  ref: { agentId: string; sessionId: string },
  call: string | undefined,
  fail: (message: string) => never,
): { json: unknown; text: () => string } {
  if (call === undefined) {
    const map = value(service.contextMap(ref.agentId, ref.sessionId), fail);
    return { json: map, text: () => JSON.stringify(map, null, 2) };
  }
  const n = parseCallFlag(call);
  if (n === "all") {
    const dto = value(service.sentCalls(ref.agentId, ref.sessionId), fail);
    return { json: dto, text: () => formatSentCalls(dto) };
  }
  const dto = value(service.sentAtCall(ref.agentId, ref.sessionId, n), fail);
  return { json: dto, text: () => formatSentAtCall(dto) };
}
