// SSE → query invalidation. The server watches the state dir and pushes change events; the UI refetches only
// what changed. EventSource's own retry is replaced by an explicit exponential backoff (1 s … 30 s) so a
// stopped server does not get hammered and the header can show the connection state.

import type { QueryClient } from "@tanstack/react-query";
import { useEffect, useState, useSyncExternalStore } from "react";
import { isObject, str } from "../../shared/json.ts";
import type { LiveEvent } from "../../shared/live.ts";
import { keys } from "./queries.ts";

export type LiveState = "connecting" | "live" | "reconnecting" | "unsupported";

export function parseLiveEvent(data: string): LiveEvent | null {
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isObject(v)) return null;
  const type = str(v, "type");
  if (type === "sessions-changed") return { type };
  if (type === "session-changed") {
    const agentId = str(v, "agentId");
    const sessionId = str(v, "sessionId");
    if (agentId !== undefined && sessionId !== undefined) return { type, agentId, sessionId };
  }
  return null;
}

// When each live change last arrived (browser clock, ms), so views can show an "updated" cue. Keys:
// `sessions` for sessions-changed, `session:<agent>/<session>` for one session.
const changedAt = new Map<string, number>();
const changeListeners = new Set<() => void>();

function changeKey(agentId: string, sessionId: string): string {
  return `session:${agentId}/${sessionId}`;
}

function markChanged(key: string): void {
  changedAt.set(key, Date.now());
  for (const l of changeListeners) l();
}

function subscribeChanges(l: () => void): () => void {
  changeListeners.add(l);
  return () => changeListeners.delete(l);
}

/**
 * When the last live change for one session (or, with no ids, for the session list: any change) arrived;
 * null before the first one.
 */
export function useLastChange(agentId?: string, sessionId?: string): number | null {
  const key = agentId !== undefined && sessionId !== undefined ? changeKey(agentId, sessionId) : "sessions";
  return useSyncExternalStore(
    subscribeChanges,
    () => changedAt.get(key) ?? null,
    () => null,
  );
}

export function applyLiveEvent(client: QueryClient, ev: LiveEvent): void {
  // A session's own change also changes the list (entry count, size, updated time).
  markChanged("sessions");
  if (ev.type === "session-changed") markChanged(changeKey(ev.agentId, ev.sessionId));
  if (ev.type === "sessions-changed") {
    // The list changed, or config/archives changed (every report may depend on them), or the server's event
    // ring no longer covers a reconnect gap: refetch every active query except the state dir itself.
    void client.invalidateQueries({ predicate: (q) => q.queryKey[0] !== keys.state[0] });
    return;
  }
  void client.invalidateQueries({ queryKey: keys.session(ev.agentId, ev.sessionId) });
  void client.invalidateQueries({ queryKey: keys.sessions });
  void client.invalidateQueries({ queryKey: keys.allCost });
}

/** Connect to /api/events while mounted; returns the connection state. */
export function useLiveUpdates(client: QueryClient): LiveState {
  const [state, setState] = useState<LiveState>(
    typeof EventSource === "undefined" ? "unsupported" : "connecting",
  );
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    let es: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let attempt = 0;
    let stopped = false;
    const connect = () => {
      if (stopped) return;
      es = new EventSource("/api/events");
      es.onopen = () => {
        attempt = 0;
        setState("live");
      };
      const onData = (m: MessageEvent<string>) => {
        const ev = parseLiveEvent(m.data);
        if (ev) applyLiveEvent(client, ev);
      };
      // Plain `data:` messages and named events (`event: session-changed`) are both accepted.
      es.onmessage = onData;
      es.addEventListener("sessions-changed", onData);
      es.addEventListener("session-changed", onData);
      es.onerror = () => {
        es?.close();
        es = null;
        if (stopped) return;
        setState("reconnecting");
        const delay = Math.min(30_000, 1000 * 2 ** attempt);
        attempt++;
        timer = setTimeout(() => {
          // Anything may have changed while disconnected.
          void client.invalidateQueries();
          connect();
        }, delay);
      };
    };
    connect();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      es?.close();
    };
  }, [client]);
  return state;
}
