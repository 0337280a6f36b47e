// Redaction of the report DTOs for shared exports (issue 8, "Share"): what a user can paste into a public bug
// report or screenshot without leaking their conversation. PURE: DTOs in, DTOs out.
//
// Design: an ALLOW-LIST. A generic deep walk keeps numbers, booleans and null everywhere, and keeps a string
// only where a rule for its key path says so (enum states, tool/skill names, model/provider names, bootstrap
// file basenames, timestamps, durations, clawscope's own fixed labels). Every other string — message text,
// tool output, previews, summaries, paths, workspaceDir, reasons/notes that may quote paths — becomes
// REDACTED. A field added to a DTO later is therefore redacted until someone allow-lists it here.
// Ids (session, entry, response, tool-call ids) are not content, but they are replaced by a short stable hash
// anyway, so links between tables (previousCallEntryId → entryId) survive without exposing the originals.

import type { ContextMapDTO } from "../../shared/context-map.ts";
import type { CostReportDTO } from "../../shared/cost.ts";
import type { JsonObject } from "../../shared/json.ts";
import type { PruneReplayDTO } from "../../shared/prune.ts";
import {
  agentId,
  basename,
  hashId,
  lastSegment,
  MAP_LABELS,
  mapId,
  mapName,
  REDACTED,
  sessionKey,
  toolName,
} from "../../shared/redact-rules.ts";
import type { RunReportDTO } from "../../shared/run-report.ts";
import type { SessionSummary } from "../../shared/session.ts";
import type { TruncationReportDTO } from "../../shared/truncation.ts";
import { DEFAULT_PLACEHOLDER } from "../openclaw/pruning/settings.ts";
import { WHY_THEY_DIFFER } from "../reports/context-numbers.ts";
import { type Policy, type Rule, redactWith, under } from "./redact-walk.ts";

/** Notice shown instead of OpenClaw's `/context` texts (they quote the workspace path, tool and skill text). */
export const REDACTED_TEXTS_NOTICE = "The /context texts are omitted from redacted exports.";

// ---------------------------------------------------------------------------------------------------------------
// String rules: each returns the kept value, a safe derivative, or REDACTED / a hash.

