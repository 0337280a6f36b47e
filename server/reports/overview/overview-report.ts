// The all-session overview (issue 14 §1): sums over the per-call rows of every session's cost report, cut by day,
// agent, model and session. Pure: the sessions' rows in, the DTO out. Buckets are summed before rates
// (cache-and-cost.md §5), and an unpriced call adds to `unpricedCalls`, never $0 to a cost.

import type { LeftOutCopyDTO, SpendCause } from "../../../shared/cost.ts";
import type {
  AdviceDTO,
  OverviewAgentDTO,
  OverviewCauseDTO,
  OverviewDayDTO,
  OverviewDTO,
  OverviewFilter,
  OverviewModelDTO,
  OverviewSessionDTO,
  OverviewTotalsDTO,
} from "../../../shared/overview.ts";
import { emptyByKind, modelLabel } from "../../../shared/overview.ts";
import { readHitRate, writeAwareHitRate } from "../cost/hit-rates.ts";
import { DayKeys } from "./day-key.ts";
import { addKinds, type OverviewCall } from "./overview-call.ts";

export interface OverviewSession {
  agentId: string;
  sessionId: string;
  sessionKey: string | null;
  archived: string | null;
  calls: readonly OverviewCall[];
}

export const DEFAULT_FILTER: OverviewFilter = {
  since: null,
  until: null,
  agentId: null,
  model: null,
  timeZone: "UTC",
  includeArchived: true,
};

interface Sums {
  costUsd: number;
  calls: number;
  unpricedCalls: number;
  missCostUsd: number;
}

const zero = (): Sums => ({ costUsd: 0, calls: 0, unpricedCalls: 0, missCostUsd: 0 });

function add(s: Sums, c: OverviewCall): void {
  s.calls++;
  if (c.costUsd === null) s.unpricedCalls++;
  else s.costUsd += c.costUsd;
  if (c.missCostUsd !== null) s.missCostUsd += c.missCostUsd;
}

/** Whether a call's model is the filter's (`provider/model`, or a bare model id of any provider). */
function modelMatches(filter: string, c: OverviewCall): boolean {
  return filter.includes("/") ? modelLabel(c.provider, c.model) === filter : c.model === filter;
}

const byCost = <T extends Sums>(a: T, b: T) => b.costUsd - a.costUsd || b.calls - a.calls;

/** The sums of the calls in the filter: totals, usage buckets, cost kinds, and the cuts by day, agent and model. */
class OverviewSums {
  readonly totals = zero();
  readonly buckets = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0 };
  readonly kinds = emptyByKind();
  readonly byDay = new Map<string | null, OverviewDayDTO>();
  readonly byAgent = new Map<string, OverviewAgentDTO>();
  readonly byModel = new Map<string, OverviewModelDTO>();
  readonly byCause = new Map<SpendCause, OverviewCauseDTO>();

  addCall(row: OverviewSessionDTO, c: OverviewCall, day: string | null): void {
    add(row, c);
    add(this.totals, c);
    this.buckets.input += c.input;
    this.buckets.output += c.output;
    this.buckets.cacheRead += c.cacheRead;
    this.buckets.cacheWrite += c.cacheWrite;
    this.buckets.cacheWrite1h += c.writeTier.cacheWrite1h;
    addKinds(this.kinds, c.byKind);
    const d = getOr(this.byDay, day, () => ({ day, ...zero(), byKind: emptyByKind() }));
    add(d, c);
    addKinds(d.byKind, c.byKind);
    const label = modelLabel(c.provider, c.model);
    add(
      getOr(this.byModel, label, () => ({ provider: c.provider, model: c.model, ...zero() })),
      c,
    );
    add(
      getOr(this.byCause, c.cause, () => ({ cause: c.cause, ...zero() })),
      c,
    );
  }

  addSession(row: OverviewSessionDTO): void {
    const a = getOr(this.byAgent, row.agentId, () => ({
      agentId: row.agentId,
      costUsd: 0,
      calls: 0,
      sessions: 0,
      unpricedCalls: 0,
      missCostUsd: 0,
    }));
    a.sessions++;
    a.costUsd += row.costUsd;
    a.calls += row.calls;
    a.unpricedCalls += row.unpricedCalls;
    a.missCostUsd += row.missCostUsd;
  }

  totalsDTO(sessions: number): OverviewTotalsDTO {
    const { totals, buckets } = this;
    return {
      costUsd: totals.costUsd,
      calls: totals.calls,
      sessions,
      unpricedCalls: totals.unpricedCalls,
      missCostUsd: totals.missCostUsd,
      missShare: totals.costUsd > 0 ? totals.missCostUsd / totals.costUsd : null,
      input: buckets.input,
      output: buckets.output,
      cacheRead: buckets.cacheRead,
      cacheWrite: buckets.cacheWrite,
      hitRate: readHitRate(buckets),
      writeAwareHitRate: writeAwareHitRate(buckets),
      byKind: this.kinds,
    };
  }
}

