// The context as sent at every agent call of a session (issue 16): composes the OpenClaw wire rules
// (openclaw/wire/) over the decoded session and the faithful pruning replay, and pairs each call with its billed
// usage. Numbering is the replay's (1-based among the session's agent calls on the active branch). Pure: the host
// time zone, the agent's other sessions and media access come in through SentEnv.

import { isObject, type JsonObject, obj, str } from "../../../shared/json.ts";
import type { SentBasisDTO, SentCallDTO, SentCallsDTO } from "../../../shared/sent.ts";
import { type ModelCall, modelCallsOf } from "../../model/model-calls.ts";
import type { LoadedSession } from "../../model/session.ts";
import type { MediaAccess } from "../../openclaw/wire/history-images.ts";
import { dropsClaudeThinking } from "../../openclaw/wire/replay-history.ts";
import { runtimeFactsFragments } from "../../openclaw/wire/runtime-context.ts";
import { type AgentSessionNode, sessionCreatedNotices } from "../../openclaw/wire/system-events.ts";
import type { WireFamily, WirePolicy } from "../../openclaw/wire/wire-pipeline.ts";
import { type WireReleaseRules, wireReleaseRules } from "../../openclaw/wire/wire-release.ts";
import { type WireCall, WireRun } from "../../openclaw/wire/wire-run.ts";
import {
  appendOnlyRuntimeContext,
  deniedTools,
  mainSessionKey,
  modelTakesImages,
  notifiesOnCreate,
  requiresAdaptiveThinking,
  userTimeZone,
} from "../../openclaw/wire/wire-settings.ts";
import type { ReplayResult } from "../prune-replay/replay-result.ts";
import { ReplayProjections } from "./sent-projections.ts";

/** What the shell knows beyond the session. */
export interface SentEnv {
  /** clawscope's host time zone (OpenClaw stamps with its Gateway host's when `userTimezone` is unset). */
  hostTimeZone: string;
  /** The agent's other sessions (2026.9 session-created notices in the main session's carrier). */
  otherSessions: readonly AgentSessionNode[];
  media?: MediaAccess;
}

export interface SentInput {
  session: LoadedSession;
  config: JsonObject | null;
  /** The faithful pruning replay of the session (no what-if overrides). */
  replay: ReplayResult;
  env: SentEnv;
}

function familyOf(session: LoadedSession): WireFamily {
  return session.version.family === "2026.9" ? "2026.9" : "2026.7";
}

function toolNames(entry: JsonObject | null): Set<string> | null {
  const list = obj(obj(entry, "systemPromptReport"), "tools")?.entries;
  if (!Array.isArray(list)) return null;
  const names = new Set<string>();
  for (const t of list) {
    const name = isObject(t) ? str(t, "name") : undefined;
    if (name) names.add(name);
  }
  return names;
}

function basisOf(input: SentInput, family: WireFamily): SentBasisDTO {
  const tz = userTimeZone(input.config, input.env.hostTimeZone);
  const notes: string[] = [];
  if (tz.source === "host")
    notes.push(
      `user-message stamps use ${tz.zone}, clawscope's host time zone: OpenClaw used its Gateway host's zone (not stored; set agents.defaults.userTimezone to pin it)`,
    );
  if (input.session.version.family === "2026.3")
    notes.push("2026.3-era session: reconstructed with the 2026.7.1 rules (no capture of that release)");
  if (wireReleaseRules(input.session.version).runtimeCarrier)
    notes.push(
      "the runtime-context carrier holds what is on disk (system events of /compact and new sessions, attachments, no running background execs or subagents); other live state is not stored",
    );
  const approximated = wireReleaseRules(input.session.version).approximated;
  if (approximated) notes.push(`${approximated} (docs/openclaw-facts.md §8.3)`);
  return { family, timeZone: tz.zone, timeZoneSource: tz.source, notes };
}

/** Per-model policies, memoised (the history cache is kept while the same policy object comes back). */
class Policies {
  private readonly byKey = new Map<string, WirePolicy>();
  constructor(
    private readonly input: SentInput,
    private readonly family: WireFamily,
    private readonly release: WireReleaseRules,
    private readonly timeZone: string,
  ) {}

