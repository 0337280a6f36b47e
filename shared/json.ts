// JSON value types and the type guards every parser uses instead of `as` casts.
// Transcripts and stores hold arbitrary JSON; code narrows it with these guards.

import { MAX_JSON_DEPTH, textNestsDeeperThan, tooDeepMessage } from "./json-depth.ts";

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isArray(value: unknown): value is JsonValue[] {
  return Array.isArray(value);
}

/** A string field of an object, or undefined. */
export function str(obj: JsonObject | undefined | null, key: string): string | undefined {
  const v = obj?.[key];
  return typeof v === "string" ? v : undefined;
}

/** A finite number field of an object, or undefined. */
export function num(obj: JsonObject | undefined | null, key: string): number | undefined {
  const v = obj?.[key];
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

export function bool(obj: JsonObject | undefined | null, key: string): boolean | undefined {
  const v = obj?.[key];
  return typeof v === "boolean" ? v : undefined;
}

export function obj(o: JsonObject | undefined | null, key: string): JsonObject | undefined {
  const v = o?.[key];
  return isObject(v) ? v : undefined;
}

export function arr(o: JsonObject | undefined | null, key: string): JsonValue[] | undefined {
  const v = o?.[key];
  return Array.isArray(v) ? v : undefined;
}

/**
 * JSON.parse that never throws: returns the value or the error message. A value nested deeper than `maxDepth`
 * (default MAX_JSON_DEPTH, json-depth.ts) is an error too: nothing downstream may walk it.
 */
export function tryParseJson(
  text: string,
  maxDepth: number = MAX_JSON_DEPTH,
): { ok: true; value: JsonValue } | { ok: false; error: string } {
  if (textNestsDeeperThan(text, maxDepth)) return { ok: false, error: tooDeepMessage(maxDepth) };
  try {
    const value: JsonValue = JSON.parse(text);
    return { ok: true, value };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}
