// OpenClaw release strings (`2026.5.31-beta.4`, `2026.7.1-1`, `v2026.3.2`) and their order, as npm sorts them:
// year.month.patch, a prerelease (`-beta.N`) before its release, a `-N` build suffix after it. Pure.

export interface Release {
  year: number;
  month: number;
  patch: number;
  /** `beta.4` → ["beta", 4]; null for a release (a numeric `-1` build suffix counts as a release). */
  pre: readonly (string | number)[] | null;
  /** The numeric build suffix of `2026.7.1-1` (0 without one). */
  build: number;
  text: string;
}

/** The release a version string names, or null when it is not an OpenClaw calendar version. */
export function parseRelease(text: string): Release | null {
  const m = /^\s*v?(\d{4})\.(\d{1,2})(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?\s*$/.exec(text);
  if (!m) return null;
  const suffix = m[4];
  const numericBuild = suffix !== undefined && /^\d+$/.test(suffix);
  return {
    year: Number(m[1]),
    month: Number(m[2]),
    patch: Number(m[3] ?? 0),
    pre:
      suffix === undefined || numericBuild
        ? null
        : suffix.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
    build: numericBuild ? Number(suffix) : 0,
    text: text.trim(),
  };
}

function comparePre(a: Release["pre"], b: Release["pre"]): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const x = a[i];
    const y = b[i];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

/** Negative when `a` is the older release (npm's semver order). */
export function compareReleases(a: Release, b: Release): number {
  return (
    a.year - b.year || a.month - b.month || a.patch - b.patch || comparePre(a.pre, b.pre) || a.build - b.build
  );
}

/** `a` ≤ `b`, both as strings; false when either is not a release. */
export function releaseAtMost(a: string, b: string): boolean {
  const x = parseRelease(a);
  const y = parseRelease(b);
  return x !== null && y !== null && compareReleases(x, y) <= 0;
}
