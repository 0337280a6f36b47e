// Live events → query invalidation (web/api/live.ts) with a real TanStack QueryClient: a session-changed event
// refreshes that session's reports (including its cache clock) and the lists, never another session's; a
// sessions-changed event (list/config change or an event gap too old to replay) refreshes everything but the
// state dir. Payloads are the server's SSE `data:` JSON (shared/live.ts).

import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { applyLiveEvent, parseLiveEvent } from "../../../web/api/live.ts";
import { keys } from "../../../web/api/queries.ts";

function seeded(): QueryClient {
  const c = new QueryClient();
  c.setQueryData(keys.state, { stateDir: "/x", demo: false, reason: "" });
  c.setQueryData(keys.sessions, { sessions: [], issues: [] });
  c.setQueryData(keys.allCost, {});
  c.setQueryData([...keys.session("main", "a"), "map"], {});
  c.setQueryData([...keys.session("main", "a"), "clock"], {});
  c.setQueryData([...keys.session("main", "a"), "prune", {}], {});
  c.setQueryData([...keys.session("main", "b"), "map"], {});
  return c;
}

const invalid = (c: QueryClient, key: readonly unknown[]) => c.getQueryState(key)?.isInvalidated;

describe("live events", () => {
  it("parses the server's payloads and rejects anything else", () => {
    expect(parseLiveEvent('{"type":"sessions-changed"}')).toEqual({ type: "sessions-changed" });
    expect(parseLiveEvent('{"type":"session-changed","agentId":"main","sessionId":"a"}')).toEqual({
      type: "session-changed",
      agentId: "main",
      sessionId: "a",
    });
    expect(parseLiveEvent('{"type":"session-changed","agentId":"main"}')).toBeNull();
    expect(parseLiveEvent("not json")).toBeNull();
    expect(parseLiveEvent('{"type":"other"}')).toBeNull();
  });

  it("session-changed refreshes that session (clock included) and the lists only", () => {
    const c = seeded();
    applyLiveEvent(c, { type: "session-changed", agentId: "main", sessionId: "a" });
    expect(invalid(c, [...keys.session("main", "a"), "map"])).toBe(true);
    expect(invalid(c, [...keys.session("main", "a"), "clock"])).toBe(true);
    expect(invalid(c, [...keys.session("main", "a"), "prune", {}])).toBe(true);
    expect(invalid(c, keys.sessions)).toBe(true);
    expect(invalid(c, keys.allCost)).toBe(true);
    expect(invalid(c, [...keys.session("main", "b"), "map"])).toBe(false);
    expect(invalid(c, keys.state)).toBe(false);
  });

  it("sessions-changed refreshes everything except the state dir", () => {
    const c = seeded();
    applyLiveEvent(c, { type: "sessions-changed" });
    expect(invalid(c, keys.sessions)).toBe(true);
    expect(invalid(c, [...keys.session("main", "a"), "clock"])).toBe(true);
    expect(invalid(c, [...keys.session("main", "b"), "map"])).toBe(true);
    expect(invalid(c, keys.state)).toBe(false);
  });
});
