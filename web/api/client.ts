// The typed clawscope API client: hc<AppType> over a fetch that turns every failure into an ApiError carrying
// the server's `{error: {code, message, issues?}}` body (located parse issues are shown by the error panel).
// Paths, query keys and response bodies are typed by the server's route chain (server/http/routes/*); a
// renamed route or query key is a compile error here, not a 404 at run time.

import { hc } from "hono/client";
import type { AppType } from "../../server/http/app.ts";
import { isArray, isObject, num, str } from "../../shared/json.ts";
import type { ParseIssue } from "../../shared/session.ts";

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly issues: ParseIssue[];
  constructor(status: number, code: string, message: string, issues: ParseIssue[]) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.issues = issues;
  }
}

function toIssues(value: unknown): ParseIssue[] {
  if (!isArray(value)) return [];
  const out: ParseIssue[] = [];
  for (const v of value) {
    if (!isObject(v)) continue;
    const sev = str(v, "severity");
    const issue: ParseIssue = {
      source: str(v, "source") ?? "",
      code: str(v, "code") ?? "unknown",
      message: str(v, "message") ?? "",
      severity: sev === "warning" ? "warning" : "error",
    };
    const line = num(v, "line");
    const seq = num(v, "seq");
    if (line !== undefined) issue.line = line;
    if (seq !== undefined) issue.seq = seq;
    out.push(issue);
  }
  return out;
}

/** The ApiError of a non-2xx response, from its ErrorBody (or its text when it has none). */
async function errorOf(res: Response): Promise<ApiError> {
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  const err = isObject(body) && isObject(body.error) ? body.error : null;
  return new ApiError(
    res.status,
    str(err, "code") ?? `http-${res.status}`,
    str(err, "message") ?? (text.slice(0, 300) || res.statusText),
    toIssues(err?.issues),
  );
}

/** Creates the client over any fetch (the browser's; route tests pass `app.request`). */
export function createClient(origin: string, baseFetch: typeof fetch = fetch) {
  const throwingFetch: typeof fetch = async (input, init) => {
    let res: Response;
    try {
      res = await baseFetch(input, init);
    } catch (e) {
      if (e instanceof DOMException && e.name === "AbortError") throw e;
      const why = e instanceof Error ? e.message : String(e);
      throw new ApiError(0, "network", `Cannot reach the clawscope server (${why})`, []);
    }
    if (!res.ok) throw await errorOf(res);
    return res;
  };
  return hc<AppType>(origin, { fetch: throwingFetch });
}

export const api = createClient(
  typeof window === "undefined" ? "http://localhost" : window.location.origin,
).api;

/** Route params: hc pastes them verbatim, and agent and session ids are file names (any character). */
export const sessionParam = (agentId: string, sessionId: string) => ({
  param: { agent: encodeURIComponent(agentId), session: encodeURIComponent(sessionId) },
});

/**
 * The body of a successful response. throwingFetch has already thrown for every other status, so the check
 * only narrows the route's response union to its 200 member (typed by the route chain).
 */
export async function body<T, E>(
  res: { ok: true; json(): Promise<T> } | { ok: false; status: number; json(): Promise<E> },
): Promise<T> {
  if (!res.ok) throw new ApiError(res.status, `http-${res.status}`, "unexpected error response", []);
  try {
    return await res.json();
  } catch {
    throw new ApiError(200, "invalid-json", "The server sent a non-JSON answer", []);
  }
}
