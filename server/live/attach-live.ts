// Glue between the state-dir watcher, the session service and the SSE event bus: every debounced change
// first drops the service's list/config caches (transcripts need nothing: the state reader re-checks file
// identity and `max(seq)` on every load and returns a new Transcript object only when something changed),
// then publishes the events, so a client refetching on the event already sees the new data.

import type { EventBus } from "./event-bus.ts";
import { type StateWatcher, type StateWatcherOptions, watchStateDir } from "./watcher.ts";

export interface LiveAttachment {
  readonly watcher: StateWatcher;
  close(): void;
}

/**
 * What attachLive needs of the session service. `invalidate(opts)` gets `{config: true}` when the OpenClaw
 * config changed: reports memoised per Transcript object that read the config (prune replay, cost) must be
 * dropped then, because a config edit changes no transcript. A service whose `invalidate()` takes no
 * argument fits too (SessionService as it is).
 */
export interface LiveService {
  invalidate(opts?: { config: boolean }): void;
}

export interface AttachLiveOptions {
  service: LiveService;
  bus: EventBus;
  stateDir: string;
  /** $OPENCLAW_CONFIG_PATH when it points outside the state dir. */
  configPath?: string | null;
  /** Watcher tuning (debounce, polling) — tests. */
  watch?: Omit<StateWatcherOptions, "onChange" | "configPath">;
}

export function attachLive(opts: AttachLiveOptions): LiveAttachment {
  const watcher = watchStateDir(opts.stateDir, {
    ...opts.watch,
    configPath: opts.configPath ?? null,
    onChange(change) {
      opts.service.invalidate({ config: change.configChanged });
      for (const event of change.events) opts.bus.publish(event);
    },
  });
  return { watcher, close: () => watcher.close() };
}
