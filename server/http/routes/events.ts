// GET / (mounted at /api/events): Server-Sent Events of the live watcher (hono/streaming `streamSSE`).
// - Events are unnamed (`data:` only) so the browser's EventSource `onmessage` receives them
//   (web/api/live.ts); each carries the bus id as `id:`, so a reconnect with `Last-Event-ID` gets what it
//   missed from the bus ring — or one `sessions-changed` (refetch everything) when the gap is too old.
// - The first message is a `retry:` hint plus a `: connected` comment; a `: ping` comment every 15 s keeps
//   proxies and idle-connection timers from closing the stream (comments are ignored by EventSource).

import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import type { BusMessage, EventBus } from "../../live/event-bus.ts";

export interface EventsRouteOptions {
  /** Comment heartbeat interval (ms). Default 15 000. */
  heartbeatMs?: number;
  /** Reconnect delay hint sent to the client (ms). Default 2 000. */
  retryMs?: number;
}

export function createEventsRoute(bus: EventBus, opts: EventsRouteOptions = {}): Hono {
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  const retryMs = opts.retryMs ?? 2_000;
  return new Hono().get("/", (c) => {
    const lastEventId = Number(c.req.header("last-event-id") ?? "");
    return streamSSE(c, async (stream) => {
      // Writes are chained so events keep their order even when the client reads slowly.
      let chain: Promise<unknown> = Promise.resolve();
      const send = (msg: BusMessage): void => {
        chain = chain.then(() =>
          stream.aborted
            ? undefined
            : stream.writeSSE({ data: JSON.stringify(msg.event), id: String(msg.id) }),
        );
      };
      const comment = (text: string): void => {
        chain = chain.then(() => (stream.aborted ? undefined : stream.write(`: ${text}\n\n`)));
      };
      chain = chain.then(() => stream.write(`retry: ${retryMs}\n: connected\n\n`));
      const unsubscribe = bus.subscribe(send);
      if (Number.isInteger(lastEventId) && lastEventId > 0) {
        const missed = bus.since(lastEventId);
        if (missed === null) send({ id: bus.lastId(), event: { type: "sessions-changed" } });
        else for (const m of missed) send(m);
      }
      const timer = setInterval(() => comment("ping"), heartbeatMs);
      await new Promise<void>((resolve) => {
        stream.onAbort(() => resolve());
        c.req.raw.signal.addEventListener("abort", () => resolve(), { once: true });
      });
      clearInterval(timer);
      unsubscribe();
    });
  });
}
