// Append every item of a list to another. `a.push(...b)` passes b's items as call arguments, and V8 throws
// RangeError (call stack) past roughly 120k of them: calls, rows and parse issues of a big install reach that.

export function pushAll<T>(into: T[], items: Iterable<T>): void {
  for (const item of items) into.push(item);
}
