import { type ReactNode, useLayoutEffect, useRef, useState } from "react";

/** A tooltip that follows the pointer (viewport coordinates) and flips to stay on screen. */
export function FloatingTooltip({
  x,
  y,
  children,
  testId = "tooltip",
}: {
  x: number;
  y: number;
  children: ReactNode;
  testId?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState({ left: x + 14, top: y + 14 });
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const r = el.getBoundingClientRect();
    let left = x + 14;
    let top = y + 14;
    if (left + r.width > window.innerWidth - 8) left = Math.max(8, x - r.width - 14);
    if (top + r.height > window.innerHeight - 8) top = Math.max(8, y - r.height - 14);
    setPos({ left, top });
  }, [x, y]);
  return (
    <div
      ref={ref}
      className="tooltip"
      role="tooltip"
      style={{ left: pos.left, top: pos.top }}
      data-testid={testId}
    >
      {children}
    </div>
  );
}
