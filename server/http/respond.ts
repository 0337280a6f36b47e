// Result → HTTP response, the one mapping every route uses: the value as `200` JSON, an error as its own status
// with the `{error: {code, message, issues?}}` body. Both statuses are literal types, so `hc<AppType>` narrows.

import type { Context } from "hono";
import { errorBody, type Result } from "../../shared/result.ts";

export function respond<T>(c: Context, r: Result<T>) {
  return r.ok ? c.json(r.value, 200) : c.json(errorBody(r.error), r.error.status);
}
