// One shape for "a value, or a located error" — from the service through the HTTP status and the error body to
// the browser's ApiError and the CLI's exit code. The status is a literal union so the typed Hono client tells a
// route's success body from its error body.

import type { ParseIssue } from "./session.ts";

/** The statuses an error can carry. */
export type ErrorStatus = 400 | 403 | 404 | 422 | 500 | 503;

export interface AppError {
  /** Stable, machine-readable: `not-found`, `bad-request`, `invalid-json`, … */
  code: string;
  message: string;
  status: ErrorStatus;
  /** The located parse problems behind the error (shown by the UI's error panel). */
  issues?: ParseIssue[];
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });

export function fail(
  code: string,
  message: string,
  status: ErrorStatus,
  issues?: ParseIssue[],
): { ok: false; error: AppError } {
  return { ok: false, error: issues ? { code, message, status, issues } : { code, message, status } };
}

/** The body of every API error response; the status travels as the HTTP status. */
export interface ErrorBody {
  error: { code: string; message: string; issues?: ParseIssue[] };
}

export function errorBody(e: Omit<AppError, "status">): ErrorBody {
  return {
    error: e.issues
      ? { code: e.code, message: e.message, issues: e.issues }
      : { code: e.code, message: e.message },
  };
}