const ENUM_RE = /^[A-Za-z0-9][A-Za-z0-9_.:+/-]{0,63}$/;
const MODEL_RE = /^[A-Za-z0-9][A-Za-z0-9_.:@+/-]{0,119}$/;
const ISO_RE = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,9})?)?(Z|[+-]\d\d:?\d\d)?$/;
const DURATION_RE = /^(\d+(\.\d+)?\s*(ms|s|m|h|d)?\s*){1,4}$/;
const VERSION_RE = /^\d{4}\.\d{1,2}\.\d{1,3}([.-][A-Za-z0-9.]{1,20})?$/;
const COLOR_RE = /^(rgb\(\d{1,3},\s*\d{1,3},\s*\d{1,3}\)|#[0-9a-fA-F]{3,8})$/;
/** Config key paths like `models.providers.anthropic.models[claude-x].contextWindow`. */
const CONFIG_REF_RE = /^[A-Za-z0-9_.:@+/[\]-]{1,160}$/;
const GLOB_RE = /^[A-Za-z0-9_.:*?-]{1,80}$/;

const keep: Rule = (v) => v;
const enumRule: Rule = (v) => (ENUM_RE.test(v) ? v : REDACTED);
const hashRule: Rule = (v) => hashId(v);
const isoRule: Rule = (v) => (ISO_RE.test(v) ? v : REDACTED);
const durationRule: Rule = (v) => (DURATION_RE.test(v.trim()) ? v : REDACTED);
const versionRule: Rule = (v) => (VERSION_RE.test(v) ? v : REDACTED);
const colorRule: Rule = (v) => (COLOR_RE.test(v) ? v : REDACTED);
const configRefRule: Rule = (v) => (CONFIG_REF_RE.test(v) ? v : REDACTED);
const globRule: Rule = (v) => (GLOB_RE.test(v) ? v : REDACTED);

/** Tool and skill names are kept (they are what a bug report needs); odd ones become a hash. */
export const toolRule: Rule = (v) => toolName(v);

/** Model/provider names are kept; a local model given as a file path keeps only its basename. */
const modelRule: Rule = (v) => {
  const name = /[/\\]/.test(v) && /^([~/\\.]|[A-Za-z]:)/.test(v) ? lastSegment(v) : v;
  return MODEL_RE.test(name) ? name : REDACTED;
};

/** Bootstrap files keep their basename only (`/home/u/ws/AGENTS.md` → `AGENTS.md`). */
export const basenameRule: Rule = (v) => basename(v);

const agentIdRule: Rule = (v) => agentId(v);

const sessionKeyRule: Rule = (v) => sessionKey(v);

/** OpenClaw's default hard-clear placeholder (pruning.md) stays; a custom one is user text. */
const placeholderRule: Rule = (v) => (v === DEFAULT_PLACEHOLDER ? v : REDACTED);

const labelRule: Rule = (v) => (MAP_LABELS.has(v) ? v : REDACTED);

const mapIdRule: Rule = (v) => mapId(v);

/** Map tile names by where the tile sits (its id), as on screen. */
const mapNameRule: Rule = (v, parent) => mapName(v, typeof parent.id === "string" ? parent.id : "");

// ---------------------------------------------------------------------------------------------------------------
// Allow-lists per DTO.

/** The headline numbers (shared/context-numbers.ts): fixed labels and sentences stay, a config path as one. */
const NUMBERS_RULES: Record<string, Rule> = {
  "groups[].key": enumRule,
  "groups[].name": labelRule,
  "contextWindow.source": configRefRule,
  whyTheyDiffer: (v) => (v === WHY_THEY_DIFFER ? v : REDACTED),
};

const SUMMARY_RULES: Record<string, Rule> = {
  agentId: agentIdRule,
  sessionId: hashRule,
  sessionKey: sessionKeyRule,
  storage: enumRule,
  archived: enumRule,
  model: modelRule,
  provider: modelRule,
};

const STORED_REPORT_RULES: Record<string, Rule> = {
  source: enumRule,
  provider: modelRule,
  model: modelRule,
  sessionId: hashRule,
  sessionKey: sessionKeyRule,
  "injectedWorkspaceFiles[].name": basenameRule,
  "injectedWorkspaceFiles[].path": basenameRule,
  "injectedWorkspaceFiles[].injectionStatus": enumRule,
  "tools.entries[].name": toolRule,
  "skills.entries[].name": toolRule,
  "sandbox.mode": enumRule,
  "currentTurn.kind": enumRule,
  "bootstrapTruncation.warningMode": enumRule,
  // Signatures are compared with each other (a warning shown once): hashed alike, they still compare.
  "bootstrapTruncation.promptWarningSignature": hashRule,
  "bootstrapTruncation.warningSignaturesSeen[]": hashRule,
};

/** The SessionEntry `/context` renders from, masked: the report's rules above, every other string [redacted]. */
const CONTEXT_ENTRY_POLICY: Policy = {
  strings: {
    sessionId: hashRule,
    model: modelRule,
    modelProvider: modelRule,
    ...under("systemPromptReport", STORED_REPORT_RULES),
  },
  records: {},
};

/** Rules for the /context texts a redacted run report carries (rendered from the masked entry: kept). */
const CONTEXT_TEXT_RULES: Record<string, Rule> = {
  ...Object.fromEntries(
    ["list", "detail", "json", "help"].flatMap((k) => [
      [k, keep],
      [`redacted.${k}`, keep],
    ]),
  ),
  "detailAsOf.kind": enumRule,
  "detailAsOf.entryId": hashRule,
  "detailAsOf.timestamp": isoRule,
};

const RUN_REPORT_POLICY: Policy = {
  strings: {
    ...under("session", SUMMARY_RULES),
    "version.appVersion": versionRule,
    "version.family": enumRule,
    ...under("systemPromptReport.report", STORED_REPORT_RULES),
    "totals.files[].name": basenameRule,
    "totals.files[].path": basenameRule,
    "totals.files[].status": enumRule,
    "conversation.toolResultsByTool[].toolName": toolRule,
    "lastCall.entryId": hashRule,
    "lastCall.timestamp": isoRule,
    "lastCall.provider": modelRule,
    "lastCall.model": modelRule,
    "lastCall.stopReason": enumRule,
    "texts.notice": keep, // set by redactRunReport itself (REDACTED_TEXTS_NOTICE)
    ...under("texts", CONTEXT_TEXT_RULES), // set by redactRunReport itself (the masked renderings)
    ...under("numbers", NUMBERS_RULES),
  },
  records: { "conversation.byRole": "ident" },
};

const MAP_POLICY: Policy = {
  strings: {
    "root.id": mapIdRule,
    "root.name": mapNameRule,
    "root.group": enumRule,
    "root.cache": enumRule,
    "root.children[].id": mapIdRule,
    "root.children[].name": mapNameRule,
    "root.children[].group": enumRule,
    "root.children[].cache": enumRule,
    "groups[].key": enumRule,
    "groups[].name": labelRule,
    "groups[].color": colorRule,
    "tokenizer.state": enumRule,
    "tokenizer.encoding": enumRule,
    "tokenizer.estimatedGroups[]": labelRule,
    ...under("numbers", NUMBERS_RULES),
  },
  records: {},
};

const TRUNCATION_POLICY: Policy = {
  strings: {
    "files[].name": basenameRule,
    "files[].path": basenameRule,
    "files[].causes[]": enumRule,
    "files[].status": enumRule,
    "files[].displayCauses[]": enumRule,
    "files[].simulation.segments[].kind": enumRule,
    mode: enumRule,
    family: enumRule,
    "recorded.family": enumRule,
    "waterfall[].name": basenameRule,
    "changes[].name": basenameRule,
    "changes[].kind": enumRule,
  },
  records: {},
};

const PRUNE_POLICY: Policy = {
  strings: {
    algorithm: enumRule,
    "settings.mode": enumRule,
    "settings.ttlRaw": durationRule,
    "settings.hardClear.placeholder": placeholderRule,
    "settings.tools.allow[]": globRule,
    "settings.tools.deny[]": globRule,
    "settings.sources.*": enumRule,
    "calls[].entryId": hashRule,
    "calls[].responseId": hashRule,
    "calls[].round": enumRule,
    "calls[].toolResults.*": enumRule,
    "calls[].gate": enumRule,
    "calls[].details[].toolCallId": hashRule,
    "calls[].details[].toolName": toolRule,
    "calls[].details[].state": enumRule,
    "calls[].snapshotCheck.status": enumRule,
    "calls[].snapshotCheck.mismatches[].toolCallId": hashRule,
    "calls[].snapshotCheck.mismatches[].replay": enumRule,
    "calls[].snapshotCheck.mismatches[].snapshot": enumRule,
    "next.toolResults.*": enumRule,
    "next.gate": enumRule,
    "next.round": enumRule,
    algorithmSource: enumRule,
    contextWindowSource: configRefRule,
    "eligibility.path": enumRule,
    "marks.events[].kind": enumRule,
  },
  records: {
    "settings.sources": "ident",
    "calls[].toolResults": "hash",
    "next.toolResults": "hash",
  },
};

const COST_POLICY: Policy = {
  strings: {
    "calls[].entryId": hashRule,
    "calls[].responseId": hashRule,
    "calls[].timestamp": isoRule,
    "calls[].provider": modelRule,
    "calls[].model": modelRule,
    "calls[].costSource": enumRule,
    "calls[].verdict": enumRule,
    "calls[].api": enumRule,
    "calls[].stopReason": enumRule,
    "calls[].writeTier.tier": enumRule,
    "calls[].writeTier.source": enumRule,
    "calls[].evidence.previousCallEntryId": hashRule,
    "calls[].evidence.cause": enumRule,
    "calls[].evidence.signalEntryIds[]": hashRule,
    "calls[].evidence.alsoMatched[]": enumRule,
    "calls[].cause.cause": enumRule,
    "calls[].cause.entryIds[]": hashRule,
    "breakdown[].cause": enumRule,
    agentId: agentIdRule,
    sessionId: hashRule,
    sessionKey: sessionKeyRule,
    "retention.value": enumRule,
    "gapCosts[].callEntryId": hashRule,
    "pruningRounds[].callEntryId": hashRule,
    "pruningRounds[].origin": enumRule,
    "counterfactuals[].id": enumRule,
    "heartbeat.heartbeatEverySource": configRefRule,
    "heartbeat.pruningMode": enumRule,
    "heartbeat.flags[].kind": enumRule,
    "heartbeat.flags[].severity": enumRule,
  },
  records: {},
};

const SUMMARY_POLICY: Policy = { strings: SUMMARY_RULES, records: {} };

// ---------------------------------------------------------------------------------------------------------------
// Public API.

export function redactSummary(s: SessionSummary): SessionSummary {
  return redactWith(s, SUMMARY_POLICY);
}

/** The SessionEntry with paths and free text masked, for rendering a redacted `/context` (see the policy). */
export function redactContextEntry(entry: JsonObject): JsonObject {
  return redactWith(entry, CONTEXT_ENTRY_POLICY);
}

/** A redacted report shows the /context renderings of the masked entry (`texts.redacted`), else a notice. */
export function redactRunReport(r: RunReportDTO): RunReportDTO {
  const t = r.texts;
  const texts: RunReportDTO["texts"] =
    t.available && t.redacted
      ? { ...t, ...t.redacted, detailAsOf: t.detailAsOf, redacted: t.redacted }
      : { available: false, notice: REDACTED_TEXTS_NOTICE, json: "", mapUnavailable: "", help: "" };
  return redactWith({ ...r, texts }, RUN_REPORT_POLICY);
}

export function redactContextMap(m: ContextMapDTO): ContextMapDTO {
  return redactWith(m, MAP_POLICY);
}

export function redactTruncation(t: TruncationReportDTO): TruncationReportDTO {
  return redactWith(t, TRUNCATION_POLICY);
}

export function redactPrune(p: PruneReplayDTO): PruneReplayDTO {
  return redactWith(p, PRUNE_POLICY);
}

export function redactCost(c: CostReportDTO): CostReportDTO {
  return redactWith(c, COST_POLICY);
}

export interface ExportData {
  summary: SessionSummary;
  report: RunReportDTO;
  map: ContextMapDTO;
  truncation: TruncationReportDTO;
  prune: PruneReplayDTO;
  cost: CostReportDTO;
}

export function redactExportData(d: ExportData): ExportData {
  return {
    summary: redactSummary(d.summary),
    report: redactRunReport(d.report),
    map: redactContextMap(d.map),
    truncation: redactTruncation(d.truncation),
    prune: redactPrune(d.prune),
    cost: redactCost(d.cost),
  };
}
