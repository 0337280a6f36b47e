import { type RefObject, useLayoutEffect, useState } from "react";

/** Width of an element, tracked with ResizeObserver (the treemap re-lays out on resize). */
export function useElementWidth(ref: RefObject<HTMLElement | null>, fallback = 960): number {
  return useMeasuredWidth(ref, fallback) ?? fallback;
}

/** Like useElementWidth, but null until measured (so a heavy view renders once, at its real size). */
export function useMeasuredWidth(ref: RefObject<HTMLElement | null>, fallback = 960): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth || fallback);
    if (typeof ResizeObserver === "undefined") return;
    const ro = new ResizeObserver((entries) => {
      const w = entries[0]?.contentRect.width;
      if (w !== undefined && w > 0) setWidth(Math.floor(w));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref, fallback]);
  return width;
}
