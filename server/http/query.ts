// A route's query parameters, named: hono's validator keeps only the route's own keys, so hc<AppType> knows them
// (the browser's `$get({ query })` is checked against the route) and nothing else reaches the handler.

import { validator } from "hono/validator";

/** Keys that may repeat (`allow=a&allow=b`): each value as sent. */
export const queryOf = <K extends string>(keys: readonly K[]) =>
  validator("query", (q): Partial<Record<K, string | string[]>> => {
    const out: Partial<Record<K, string | string[]>> = {};
    for (const k of keys) {
      const v = q[k];
      if (v !== undefined) out[k] = v;
    }
    return out;
  });

/** Single-valued keys: the first value of each (as `c.req.query()` reads them). */
export const queryOne = <K extends string>(keys: readonly K[]) =>
  validator("query", (q): Partial<Record<K, string>> => {
    const out: Partial<Record<K, string>> = {};
    for (const k of keys) {
      const v = q[k];
      const first = Array.isArray(v) ? v[0] : v;
      if (first !== undefined) out[k] = first;
    }
    return out;
  });