/** Whether a call on `day` passes the filter's model and date range. */
function inFilter(filter: OverviewFilter, c: OverviewCall, day: string | null): boolean {
  if (filter.model !== null && !modelMatches(filter.model, c)) return false;
  if (filter.since !== null && (day === null || day < filter.since)) return false;
  return !(filter.until !== null && (day === null || day > filter.until));
}

/** Sessions in the filter: every one of the agent without a date or model filter, else those with a call in it. */
export function buildOverview(
  sessions: readonly OverviewSession[],
  filter: OverviewFilter,
  advice: AdviceDTO[] = [],
  leftOut: LeftOutCopyDTO[] = [],
): OverviewDTO {
  const days = new DayKeys(filter.timeZone);
  const narrowsCalls = filter.since !== null || filter.until !== null || filter.model !== null;
  const sums = new OverviewSums();
  const rows: OverviewSessionDTO[] = [];
  const agents = new Set<string>();
  const models = new Set<string>();
  for (const s of sessions) {
    if (!filter.includeArchived && s.archived !== null) continue;
    agents.add(s.agentId);
    for (const c of s.calls) models.add(modelLabel(c.provider, c.model));
    if (filter.agentId !== null && s.agentId !== filter.agentId) continue;
    const { agentId, sessionId, sessionKey, archived } = s;
    // the field order: …, costUsd, missCostUsd, calls
    const row: OverviewSessionDTO = {
      agentId,
      sessionId,
      sessionKey,
      archived,
      costUsd: 0,
      missCostUsd: 0,
      calls: 0,
      unpricedCalls: 0,
    };
    for (const c of s.calls) {
      const day = c.atMs === null ? null : days.dayOf(c.atMs);
      if (inFilter(filter, c, day)) sums.addCall(row, c, day);
    }
    if (narrowsCalls && row.calls === 0) continue;
    rows.push(row);
    sums.addSession(row);
  }
  return {
    totals: sums.totalsDTO(rows.length),
    byDay: [...sums.byDay.values()].sort(dayOrder),
    byAgent: [...sums.byAgent.values()].sort(byCost),
    byModel: [...sums.byModel.values()].sort(byCost),
    sessions: rows.sort(byCost),
    advice: filter.agentId === null ? advice : advice.filter((a) => a.agentId === filter.agentId),
    filter,
    agents: [...agents].sort(),
    models: [...models].sort(),
    byCause: [...sums.byCause.values()].sort(byCost),
    leftOut,
  };
}

function dayOrder(a: OverviewDayDTO, b: OverviewDayDTO): number {
  if (a.day === b.day) return 0;
  if (a.day === null) return 1;
  if (b.day === null) return -1;
  return a.day < b.day ? -1 : 1;
}

function getOr<K, V>(m: Map<K, V>, k: K, make: () => V): V {
  let v = m.get(k);
  if (v === undefined) {
    v = make();
    m.set(k, v);
  }
  return v;
}