  for(call: ModelCall, thinkingLevel: string | null): WirePolicy {
    const key = `${call.provider}\u0000${call.api}\u0000${call.model}\u0000${thinkingLevel}`;
    let p = this.byKey.get(key);
    if (p) return p;
    const { config, session, env } = this.input;
    p = {
      family: this.family,
      runtimeCarrier: this.release.runtimeCarrier,
      imageCut: this.release.imageCut,
      mergeUsers: !appendOnlyRuntimeContext(call.model, call.api),
      dropThinking:
        this.family === "2026.9" && dropsClaudeThinking(call.provider ?? undefined, call.model ?? undefined),
      replayThinking:
        requiresAdaptiveThinking(call.model) || (thinkingLevel !== null && thinkingLevel !== "off"),
      imageInput: modelTakesImages(config, call.provider, call.model),
      target: {
        provider: call.provider ?? undefined,
        api: call.api ?? undefined,
        id: call.model ?? undefined,
      },
      timeZone: this.timeZone,
      escapeDelimiters: this.family === "2026.9" && session.transcript.version === 4,
      media: env.media ?? {},
      resolveText: false,
    };
    this.byKey.set(key, p);
    return p;
  }
}

function callEstimates(call: ModelCall, liveForm: readonly string[] | undefined): string[] {
  const out: string[] = [];
  if (liveForm?.length)
    out.push(
      `read result ${liveForm.join(", ")} was capped live: its first send is not stored (2026.7; the stored form is counted, within the live cap)`,
    );
  if (call.api && call.api !== "anthropic-messages")
    out.push(`counted in the Anthropic Messages shape; the ${call.api} API converts messages differently`);
  return out;
}

/** The reconstruction of every call (optionally materialising some calls' whole `messages`). */
export function sentWireCalls(
  input: SentInput,
  materialize?: (callIndex: number) => boolean,
  resolveText = false,
): { calls: WireCall[]; basis: SentBasisDTO; liveForm: ReadonlyMap<number, string[]> } {
  const family = familyOf(input.session);
  const basis = basisOf(input, family);
  const release = wireReleaseRules(input.session.version);
  const policies = new Policies(input, family, release, basis.timeZone);
  const projections = new ReplayProjections(input.session.transcript, input.replay);
  const { config, session, env } = input;
  const notices =
    release.sessionNotices && notifiesOnCreate(config)
      ? sessionCreatedNotices(
          mainSessionKey(config, session.summary.agentId),
          session.summary.sessionKey,
          env.otherSessions,
        )
      : [];
  const run = new WireRun({
    transcript: session.transcript,
    family,
    policyFor: (call, level) => {
      const p = policies.for(call, level);
      return resolveText ? { ...p, resolveText } : p;
    },
    projectionsAt: (i) => projections.at(i),
    runtimeFacts: runtimeFactsFragments(toolNames(session.entry), deniedTools(config)),
    sessionNotices: notices,
  });
  const calls = [...run.calls(materialize)];
  return { calls, basis, liveForm: projections.liveForm };
}

/** `map --call all`: every call's sent counts beside its billed usage. */
export function sentCalls(input: SentInput): SentCallsDTO {
  return sentCallsAndWire(input).dto;
}

/** The DTO and the reconstruction it was made from (`materialize` as for sentWireCalls). */
export function sentCallsAndWire(
  input: SentInput,
  materialize?: (callIndex: number) => boolean,
): { dto: SentCallsDTO; calls: WireCall[] } {
  const { calls, basis, liveForm } = sentWireCalls(input, materialize);
  const decoded = modelCallsOf(input.session.transcript);
  const out: SentCallDTO[] = [];
  for (const c of calls) {
    const mc = decoded.at(c.entryIndex);
    if (!mc) continue;
    out.push({
      call: c.callIndex + 1,
      responseId: mc.responseId,
      entryId: mc.entryId,
      timestamp: mc.atMs === null ? null : new Date(mc.atMs).toISOString(),
      sent: c.count,
      usage: {
        input: mc.usage.input,
        cacheRead: mc.usage.cacheRead,
        cacheWrite: mc.usage.cacheWrite,
        output: mc.usage.output,
      },
      estimated: callEstimates(mc, liveForm.get(c.callIndex)),
    });
  }
  return { dto: { calls: out, basis }, calls };
}
