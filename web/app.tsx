// App shell: header (state dir, live status, theme, shortcuts), demo banner, and the pages (the overview with
// the session picker below it, the session picker alone, the session view with tabs). All view state is in the URL (see router.ts).

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { useLiveUpdates } from "./api/live.ts";
import { stateQuery } from "./api/queries.ts";
import { hrefWithGlobals, navigate, onLinkClick, TABS, useRoute } from "./router.ts";
import { makeRedactor, redactFromParams } from "./ui/redact.ts";
import { isTyping, ShortcutSheet } from "./ui/shortcuts.tsx";
import { useTheme } from "./ui/theme.ts";
import { Toaster } from "./ui/toast.tsx";
import { DemoPrices } from "./views/cost/demo-prices.tsx";
import { OverviewView } from "./views/overview/overview-view.tsx";
import { SessionView } from "./views/session-view.tsx";
import { SessionsView } from "./views/sessions/sessions-view.tsx";
import { switchTab } from "./views/tab-switch.ts";

type Route = ReturnType<typeof useRoute>["route"];

/** The single-key shortcuts of every page (the sheet, `?`, lists them); never while typing in a field. */
function useGlobalShortcuts(route: Route, toggleDark: () => void, toggleHelp: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.metaKey || e.ctrlKey || e.altKey) return;
      if (isTyping(e.target)) return;
      if (e.key === "?") {
        e.preventDefault();
        toggleHelp();
      } else if (e.key === "d") {
        toggleDark();
      } else if (e.key === "g") {
        navigate(hrefWithGlobals("/"));
      } else if (e.key === "/") {
        const box = document.querySelector<HTMLInputElement>("[data-search-box]");
        if (box) {
          e.preventDefault();
          box.focus();
          box.select();
        }
      } else if (/^[1-9]$/.test(e.key) && route.kind === "session") {
        const tab = TABS[Number(e.key) - 1];
        if (tab) switchTab(tab);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [toggleDark, toggleHelp, route.kind]);
}

const LIVE_TEXT: Record<ReturnType<typeof useLiveUpdates>, string> = {
  live: "● live",
  reconnecting: "○ reconnecting…",
  connecting: "○ connecting…",
  unsupported: "live updates unsupported",
};

export function App() {
  const client = useQueryClient();
  const live = useLiveUpdates(client);
  const { route, params } = useRoute();
  const [dark, toggleDark] = useTheme(params.get("dark"));
  const [help, setHelp] = useState(false);
  const toggleHelp = useCallback(() => setHelp((h) => !h), []);
  const state = useQuery(stateQuery());
  const r = makeRedactor(redactFromParams(params));
  useGlobalShortcuts(route, toggleDark, toggleHelp);

  const home = hrefWithGlobals("/");
  return (
    <div className="app">
      <header className="app-header">
        <a className="brand" href={home} onClick={(e) => onLinkClick(e, home)} data-testid="home-link">
          clawscope
        </a>
        <span
          className="state-dir"
          title={r.on ? "hidden in redacted mode" : state.data?.reason}
          data-testid="state-dir"
        >
          {state.data ? r.path(state.data.stateDir) : state.error ? "state dir unknown" : "…"}
        </span>
        <span
          className={`live live-${live}`}
          data-testid="live-status"
          title="Live updates from the state dir"
        >
          {LIVE_TEXT[live]}
        </span>
        <span className="spacer" />
        <button
          type="button"
          onClick={toggleDark}
          aria-label="Toggle dark mode"
          data-testid="theme-toggle"
          aria-pressed={dark}
        >
          {dark ? "☀ Light" : "☾ Dark"}
        </button>
        <button
          type="button"
          onClick={() => setHelp(true)}
          aria-label="Keyboard shortcuts"
          data-testid="shortcuts-button"
        >
          ?
        </button>
      </header>
      {state.data?.demo ? (
        <div className="demo-banner" role="note" data-testid="demo-banner">
          <strong>Demo data.</strong> No OpenClaw state dir was found, so clawscope is showing its bundled
          demo state dir (<code>{r.path(state.data.stateDir)}</code>). {r.on ? "" : state.data.reason} Start
          with <code>--state-dir &lt;path&gt;</code> or set <code>OPENCLAW_STATE_DIR</code> to inspect your
          own sessions.
          <DemoPrices prices={state.data.configPrices} />
        </div>
      ) : null}
      <main className="app-main">
        <Page route={route} params={params} home={home} />
      </main>
      <ShortcutSheet open={help} onClose={() => setHelp(false)} />
      <Toaster />
    </div>
  );
}

function Page({ route, params, home }: { route: Route; params: URLSearchParams; home: string }) {
  if (route.kind === "overview") return <OverviewView params={params} />;
  if (route.kind === "sessions") return <SessionsView params={params} />;
  if (route.kind === "session")
    return <SessionView agentId={route.agentId} sessionId={route.sessionId} params={params} />;
  return (
    <div className="error-panel" role="alert" data-testid="not-found">
      <h1>Page not found</h1>
      <p>
        No view at <code>{route.path}</code>.{" "}
        <a href={home} onClick={(e) => onLinkClick(e, home)}>
          Back to the sessions
        </a>
      </p>
    </div>
  );
}
