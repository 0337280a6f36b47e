// Where an OpenClaw release string (`2026.4.29`, `2026.3.2-beta.1`, `v2026.9.6`) stands against a release
// (year.month.day; a pre-release counts as its release). Rules that changed inside one rule family use it when the
// state dir records the release; server/sources/detect-version.ts picks the family from the same parse. Pure.

export type Release = readonly [number, number, number];

/** year.month.day of a release string (a missing day is 0), or null when it does not start with one. */
export function parseRelease(appVersion: string): Release | null {
  const m = /^\s*v?(\d{4})\.(\d{1,2})(?:\.(\d+))?/u.exec(appVersion);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : null;
}

/** Negative, zero or positive as `appVersion` is before, at or after `release`; null when it does not parse. */
export function compareRelease(appVersion: string, release: Release): number | null {
  const parts = parseRelease(appVersion);
  if (!parts) return null;
  return parts[0] - release[0] || parts[1] - release[1] || parts[2] - release[2];
}

/**
 * Whether the release that wrote a session (`appVersion`) has a change that arrived in `release`. A release that is
 * not recorded (null) or does not read counts as the newest of its family: clawscope's newest rules apply.
 */
export function hasChangeFrom(appVersion: string | null, release: Release): boolean {
  if (appVersion === null) return true;
  return (compareRelease(appVersion, release) ?? 0) >= 0;
}
