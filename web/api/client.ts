// Fetch wrapper for the clawscope API. Every error becomes an ApiError carrying the server's
// `{error: {code, message, issues?}}` body (located parse issues are shown by the error panel).
// Paths come from routes.ts (typed by the server's AppType); the DTO types come from shared/.

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

/** GET a JSON endpoint. The caller states the DTO type it expects (the server owns the shape). */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, { headers: { accept: "application/json" }, signal });
  } catch (e) {
    if (e instanceof DOMException && e.name === "AbortError") throw e;
    throw new ApiError(
      0,
      "network",
      `Cannot reach the clawscope server (${e instanceof Error ? e.message : String(e)})`,
      [],
    );
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch {
    body = null;
  }
  if (!res.ok) {
    const err = isObject(body) && isObject(body.error) ? body.error : null;
    throw new ApiError(
      res.status,
      str(err, "code") ?? `http-${res.status}`,
      str(err, "message") ?? (text.slice(0, 300) || res.statusText),
      toIssues(err?.issues),
    );
  }
  if (body === null)
    throw new ApiError(res.status, "invalid-json", `The server sent a non-JSON answer for ${path}`, []);
  // The DTO shape is the server's contract (shared/*.ts); it is not re-validated field by field here.
  return body as T;
}

/** Build a query string from defined, non-empty values. */
export function queryString(params: Record<string, string | number | boolean | null | undefined>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === null || v === undefined || v === "") continue;
    sp.set(k, String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : "";
}

/** GET a text endpoint (Markdown); errors become an ApiError like getJson's. */
export async function getText(path: string, signal?: AbortSignal): Promise<string> {
  let res: Response;
  try {
    res = await fetch(path, { signal });
  } catch (e) {
    if (e instanceof DOMException && e.name === "AbortError") throw e;
    throw new ApiError(0, "network", `Cannot reach the clawscope server (${String(e)})`, []);
  }
  const text = await res.text();
  if (!res.ok) {
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    const err = isObject(body) && isObject(body.error) ? body.error : null;
    throw new ApiError(
      res.status,
      str(err, "code") ?? `http-${res.status}`,
      str(err, "message") ?? (text.slice(0, 300) || res.statusText),
      toIssues(err?.issues),
    );
  }
  return text;
}
