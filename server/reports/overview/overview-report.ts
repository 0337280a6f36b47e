// The all-session overview (issue 14 §1): sums over the per-call rows of every session's cost report, cut by day,
// agent, model and session. Pure: the sessions' rows in, the DTO out. Buckets are summed before rates
// (cache-and-cost.md §5), and an unpriced call adds to `unpricedCalls`, never $0 to a cost.

import type { LeftOutCopyDTO } from "../../../shared/cost.ts";
import type {
  AdviceDTO,
  OverviewAgentDTO,
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

/** Sessions in the filter: every one of the agent without a date or model filter, else those with a call in it. */
export function buildOverview(
  sessions: readonly OverviewSession[],
  filter: OverviewFilter,
  advice: AdviceDTO[] = [],
  leftOut: LeftOutCopyDTO[] = [],
): OverviewDTO {
  const days = new DayKeys(filter.timeZone);
  const narrowsCalls = filter.since !== null || filter.until !== null || filter.model !== null;
  const totals = zero();
  const buckets = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0 };
  const kinds = emptyByKind();
  const byDay = new Map<string | null, OverviewDayDTO>();
  const byAgent = new Map<string, OverviewAgentDTO>();
  const byModel = new Map<string, OverviewModelDTO>();
  const rows: OverviewSessionDTO[] = [];
  const agents = new Set<string>();
  const models = new Set<string>();

  for (const s of sessions) {
    if (!filter.includeArchived && s.archived !== null) continue;
    agents.add(s.agentId);
    for (const c of s.calls) models.add(modelLabel(c.provider, c.model));
    if (filter.agentId !== null && s.agentId !== filter.agentId) continue;
    const row: OverviewSessionDTO = {
      agentId: s.agentId,
      sessionId: s.sessionId,
      sessionKey: s.sessionKey,
      archived: s.archived,
      costUsd: 0,
      missCostUsd: 0,
      calls: 0,
      unpricedCalls: 0,
    };
    for (const c of s.calls) {
      const day = c.atMs === null ? null : days.dayOf(c.atMs);
      if (filter.model !== null && !modelMatches(filter.model, c)) continue;
      if (filter.since !== null && (day === null || day < filter.since)) continue;
      if (filter.until !== null && (day === null || day > filter.until)) continue;
      add(row, c);
      add(totals, c);
      buckets.input += c.input;
      buckets.output += c.output;
      buckets.cacheRead += c.cacheRead;
      buckets.cacheWrite += c.cacheWrite;
      buckets.cacheWrite1h += c.writeTier.cacheWrite1h;
      addKinds(kinds, c.byKind);
      const d = getOr(byDay, day, () => ({ day, ...zero(), byKind: emptyByKind() }));
      add(d, c);
      addKinds(d.byKind, c.byKind);
      const label = modelLabel(c.provider, c.model);
      add(
        getOr(byModel, label, () => ({ provider: c.provider, model: c.model, ...zero() })),
        c,
      );
    }
    if (narrowsCalls && row.calls === 0) continue;
    rows.push(row);
    const a = getOr(byAgent, s.agentId, () => ({
      agentId: s.agentId,
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

  const t: OverviewTotalsDTO = {
    costUsd: totals.costUsd,
    calls: totals.calls,
    sessions: rows.length,
    unpricedCalls: totals.unpricedCalls,
    missCostUsd: totals.missCostUsd,
    missShare: totals.costUsd > 0 ? totals.missCostUsd / totals.costUsd : null,
    input: buckets.input,
    output: buckets.output,
    cacheRead: buckets.cacheRead,
    cacheWrite: buckets.cacheWrite,
    hitRate: readHitRate(buckets),
    writeAwareHitRate: writeAwareHitRate(buckets),
    byKind: kinds,
  };
  return {
    totals: t,
    byDay: [...byDay.values()].sort(dayOrder),
    byAgent: [...byAgent.values()].sort(byCost),
    byModel: [...byModel.values()].sort(byCost),
    sessions: rows.sort(byCost),
    advice: filter.agentId === null ? advice : advice.filter((a) => a.agentId === filter.agentId),
    filter,
    agents: [...agents].sort(),
    models: [...models].sort(),
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
