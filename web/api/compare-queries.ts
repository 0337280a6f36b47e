// queryOptions of GET /api/compare (issue 16): a and b as AGENT/SESSION, the what-if of b as the URL's
// `?whatif=` string (the same keys as the route's query, URL-encoded as one parameter).

import { queryOptions } from "@tanstack/react-query";
import { whatIfQueryOf } from "../../shared/compare-params.ts";
import { api, body } from "./client.ts";

export const compareQuery = (a: string, b: string, whatIf: string | null) =>
  queryOptions({
    queryKey: ["compare", a, b, whatIf ?? ""] as const,
    queryFn: async ({ signal }) =>
      body(await api.compare.$get({ query: { a, b, ...whatIfQueryOf(whatIf) } }, { init: { signal } })),
  });
