// The session tabs, one record: each tab's label, hint and view. Another tab is one entry here (and its key in
// router.ts's Tab).

import type { ComponentType } from "react";
import { TABS, type Tab } from "../router.ts";
import type { TabDef } from "../ui/tabs.tsx";
import { CostView } from "./cost/cost-view.tsx";
import { MapView } from "./map/map-view.tsx";
import { PruningView } from "./pruning/pruning-view.tsx";
import { ReportView } from "./report/report-view.tsx";
import type { SessionTabProps } from "./session-tab.ts";
import { TruncationView } from "./truncation/truncation-view.tsx";

export interface TabView {
  label: string;
  hint: string;
  View: ComponentType<SessionTabProps>;
}

export const TAB_VIEWS: Readonly<Record<Tab, TabView>> = {
  map: { label: "Context map", hint: "What fills the context window (1)", View: MapView },
  context: { label: "/context", hint: "OpenClaw's /context list, detail and json (2)", View: ReportView },
  truncation: {
    label: "Bootstrap truncation",
    hint: "What the bootstrap caps cut (3)",
    View: TruncationView,
  },
  pruning: { label: "Pruning", hint: "Cache-TTL session pruning replay (4)", View: PruningView },
  cost: { label: "Cache & cost", hint: "Per-call cache hits and cost (5)", View: CostView },
};

/** The tab strip's entries, in router.ts's order. */
export const TAB_DEFS: TabDef<Tab>[] = TABS.map((key) => ({
  key,
  label: TAB_VIEWS[key].label,
  hint: TAB_VIEWS[key].hint,
}));
