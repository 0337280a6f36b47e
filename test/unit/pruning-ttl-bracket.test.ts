// Pruning TTL vs cache TTL (issue 14 §4): the cache lifetime a session shows is a bracket (longest gap still read …
// shortest gap with nothing read); a pruning ttl inside it is not a mismatch, one outside it is.

import path from "node:path";
import { describe, expect, it } from "vitest";
import { heartbeatCadenceFlags } from "../../server/openclaw/heartbeat.ts";
import { createSessionService } from "../../server/service/session-service.ts";

const DEMO = path.resolve(__dirname, "../../server/demo/state");
const base = {
  every: { value: "0", ms: 0 },
  pruning: { mode: "cache-ttl", ttlMs: 10_000 },
  mainProvider: "anthropic",
};
const kinds = (f: { kind: string }[]) => f.map((x) => x.kind);

describe("pruning ttl against the observed cache-lifetime bracket", () => {
  it("inside the bracket: no warning; outside on either side: the warning", () => {
    const observed = { maxHitGapMs: 7_976, minFullMissGapMs: 10_975 };
    expect(kinds(heartbeatCadenceFlags({ ...base, cacheTtlMs: 10_974, observed }))).not.toContain(
      "pruning-ttl-mismatch",
    );
    for (const ttlMs of [5_000, 12_000]) {
      const flags = heartbeatCadenceFlags({
        ...base,
        pruning: { mode: "cache-ttl", ttlMs },
        cacheTtlMs: 10_974,
        observed,
      });
      expect(kinds(flags)).toContain("pruning-ttl-mismatch");
    }
  });

  it("without an observed bracket the configured TTL decides, as before", () => {
    expect(kinds(heartbeatCadenceFlags({ ...base, cacheTtlMs: 300_000 }))).toContain("pruning-ttl-mismatch");
    expect(kinds(heartbeatCadenceFlags({ ...base, cacheTtlMs: 10_000 }))).not.toContain(
      "pruning-ttl-mismatch",
    );
  });

  it("the demo's sessions (pruning ttl 10 s, observed 8.0 … 11.0 s) no longer warn", () => {
    const s = createSessionService({ stateDir: DEMO, demo: true, reason: "test" });
    const r = s.cost("main", "bc255ab3-b341-464a-a811-4d1115e16ed8");
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.retention.observedTtl).toMatchObject({ maxHitGapMs: 7_976, minFullMissGapMs: 10_975 });
    expect(kinds(r.value.heartbeat.flags)).not.toContain("pruning-ttl-mismatch");
  });
});
