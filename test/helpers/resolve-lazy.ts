// Tests compare parsed entries with OpenClaw's own exports. Long tool-result texts are not kept in memory
// (server/model/lazy-text.ts: same-length placeholder, read back on demand), so a comparison reads them back
// first — which also proves the read-back gives the stored text.

import { blockText, lazyTextOf } from "../../server/model/lazy-text.ts";
import { isObject } from "../../shared/json.ts";

/** A deep copy of `value` with every cut text read back. */
export function resolveLazyTexts(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(resolveLazyTexts);
  if (!isObject(value)) return value;
  const lazy = lazyTextOf(value) !== undefined;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, lazy && k === "text" ? blockText(value) : resolveLazyTexts(v)]),
  );
}

/** How many content blocks of these values hold a cut text. */
export function countLazyTexts(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + countLazyTexts(v), 0);
  if (!isObject(value)) return 0;
  return (
    (lazyTextOf(value) ? 1 : 0) + Object.values(value).reduce((n: number, v) => n + countLazyTexts(v), 0)
  );
}
