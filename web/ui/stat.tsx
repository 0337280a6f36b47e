import type { ReactNode } from "react";

/** A labelled headline number. */
export function Stat({
  label,
  value,
  title,
  testId,
}: {
  label: string;
  value: ReactNode;
  title?: string;
  testId?: string;
}) {
  return (
    <div className="stat" title={title} data-testid={testId}>
      <span className="stat-value">{value}</span>
      <span className="stat-label">{label}</span>
    </div>
  );
}
