// clawscope's own presentation of numbers, money, sizes, durations and dates — one formatter each, for every
// surface: the web views, the CLI's text tables, the HTML/Markdown exports and the prose inside DTOs.
//
// NOT for reproduced OpenClaw text: `/context` replies and every other byte-exact OpenClaw string format through
// server/openclaw/format.ts (OpenClaw's own en-US `formatInt`, its `chars (~tok)` pairs). That is an OpenClaw rule
// and must not move when clawscope changes how it presents a number.
//
// Every formatter takes null/undefined/non-finite and prints `none` (default "—"): nothing is shown as zero.
// Intl formatters are built once, on first use: `toLocaleString` with options builds a new Intl object per call
// (~1–2 ms each — 22 s of the pruning tab's first render for a session with 11,000 calls), and building the first
// one starts ICU (~15 ms), which a CLI run that formats no date or huge number never needs.

type MaybeNumber = number | null | undefined;

/** Printed for an absent or non-finite value. */
export const NONE = "—";

function known(n: MaybeNumber): n is number {
  return n !== null && n !== undefined && Number.isFinite(n);
}

/** A value built on first use, then kept. */
function once<T>(make: () => T): () => T {
  let v: T | undefined;
  return () => {
    v ??= make();
    return v;
  };
}

const INT = once(() => new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 }));

/**
 * An integer's digits in en-US groups without Intl: the cost report's evidence sentences format a few numbers per
 * call (11,000 calls on a 100 MB session), and `Intl.NumberFormat.format` costs ~3× this.
 */
function grouped(i: number): string {
  const abs = Math.abs(i);
  if (abs >= 1e21) return INT().format(i); // String() turns to exponent notation there
  const s = String(abs);
  let out = s.slice(0, s.length % 3 || 3);
  for (let k = out.length; k < s.length; k += 3) out += `,${s.slice(k, k + 3)}`;
  return i < 0 ? `-${out}` : out;
}

/** Rounded, en-US grouped: `fmtInt(12345.6)` → `"12,346"`. */
export function fmtInt(n: MaybeNumber, none = NONE): string {
  return known(n) ? grouped(Math.round(n)) : none;
}

/** A ratio as a percentage: `fmtPct(0.4567)` → `"45.7%"`, `fmtPct(0.5, 0)` → `"50%"`. */
export function fmtPct(ratio: MaybeNumber, digits = 1, none = NONE): string {
  return known(ratio) ? `${(ratio * 100).toFixed(digits)}%` : none;
}

/**
 * Dollars, one rule everywhere: cents (`$147.61`), and four decimals for a non-zero amount under one cent
 * (`$0.0040`) so a cheap call never reads as `$0.00`.
 */
export function fmtUsd(n: MaybeNumber, none = NONE): string {
  if (!known(n)) return none;
  return `$${n.toFixed(n !== 0 && Math.abs(n) < 0.01 ? 4 : 2)}`;
}

/** Bytes in binary units: `512 B`, `1.5 KB`, `12.3 MB`. */
export function fmtBytes(n: MaybeNumber, none = NONE): string {
  if (!known(n)) return none;
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * `"850ms"`, `"2.5s"`, `"45s"`, `"3m 20s"`, `"1h 02m"`, `"1d 12h"`; a negative duration gets a leading `−`
 * (U+2212).
 */
export function fmtDuration(ms: MaybeNumber, none = NONE): string {
  if (!known(ms)) return none;
  let v = Math.abs(ms);
  let out: string;
  if (v < 1000) out = `${Math.round(v)}ms`;
  else if (v < 60_000) out = `${(v / 1000).toFixed(v < 10_000 ? 1 : 0)}s`;
  else if (v < 3_600_000) {
    v = Math.round(v / 1000);
    out = `${Math.floor(v / 60)}m ${String(v % 60).padStart(2, "0")}s`;
  } else if (v < 86_400_000) {
    v = Math.round(v / 60_000);
    out = `${Math.floor(v / 60)}h ${String(v % 60).padStart(2, "0")}m`;
  } else {
    v = Math.round(v / 3_600_000);
    out = `${Math.floor(v / 24)}d ${String(v % 24).padStart(2, "0")}h`;
  }
  return ms < 0 ? `−${out}` : out;
}

const DATE = once(
  () =>
    new Intl.DateTimeFormat(undefined, {
      year: "numeric",
      month: "short",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    }),
);

/** A local date and time for reading (`"Mar 14, 2026, 07:52:43 PM"` in en-US). */
export function fmtDate(ms: MaybeNumber, none = NONE): string {
  return known(ms) ? DATE().format(ms) : none;
}

/** A UTC timestamp to the second for text that is copied or compared: `"2026-03-14T19:52:43Z"`. */
export function fmtIsoSeconds(ms: MaybeNumber, none = NONE): string {
  // Beyond ±8.64e15 ms a Date is invalid and toISOString would throw.
  if (!known(ms) || Math.abs(ms) > 8.64e15) return none;
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/u, "Z");
}

/** How long ago: `"just now"`, `"12 min ago"`, `"3 h ago"`, `"2 d ago"`. */
export function fmtRelTime(ms: MaybeNumber, now = Date.now(), none = NONE): string {
  if (!known(ms)) return none;
  const d = now - ms;
  if (d < 60_000) return "just now";
  if (d < 3_600_000) return `${Math.floor(d / 60_000)} min ago`;
  if (d < 86_400_000) return `${Math.floor(d / 3_600_000)} h ago`;
  return `${Math.floor(d / 86_400_000)} d ago`;
}
