// Result → HTTP response, the one mapping every route uses: the value as `200` JSON, an error as its own status
// with the `{error: {code, message, issues?}}` body. Both statuses are literal types, so `hc<AppType>` narrows.

import type { Context, TypedResponse } from "hono";
import { type ErrorBody, type ErrorStatus, errorBody, type Result } from "../../shared/result.ts";

/** What the typed client sees of a route answered by respond(): the DTO at 200, the ErrorBody otherwise. */
export type Responded<T> =
  | (Response & TypedResponse<T, 200, "json">)
  | (Response & TypedResponse<ErrorBody, ErrorStatus, "json">);

/**
 * The DTOs (shared/*.ts) are plain JSON by construction, so a value's JSON round trip has the DTO's own type.
 * Hono's `c.json` computes that type as `JSONParsed<T>`, which equals T for a flat DTO but cuts a recursive one
 * (MapNode.children, a stored report's JsonObject) to JSONValue (honojs/hono#2399); this signature states T.
 */
export function respond<T>(c: Context, r: Result<T>): Responded<T>;
export function respond<T>(c: Context, r: Result<T>): Response {
  return r.ok ? c.json(r.value, 200) : c.json(errorBody(r.error), r.error.status);
}
