// Loading and error states used by every panel: a panel never goes blank, a broken session shows its
// located errors (file + line, or SQLite seq).

import type { ReactNode } from "react";
import type { ParseIssue } from "../../shared/session.ts";
import { ApiError } from "../api/client.ts";

export function Loading({ label }: { label: string }) {
  return (
    <div className="loading" role="status" aria-live="polite" data-testid="loading">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

export function issueLocation(i: ParseIssue): string {
  if (i.line !== undefined) return `${i.source}:${i.line}`;
  if (i.seq !== undefined) return `${i.source} seq ${i.seq}`;
  return i.source;
}

/** Stable keys for issue rows (issues can repeat, so a repeat counter disambiguates). */
function keyed(issues: ParseIssue[]): [ParseIssue, string][] {
  const seen = new Map<string, number>();
  return issues.map((i) => {
    const base = `${i.source}|${i.line ?? ""}|${i.seq ?? ""}|${i.code}|${i.message}`;
    const c = seen.get(base) ?? 0;
    seen.set(base, c + 1);
    return [i, `${base}|${c}`];
  });
}

export function IssueList({
  issues,
  title,
  testId = "issue-list",
}: {
  issues: ParseIssue[];
  title?: string;
  testId?: string;
}) {
  if (issues.length === 0) return null;
  const errors = issues.filter((i) => i.severity === "error").length;
  return (
    <details className="issues" data-testid={testId} open={errors > 0 && issues.length <= 20}>
      <summary>
        {title ?? "Problems found while reading"}: {errors} error{errors === 1 ? "" : "s"},{" "}
        {issues.length - errors} warning{issues.length - errors === 1 ? "" : "s"}
      </summary>
      <ul>
        {keyed(issues.slice(0, 500)).map(([i, k]) => (
          <li key={k} className={`issue issue-${i.severity}`} data-testid="issue">
            <code className="issue-loc">{issueLocation(i)}</code> <span className="badge">{i.code}</span>{" "}
            {i.message}
          </li>
        ))}
        {issues.length > 500 ? <li>… {issues.length - 500} more</li> : null}
      </ul>
    </details>
  );
}

export function ErrorPanel({ error, title, retry }: { error: unknown; title: string; retry?: () => void }) {
  const apiErr = error instanceof ApiError ? error : null;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className="error-panel" role="alert" data-testid="error-panel">
      <h3>{title}</h3>
      <p>
        {apiErr ? <span className="badge badge-error">{apiErr.code}</span> : null} {message}
      </p>
      {apiErr && apiErr.issues.length > 0 ? (
        <IssueList issues={apiErr.issues} title="Located errors" testId="error-issues" />
      ) : null}
      {retry ? (
        <button type="button" onClick={retry} data-testid="error-retry">
          Retry
        </button>
      ) : null}
    </div>
  );
}

/** The service's answer for a session listed without its transcript file (cost, pruning): nothing to show. */
export function isMissingTranscript(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === "transcript-not-found";
}

/** The empty state of a session whose transcript does not exist: where it was looked for, and no numbers. */
export function MissingTranscript({ error }: { error: ApiError }) {
  return (
    <div className="empty-state" role="status" data-testid="missing-transcript">
      <h3>No transcript</h3>
      <p>
        <code>{error.message}</code>
      </p>
      <p className="muted small">
        OpenClaw's session store names this session, but its transcript file does not exist (never written, or
        removed). There are no calls to count: no cost, no hit rate, no pruning — not $0 and 0 calls.
      </p>
    </div>
  );
}

/** Render a query's loading / error / data states uniformly. */
export function QueryPanel<T>({
  query,
  label,
  children,
}: {
  query: { data: T | undefined; error: unknown; isPending: boolean; refetch: () => unknown };
  label: string;
  children: (data: T) => ReactNode;
}) {
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (isMissingTranscript(query.error)) return <MissingTranscript error={query.error} />;
  if (query.error)
    return (
      <ErrorPanel error={query.error} title={`Could not load ${label}`} retry={() => void query.refetch()} />
    );
  return <Loading label={`Loading ${label}…`} />;
}
