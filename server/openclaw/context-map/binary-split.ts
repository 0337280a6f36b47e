// OpenClaw's `/context map` layout: the recursive binary split (spec context-report.md §5.4 "Layout — recursive
// binary split"). Source: `src/auto-reply/reply/context-treemap.ts` (7.1, 9.6). Pure.

import type { Rect } from "../../../shared/openclaw-picture.ts";

export interface LaidOut<T> {
  item: T;
  rect: Rect;
  /** Index among the positioned items, in layout order (value-descending, stable). */
  index: number;
}

/**
 * Lays out items by OpenClaw's recursive binary split. Drops items ≤ 0, sorts by value descending (stable),
 * then splits each range where the first part's sum is closest to half (greedy, never taking the last item),
 * along the longer side (width ≥ height → left/right). Fractional coordinates. Iterative, so 10,000+ items are safe.
 */
export function binarySplitLayout<T extends { value: number }>(
  items: readonly T[],
  area: Rect,
): LaidOut<T>[] {
  const sorted = items.filter((i) => i.value > 0).sort((a, b) => b.value - a.value);
  const prefix = new Float64Array(sorted.length + 1);
  for (let i = 0; i < sorted.length; i++) prefix[i + 1] = (prefix[i] ?? 0) + (sorted[i]?.value ?? 0);
  const sum = (a: number, b: number) => (prefix[b] ?? 0) - (prefix[a] ?? 0);
  const rects: (Rect | null)[] = sorted.map(() => null);
  const stack: { start: number; end: number; r: Rect }[] = [{ start: 0, end: sorted.length, r: area }];
  while (stack.length > 0) {
    const job = stack.pop();
    if (!job) break;
    const { start, end, r } = job;
    if (end <= start || r.width <= 0 || r.height <= 0) continue;
    if (end - start === 1) {
      rects[start] = r;
      continue;
    }
    const total = sum(start, end);
    const half = total / 2;
    let split = start + 1;
    let first = sum(start, split);
    while (split < end - 1) {
      const next = first + (sorted[split]?.value ?? 0);
      if (Math.abs(next - half) > Math.abs(first - half)) break;
      first = next;
      split++;
    }
    const ratio = total > 0 ? first / total : 0;
    let a: Rect;
    let b: Rect;
    if (r.width >= r.height) {
      const w = r.width * ratio;
      a = { x: r.x, y: r.y, width: w, height: r.height };
      b = { x: r.x + w, y: r.y, width: r.width - w, height: r.height };
    } else {
      const h = r.height * ratio;
      a = { x: r.x, y: r.y, width: r.width, height: h };
      b = { x: r.x, y: r.y + h, width: r.width, height: r.height - h };
    }
    // Push the second part first so the first part is processed first (order does not change the result).
    stack.push({ start: split, end, r: b });
    stack.push({ start, end: split, r: a });
  }
  // Output in layout (= sorted) order; items whose rect had no area are skipped, and `index` counts only the
  // positioned items, as OpenClaw's forEach index over its positioned list does.
  const out: LaidOut<T>[] = [];
  sorted.forEach((item, i) => {
    const rect = rects[i];
    if (rect) out.push({ item, rect, index: out.length });
  });
  return out;
}
