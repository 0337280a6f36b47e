// The calendar day of an instant in a time zone (`YYYY-MM-DD`): the overview's by-day rows and its date filter.
// Intl does the zone arithmetic (DST included); one formatter per zone, and one answer per zone-hour would be
// wrong for zones with a :30/:45 offset, so the cache is per minute.

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** True for a `YYYY-MM-DD` that names a real day. */
export function isIsoDay(s: string): boolean {
  if (!ISO_DAY.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return Number.isFinite(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** The zone's canonical name, or null when Intl does not know it. */
export function canonicalTimeZone(tz: string): string | null {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export class DayKeys {
  private readonly format: Intl.DateTimeFormat | null;
  private readonly byMinute = new Map<number, string>();

  /** `timeZone` must be valid (canonicalTimeZone); UTC needs no formatter. */
  constructor(readonly timeZone: string) {
    this.format =
      timeZone === "UTC"
        ? null
        : new Intl.DateTimeFormat("en-CA", {
            timeZone,
            year: "numeric",
            month: "2-digit",
            day: "2-digit",
          });
  }

  dayOf(atMs: number): string {
    if (this.format === null) return new Date(atMs).toISOString().slice(0, 10);
    const minute = Math.floor(atMs / 60_000);
    const hit = this.byMinute.get(minute);
    if (hit !== undefined) return hit;
    const parts = this.format.formatToParts(atMs);
    const part = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
    const day = `${part("year")}-${part("month")}-${part("day")}`;
    this.byMinute.set(minute, day);
    return day;
  }
}
