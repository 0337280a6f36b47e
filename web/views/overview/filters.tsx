// The overview's filters, all in the URL: date range (days in the chosen time zone), agent, model, time zone.
// The archived switch is the session list's own (below), so one switch decides both.

import type { OverviewDTO } from "../../../shared/overview.ts";
import { setParams } from "../../router.ts";
import { useRedactor } from "../../ui/use-redact.ts";

export function OverviewFilters({ overview, params }: { overview: OverviewDTO; params: URLSearchParams }) {
  const r = useRedactor();
  const f = overview.filter;
  const any = ["since", "until", "agent", "model", "tz"].some((k) => params.get(k));
  return (
    <div className="controls overview-filters" data-testid="overview-filters">
      <label>
        From{" "}
        <input
          type="date"
          value={params.get("since") ?? ""}
          data-testid="overview-since"
          onChange={(e) => setParams({ since: e.target.value }, { replace: true })}
        />
      </label>
      <label>
        to{" "}
        <input
          type="date"
          value={params.get("until") ?? ""}
          data-testid="overview-until"
          onChange={(e) => setParams({ until: e.target.value }, { replace: true })}
        />
      </label>
      <label>
        Agent{" "}
        <select
          value={f.agentId ?? ""}
          data-testid="overview-agent"
          onChange={(e) => setParams({ agent: e.target.value })}
        >
          <option value="">all agents</option>
          {overview.agents.map((a) => (
            <option key={a} value={a}>
              {r.agent(a)}
            </option>
          ))}
        </select>
      </label>
      <label>
        Model{" "}
        <select
          value={f.model ?? ""}
          data-testid="overview-model"
          onChange={(e) => setParams({ model: e.target.value })}
        >
          <option value="">all models</option>
          {overview.models.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
      <label>
        Time zone{" "}
        <input
          type="text"
          list="overview-time-zones"
          defaultValue={params.get("tz") ?? ""}
          placeholder="UTC"
          size={16}
          data-testid="overview-tz"
          onBlur={(e) => setParams({ tz: e.target.value.trim() })}
          onKeyDown={(e) => {
            if (e.key === "Enter") setParams({ tz: e.currentTarget.value.trim() });
          }}
        />
        <datalist id="overview-time-zones">
          <option value="UTC" />
          <option value={Intl.DateTimeFormat().resolvedOptions().timeZone} />
        </datalist>
      </label>
      {any ? (
        <button
          type="button"
          data-testid="overview-clear"
          onClick={() => setParams({ since: null, until: null, agent: null, model: null, tz: null })}
        >
          Clear filters
        </button>
      ) : null}
    </div>
  );
}
