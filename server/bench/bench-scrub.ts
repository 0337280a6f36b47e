// The turn scrubber's step (issue 16): from one call to its neighbour on a ~5,000-message session, what the
// dashboard does — the server's GET …/sent/call?call=N (the call's map as sent, serialised) and the browser's
// layout of it inside the fixed slot layout (shared/sent-layout.ts). Baseline: opening the scrubber, which
// reconstructs every call once and builds the slot map (both memoised per transcript afterwards).

import { layoutAtCall } from "../../shared/sent-layout.ts";
import { layoutTreemap } from "../../shared/treemap-layout.ts";
import { createSessionService } from "../service/session-service.ts";
import type { WrittenSession } from "./generate-session.ts";
import { add, lastCpu, log, median, ms, timeRuns, verdict } from "./measure.ts";

const SIZE = { width: 1280, height: 720, mode: "estTokens" } as const;

export function benchScrub(s: WrittenSession, runs: number): void {
  log("turn scrubber: neighbouring calls…");
  const service = createSessionService({
    stateDir: s.stateDir,
    demo: false,
    reason: "bench",
    hostTimeZone: "UTC",
  });
  const view = (call: number) => {
    const r = service.sentView(s.agentId, s.sessionId, String(call));
    if (!r.ok) throw new Error(`sent view of call ${call}: ${r.error.message}`);
    return r.value;
  };
  // What opening the scrubber costs once: every call reconstructed (memoised per transcript), the slot map.
  const t0 = performance.now();
  const calls = service.sentCalls(s.agentId, s.sessionId);
  const slots = service.sentSlots(s.agentId, s.sessionId);
  const first = performance.now() - t0;
  if (!calls.ok || !slots.ok) throw new Error("sent calls / slots failed");
  const n = calls.value.calls.length;
  const mid = Math.max(1, Math.floor(n / 2));
  const slotLayout = layoutTreemap(slots.value.root, SIZE);
  JSON.stringify(view(mid));
  // A forward scrub from the middle: every step a neighbouring call, server view + JSON + layout in its slots.
  const steps = Math.min(n - mid, Math.max(10, runs * 4));
  const times = timeRuns(steps, (i) => {
    const v = view(mid + 1 + i);
    JSON.stringify(v);
    layoutAtCall(slotLayout, v.map.root, SIZE.mode);
  });
  const m = median(times);
  const cpu = median(lastCpu);
  add({
    operation: "turn scrubber: next call (GET …/sent/call + layout in the slots)",
    size: `${s.stats.messages.toLocaleString("en")} messages, ${n.toLocaleString("en")} calls`,
    median: `${ms(m)} (CPU ${ms(cpu)})`,
    baseline: `opening the scrubber (every call reconstructed once + the slot map) ${ms(first)}`,
    ratio: `${(m / Math.max(first, 0.001)).toFixed(3)}×`,
    target: "≤ 30 ms",
    verdict: verdict(m, cpu, 30),
  });
}
