// The what-if form: one field per pruning setting (shared/prune-params.ts), bound to the URL. Empty = as
// configured; each placeholder shows the value in effect and each label where it came from.

import { fmtDuration } from "../../../shared/format.ts";
import { PRUNE_ALGORITHM_RELEASES, PRUNE_ALGORITHMS, type PruneReplayDTO } from "../../../shared/prune.ts";
import { PRUNE_PARAM_KEYS, type PruneParamKey, type PruneParams } from "../../../shared/prune-params.ts";
import { setParams } from "../../router.ts";
import { UrlField } from "../../ui/url-field.tsx";
import { CompareWithAsRun } from "../compare/compare-with-as-run.tsx";

/** A numeric setting: its what-if key, its label, where the replay reports its source, its value in effect. */
interface NumberSetting {
  param: PruneParamKey;
  label: string;
  source: string;
  step?: string;
  current: (dto: PruneReplayDTO) => number;
}

const RATIO_STEP = "0.05";
const SETTINGS: readonly NumberSetting[] = [
  {
    param: "keepLastAssistants",
    label: "keepLastAssistants",
    source: "keepLastAssistants",
    current: (d) => d.settings.keepLastAssistants,
  },
  {
    param: "softTrimRatio",
    label: "softTrimRatio",
    source: "softTrimRatio",
    step: RATIO_STEP,
    current: (d) => d.settings.softTrimRatio,
  },
  {
    param: "hardClearRatio",
    label: "hardClearRatio",
    source: "hardClearRatio",
    step: RATIO_STEP,
    current: (d) => d.settings.hardClearRatio,
  },
  {
    param: "minPrunableToolChars",
    label: "minPrunableToolChars",
    source: "minPrunableToolChars",
    current: (d) => d.settings.minPrunableToolChars,
  },
  {
    param: "softTrimMaxChars",
    label: "softTrim.maxChars",
    source: "softTrim.maxChars",
    current: (d) => d.settings.softTrim.maxChars,
  },
  {
    param: "softTrimHeadChars",
    label: "softTrim.headChars",
    source: "softTrim.headChars",
    current: (d) => d.settings.softTrim.headChars,
  },
  {
    param: "softTrimTailChars",
    label: "softTrim.tailChars",
    source: "softTrim.tailChars",
    current: (d) => d.settings.softTrim.tailChars,
  },
];
const CONTEXT_WINDOW: NumberSetting = {
  param: "contextWindow",
  label: "context window (tokens)",
  source: "contextWindow",
  current: (d) => d.contextWindowTokens,
};

function NumberField(props: {
  setting: NumberSetting;
  p: PruneParams;
  dto: PruneReplayDTO | undefined;
  label: string;
}) {
  const { setting, p, dto } = props;
  return (
    <UrlField
      title={dto?.settings.sources[setting.source] === "fixed" ? fixedTitle(setting.source) : undefined}
      param={setting.param}
      value={p[setting.param] ?? null}
      label={props.label}
      type="number"
      step={setting.step ?? "1"}
      placeholder={dto ? String(setting.current(dto)) : ""}
      testId={`prune-${setting.param}`}
    />
  );
}

/**
 * Why a setting reads `[fixed]`: OpenClaw 2026.9.x removed the knob and hard-codes the old default (spec
 * pruning.md §2.1), so a what-if value shows what another value would do, not something a config can set.
 */
export function fixedTitle(key: string): string {
  return `[fixed]: OpenClaw 2026.9.x hard-codes ${key} at its old default — contextPruning.${key} no longer exists in that release, so no config changes it (spec pruning.md §2.1). A what-if value here shows what another value would do.`;
}

