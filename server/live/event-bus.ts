// A tiny typed pub/sub for live change events (watcher → SSE route). Every event gets a monotonically
// increasing id; the last events are kept so a reconnecting SSE client that sends `Last-Event-ID` gets what
// it missed (or, when the gap is older than the ring, a `sessions-changed` that makes it refetch).

import type { LiveEvent } from "../../shared/live.ts";

export interface BusMessage {
  id: number;
  event: LiveEvent;
}

export interface EventBus {
  publish(event: LiveEvent): BusMessage;
  /** Returns the unsubscribe function. */
  subscribe(listener: (msg: BusMessage) => void): () => void;
  /** Messages with id > `afterId` still in the ring, or null when some of them were already dropped. */
  since(afterId: number): BusMessage[] | null;
  /** Id of the newest message (0 before the first). */
  lastId(): number;
  listenerCount(): number;
}

export function createEventBus(opts: { ringSize?: number } = {}): EventBus {
  const ringSize = Math.max(1, opts.ringSize ?? 256);
  const listeners = new Set<(msg: BusMessage) => void>();
  const ring: BusMessage[] = [];
  let nextId = 1;
  return {
    publish(event) {
      const msg: BusMessage = { id: nextId++, event };
      ring.push(msg);
      if (ring.length > ringSize) ring.shift();
      for (const l of [...listeners]) {
        try {
          l(msg);
        } catch {
          // one broken subscriber (closed stream) must not stop the others
        }
      }
      return msg;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    since(afterId) {
      if (afterId >= nextId - 1) return [];
      const oldest = ring[0];
      if (!oldest || oldest.id > afterId + 1) return null;
      return ring.filter((m) => m.id > afterId);
    },
    lastId: () => nextId - 1,
    listenerCount: () => listeners.size,
  };
}
