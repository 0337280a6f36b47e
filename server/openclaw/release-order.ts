// Where an OpenClaw release string (`2026.4.29`, `2026.3.2-beta.1`, `v2026.9.6`) stands against a release
// (year.month.day; a pre-release counts as its release). Rules that changed inside one rule family
// (sources/detect-version.ts) use it when the state dir records the release. Pure.

export type Release = readonly [number, number, number];

/** Negative, zero or positive as `appVersion` is before, at or after `release`; null when it does not parse. */
export function compareRelease(appVersion: string, release: Release): number | null {
  const m = /^\s*v?(\d{4})\.(\d{1,2})(?:\.(\d+))?/u.exec(appVersion);
  if (!m) return null;
  const parts = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  for (let i = 0; i < 3; i++) {
    const d = (parts[i] ?? 0) - (release[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