/** A choice bound to one URL parameter; the first option ("") means as configured. */
function Choice(props: {
  param: PruneParamKey;
  label: string;
  value: string | undefined;
  options: [string, string][];
}) {
  return (
    <label>
      {props.label}
      <select
        value={props.value ?? ""}
        aria-label={props.param}
        data-testid={`prune-${props.param}`}
        onChange={(e) => setParams({ [props.param]: e.target.value || null }, { replace: true })}
      >
        {props.options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

type Settings = PruneReplayDTO["settings"] | undefined;

function modeOptions(st: Settings): [string, string][] {
  return [
    ["", `as configured${st ? ` (${st.mode})` : ""}`],
    ["cache-ttl", "cache-ttl"],
    ["off", "off"],
  ];
}

function hardClearOptions(st: Settings): [string, string][] {
  return [
    ["", `as configured${st ? ` (${st.hardClear.enabled ? "on" : "off"})` : ""}`],
    ["on", "on"],
    ["off", "off"],
  ];
}

/** Back to the settings as configured: every what-if parameter dropped from the URL. */
function ResetButton({ p }: { p: PruneParams }) {
  return (
    <button
      type="button"
      data-testid="prune-reset"
      disabled={!PRUNE_PARAM_KEYS.some((k) => p[k] !== undefined)}
      onClick={() => setParams(Object.fromEntries(PRUNE_PARAM_KEYS.map((k) => [k, null])), { replace: true })}
    >
      Reset
    </button>
  );
}

export function WhatIfForm({
  dto,
  p,
  fetching,
}: {
  dto: PruneReplayDTO | undefined;
  p: PruneParams;
  fetching: boolean;
}) {
  const st = dto?.settings;
  const src = (k: string) => (st?.sources[k] ? ` [${st.sources[k]}]` : "");
  const number = (s: NumberSetting) => (
    <NumberField key={s.param} setting={s} p={p} dto={dto} label={`${s.label}${src(s.source)}`} />
  );
  const globs = (param: "allow" | "deny", placeholder: string) => (
    <UrlField
      param={param}
      value={p[param] ?? null}
      label={`tools.${param}${src(`tools.${param}`)}`}
      placeholder={placeholder}
      testId={`prune-${param}`}
      title="Comma-separated tool globs"
    />
  );
  const algorithm: [string, string][] = [["", `auto${dto ? ` (${dto.algorithm})` : ""}`]];
  for (const v of PRUNE_ALGORITHMS) algorithm.push([v, `${v} (${PRUNE_ALGORITHM_RELEASES[v]})`]);
  return (
    <details className="card" open data-testid="prune-whatif">
      <summary>
        <strong>What-if settings</strong>{" "}
        <span className="muted small">(empty = as configured; placeholders show the values in effect)</span>
      </summary>
      <div className="controls">
        <Choice param="algorithm" label="algorithm" value={p.algorithm} options={algorithm} />
        <Choice param="mode" label={`mode${src("mode")}`} value={p.mode} options={modeOptions(st)} />
        <UrlField
          param="ttl"
          value={p.ttl ?? null}
          label={`ttl${src("ttl")}`}
          placeholder={st ? (st.ttlRaw ?? fmtDuration(st.ttlMs)) : "5m"}
          testId="prune-ttl"
          title="Duration: 5m, 1h30m, 20s; a bare number = minutes; 0 disables rounds"
        />
        {SETTINGS.map(number)}
        <Choice
          param="hardClear"
          label={`hardClear${src("hardClear.enabled")}`}
          value={p.hardClear}
          options={hardClearOptions(st)}
        />
        <UrlField
          param="placeholder"
          value={p.placeholder ?? null}
          label={`placeholder${src("hardClear.placeholder")}`}
          placeholder={st?.hardClear.placeholder}
          testId="prune-placeholder"
        />
        {globs("allow", st?.tools.allow.join(",") || "(all)")}
        {globs("deny", st?.tools.deny.join(",") || "(none)")}
        {number(CONTEXT_WINDOW)}
        <ResetButton p={p} />
        <CompareWithAsRun values={{ ...p, at: undefined }} />
        {fetching && dto ? <span className="muted small">replaying…</span> : null}
      </div>
    </details>
  );
}
