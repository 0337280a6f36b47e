// Dark mode: follows the system unless the user chose; the choice lives in the URL (`dark=1|0`, shareable)
// and in localStorage (sticky across visits). URL wins over localStorage, localStorage over the system.

import { useEffect, useSyncExternalStore } from "react";
import { setParams } from "../router.ts";

const STORAGE_KEY = "clawscope.dark";

function systemDark(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-color-scheme: dark)").matches;
}

function subscribeSystem(cb: () => void): () => void {
  if (typeof window.matchMedia !== "function") return () => {};
  const mq = window.matchMedia("(prefers-color-scheme: dark)");
  mq.addEventListener("change", cb);
  return () => mq.removeEventListener("change", cb);
}

function stored(): boolean | null {
  try {
    const v = window.localStorage.getItem(STORAGE_KEY);
    return v === "1" ? true : v === "0" ? false : null;
  } catch {
    return null;
  }
}

export function resolveDark(urlValue: string | null): boolean {
  if (urlValue === "1" || urlValue === "on" || urlValue === "true") return true;
  if (urlValue === "0" || urlValue === "off" || urlValue === "false") return false;
  return stored() ?? systemDark();
}

/** Applies the theme to <html data-theme> and returns [isDark, toggle]. */
export function useTheme(urlValue: string | null): [boolean, () => void] {
  const sys = useSyncExternalStore(subscribeSystem, systemDark, () => false);
  const dark = resolveDark(urlValue) || (urlValue === null && stored() === null && sys);
  useEffect(() => {
    document.documentElement.dataset.theme = dark ? "dark" : "light";
  }, [dark]);
  const toggle = () => {
    const next = !dark;
    try {
      window.localStorage.setItem(STORAGE_KEY, next ? "1" : "0");
    } catch {
      // storage disabled: the URL still carries the choice
    }
    setParams({ dark: next ? "1" : "0" }, { replace: true });
  };
  return [dark, toggle];
}
