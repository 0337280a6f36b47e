// The `prices=` query of the cost routes: the in-app price editor's list (shared/price-editor.ts), checked once
// for every route that prices calls (the cost report, its page and call, the cache clock).

import { parseEditorPrices } from "../../shared/price-editor.ts";
import { fail, type Result } from "../../shared/result.ts";

/** `prices=` checked, then `f` of it; a bad list is a 400 naming each problem. */
export function withEditorPrices<T>(value: string | undefined, f: (prices: string) => Result<T>): Result<T> {
  const prices = value ?? "";
  const { errors } = parseEditorPrices(prices);
  return errors.length > 0 ? fail("bad-request", `prices: ${errors.join("; ")}`, 400) : f(prices);
}
