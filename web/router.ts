// A tiny history-API router. The URL holds all view state (session, tab, zoom, size mode, search, theme),
// so every view is linkable and the back button works; no router dependency.

import { useSyncExternalStore } from "react";

export type Tab = "map" | "context" | "truncation" | "pruning" | "cost";
export const TABS: readonly Tab[] = ["map", "context", "truncation", "pruning", "cost"];

export type Route =
  | { kind: "overview" }
  | { kind: "sessions" }
  | { kind: "session"; agentId: string; sessionId: string }
  | { kind: "not-found"; path: string };

const listeners = new Set<() => void>();

function emit(): void {
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener("popstate", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("popstate", listener);
  };
}

function snapshot(): string {
  return window.location.pathname + window.location.search;
}

/** The current location (path + query); re-renders on navigation. */
export function useLocationString(): string {
  return useSyncExternalStore(subscribe, snapshot, () => "/");
}

export function parseRoute(pathname: string): Route {
  const parts = pathname.split("/").filter((p) => p !== "");
  // The landing page is the overview ("where the money went"); the plain session list stays at /sessions.
  if (parts.length === 0) return { kind: "overview" };
  if (parts.length === 1 && parts[0] === "sessions") return { kind: "sessions" };
  if (parts.length === 3 && parts[0] === "sessions" && parts[1] !== undefined && parts[2] !== undefined) {
    return {
      kind: "session",
      agentId: safeDecode(parts[1]),
      sessionId: safeDecode(parts[2]),
    };
  }
  return { kind: "not-found", path: pathname };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function useRoute(): { route: Route; params: URLSearchParams } {
  const loc = useLocationString();
  const q = loc.indexOf("?");
  const path = q < 0 ? loc : loc.slice(0, q);
  return { route: parseRoute(path), params: new URLSearchParams(q < 0 ? "" : loc.slice(q)) };
}

export function sessionPath(agentId: string, sessionId: string): string {
  return `/sessions/${encodeURIComponent(agentId)}/${encodeURIComponent(sessionId)}`;
}

/** Navigate to a path (+ query). `replace` keeps the history short for high-frequency changes (typing). */
export function navigate(url: string, opts: { replace?: boolean } = {}): void {
  if (url === snapshot()) return;
  if (opts.replace) window.history.replaceState(null, "", url);
  else window.history.pushState(null, "", url);
  emit();
}

/**
 * Change query parameters of the current URL. `null`/"" removes a parameter. Parameters not named are kept
 * (so e.g. `dark` survives tab switches).
 */
export function setParams(
  patch: Record<string, string | null | undefined>,
  opts: { replace?: boolean } = {},
): void {
  const params = new URLSearchParams(window.location.search);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || v === undefined || v === "") params.delete(k);
    else params.set(k, v);
  }
  const qs = params.toString();
  navigate(window.location.pathname + (qs ? `?${qs}` : ""), opts);
}

/** A link href that keeps the global parameters (theme, on-screen redaction) when moving between pages. */
export function hrefWithGlobals(path: string, extra: Record<string, string> = {}): string {
  const cur = new URLSearchParams(window.location.search);
  const params = new URLSearchParams();
  const dark = cur.get("dark");
  if (dark !== null) params.set("dark", dark);
  const redact = cur.get("redact");
  if (redact !== null) params.set("redact", redact);
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  const qs = params.toString();
  return path + (qs ? `?${qs}` : "");
}

export function isTab(v: string | null): v is Tab {
  return TABS.some((t) => t === v);
}

/** Intercept plain left clicks on internal links so they use pushState. */
export function onLinkClick(
  e: {
    button: number;
    metaKey: boolean;
    ctrlKey: boolean;
    shiftKey: boolean;
    altKey: boolean;
    preventDefault(): void;
  },
  href: string,
): void {
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(href);
}
