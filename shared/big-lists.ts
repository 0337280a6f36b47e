// Whole-list operations without spreading the list into a call: `a.push(...b)` and `Math.max(...b)` pass b's
// items as call arguments, and V8 throws RangeError (call stack) past roughly 120k of them — calls, rows,
// timestamps and parse issues of a big install reach that.

/** Append every item of `items` to `into`. */
export function pushAll<T>(into: T[], items: Iterable<T>): void {
  for (const item of items) into.push(item);
}

/** The largest of `floor` and the items. */
export function maxOf(items: Iterable<number>, floor = Number.NEGATIVE_INFINITY): number {
  let m = floor;
  for (const x of items) if (x > m) m = x;
  return m;
}

/** The smallest of `ceiling` and the items. */
export function minOf(items: Iterable<number>, ceiling = Number.POSITIVE_INFINITY): number {
  let m = ceiling;
  for (const x of items) if (x < m) m = x;
  return m;
}
