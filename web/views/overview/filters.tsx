// The overview's filters, all in the URL: date range (days in the chosen time zone), agent, model, time zone.
// The archived switch is the session list's own (below), so one switch decides both.

import type { OverviewDTO } from "../../../shared/overview.ts";
import { setParams } from "../../router.ts";
import { useRedactor } from "../../ui/use-redact.ts";

function FilterSelect(p: {
  label: string;
  value: string;
  testId: string;
  all: string;
  options: { value: string; label: string }[];
  onPick: (value: string) => void;
}) {
  return (
    <label>
      {p.label}{" "}
      <select value={p.value} data-testid={p.testId} onChange={(e) => p.onPick(e.target.value)}>
        <option value="">{p.all}</option>
        {p.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

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
      <FilterSelect
        label="Agent"
        value={f.agentId ?? ""}
        testId="overview-agent"
        all="all agents"
        options={overview.agents.map((a) => ({ value: a, label: r.agent(a) }))}
        onPick={(v) => setParams({ agent: v })}
      />
      <FilterSelect
        label="Model"
        value={f.model ?? ""}
        testId="overview-model"
        all="all models"
        options={overview.models.map((m) => ({ value: m, label: m }))}
        onPick={(v) => setParams({ model: v })}
      />
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
