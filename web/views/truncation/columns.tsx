// The truncation table's columns: one row per bootstrap file (shared/truncation.ts TruncationFileDTO).

import { fmtInt } from "../../../shared/format.ts";
import type { TruncationFileDTO } from "../../../shared/truncation.ts";
import type { Column } from "../../ui/table.tsx";

export const TRUNCATION_COLUMNS: Column<TruncationFileDTO>[] = [
  {
    key: "name",
    label: "File",
    render: (f) => <span className="mono">{f.name}</span>,
    sortValue: (f) => f.name,
  },
  {
    key: "status",
    label: "Status",
    render: (f) => (
      <span
        className={`badge ${f.status === "TRUNCATED" ? "badge-error" : f.status === "MISSING" ? "badge-archived" : "badge-ok"}`}
      >
        {f.status}
        {f.nativeUnverified ? " (native)" : ""}
      </span>
    ),
    sortValue: (f) => f.status,
  },
  {
    key: "raw",
    label: "Raw",
    align: "right",
    render: (f) => fmtInt(f.rawChars),
    sortValue: (f) => f.rawChars,
  },
  {
    key: "injected",
    label: "Injected",
    align: "right",
    render: (f) =>
      f.injectedChars === null ? (
        <span title={f.note ?? ""}>?</span>
      ) : (
        `${fmtInt(f.injectedChars)}${f.exact ? "" : " *"}`
      ),
    sortValue: (f) => f.injectedChars,
  },
  {
    key: "removed",
    label: "% removed",
    align: "right",
    render: (f) => (f.removedPct === null ? "—" : `${f.removedPct.toFixed(1)}%`),
    sortValue: (f) => f.removedPct,
  },
  {
    key: "tokens",
    label: "Est. tokens",
    align: "right",
    title: "clawscope estimate ceil(chars / 4), raw → injected",
    render: (f) =>
      `~${fmtInt(f.estimatedTokens.raw)} → ${f.estimatedTokens.injected === null ? "?" : `~${fmtInt(f.estimatedTokens.injected)}`}`,
    sortValue: (f) => f.estimatedTokens.raw,
  },
  {
    key: "limit",
    label: "File limit",
    align: "right",
    render: (f) => (
      <span title={f.fixedUserCap ? "2026.9.x USER.md fixed 4,000-char cap" : "bootstrapMaxChars"}>
        {fmtInt(f.fileLimit)}
        {f.fixedUserCap ? " (USER.md)" : ""}
      </span>
    ),
  },
  {
    key: "causes",
    label: "Causes",
    render: (f) => (
      <span className="badges">
        {f.displayCauses.map((c) => (
          <span key={c} className="badge badge-error">
            {c}
          </span>
        ))}
      </span>
    ),
  },
  {
    key: "near",
    label: "Near limit",
    render: (f) =>
      f.nearLimit ? (
        <span
          className="badge badge-archived"
          title={`raw ≥ ${fmtInt(f.nearLimitAt)} (85 % of the file limit)`}
        >
          near limit
        </span>
      ) : null,
    sortValue: (f) => (f.nearLimit ? 1 : 0),
  },
  {
    key: "changed",
    label: "Now",
    render: (f) =>
      f.current.changedSinceReport ? (
        <span className="badge badge-archived" title={`current size ${fmtInt(f.current.rawChars)}`}>
          changed
        </span>
      ) : f.current.readable ? (
        <span className="muted small">same</span>
      ) : (
        <span className="muted small">unreadable</span>
      ),
  },
];
