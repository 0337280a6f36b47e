// Switching a session's tab (the tab bar, the 1–9 keys, links between views): the `call` parameter changes
// numbering between the map tab and the others (shared/call-numbering.ts), so the selected call stays the same.

import { carryCallParam } from "../../shared/call-numbering.ts";
import { isTab, setParams, type Tab } from "../router.ts";

/** Go to tab `to`, with `extra` parameters set; `call` in `extra` is in `to`'s numbering already. */
export function switchTab(
  to: Tab,
  extra: Record<string, string | null> = {},
  opts: { replace?: boolean } = {},
): void {
  const params = new URLSearchParams(window.location.search);
  const cur = params.get("tab");
  const from: Tab = isTab(cur) ? cur : "map";
  const call = carryCallParam(from, to, params.get("call"));
  setParams({ call, ...extra, tab: to === "map" ? null : to }, opts);
}
