// Number / time formatting for the views. Exact integers are grouped with commas (as OpenClaw prints them);
// estimates are prefixed with "~" where shown.

const intFmt = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

export function fmtInt(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "—";
  return intFmt.format(Math.round(n));
}

export function fmtPct(ratio: number | null | undefined, digits = 1): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return "—";
  return `${(ratio * 100).toFixed(digits)}%`;
}

export function fmtBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "—";
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function fmtUsd(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "—";
  if (n !== 0 && Math.abs(n) < 0.01) return `$${n.toFixed(4)}`;
  return `$${n.toFixed(2)}`;
}

// One formatter, built once: `Date.prototype.toLocaleString` with options builds a new Intl.DateTimeFormat on
// every call (~1–2 ms each) — 22 s of the pruning tab's first render for a session with 11,000 calls.
const dateFmt = new Intl.DateTimeFormat(undefined, {
  year: "numeric",
  month: "short",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

export function fmtDate(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  return dateFmt.format(ms);
}

/** "3m 20s", "1h 02m", "850ms". */
export function fmtDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  const neg = ms < 0;
  let v = Math.abs(ms);
  let out: string;
  if (v < 1000) out = `${Math.round(v)}ms`;
  else if (v < 60_000) out = `${(v / 1000).toFixed(v < 10_000 ? 1 : 0)}s`;
  else if (v < 3_600_000) {
    v = Math.round(v / 1000);
    out = `${Math.floor(v / 60)}m ${String(v % 60).padStart(2, "0")}s`;
  } else {
    v = Math.round(v / 60_000);
    out = `${Math.floor(v / 60)}h ${String(v % 60).padStart(2, "0")}m`;
  }
  return neg ? `−${out}` : out;
}

export function relTime(ms: number | null | undefined, now = Date.now()): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  const d = now - ms;
  if (d < 60_000) return "just now";
  if (d < 3_600_000) return `${Math.floor(d / 60_000)} min ago`;
  if (d < 86_400_000) return `${Math.floor(d / 3_600_000)} h ago`;
  return `${Math.floor(d / 86_400_000)} d ago`;
}
