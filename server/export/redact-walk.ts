// The allow-list walk behind redact.ts: a deep copy that keeps numbers, booleans and null, and keeps a string only
// where its policy has a rule for the string's key path. The policies (the one table) live in redact.ts.

import { hashId, REDACTED } from "../../shared/redact-rules.ts";

export type Parent = Readonly<Record<string, unknown>>;
export type Rule = (value: string, parent: Parent) => string;

const IDENT_RE = /^[A-Za-z_$][A-Za-z0-9_$.]{0,63}$/;

export interface Policy {
  /** Normalised key path → rule. Paths: keys joined by ".", array items as "[]", record members as "*". */
  strings: Readonly<Record<string, Rule>>;
  /** Paths of records whose keys are data: "hash" = ids (hashed), "ident" = identifier-like keys kept. */
  records: Readonly<Record<string, "hash" | "ident">>;
}

function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

/** Map trees nest `children[]` to any depth: every depth shares one rule set. */
function normalise(path: string): string {
  return path.replace(/(\.children\[\])+/g, ".children[]");
}

function walk(value: unknown, path: string, parent: Parent, policy: Policy): unknown {
  if (value === null || value === undefined || typeof value === "number" || typeof value === "boolean")
    return value;
  if (typeof value === "string") {
    const rule = policy.strings[path];
    return rule ? rule(value, parent) : REDACTED;
  }
  if (Array.isArray(value)) return value.map((item) => walk(item, `${path}[]`, parent, policy));
  if (typeof value === "object") {
    const record = policy.records[path];
    const out: Record<string, unknown> = {};
    const self: Parent = { ...value };
    for (const [k, v] of Object.entries(value)) {
      // Object keys can carry data too: DTO field names are identifiers; anything else is hashed.
      const key = record === "hash" || !IDENT_RE.test(k) ? hashId(k) : k;
      const childPath = record ? join(path, "*") : normalise(join(path, k));
      out[key] = walk(v, childPath, self, policy);
    }
    return out;
  }
  return REDACTED; // bigint, function, symbol: never in a DTO
}

/**
 * The walk keeps the shape of its input (objects stay objects with the same field names, arrays stay arrays,
 * numbers/booleans/null are untouched; only string values change), so the result has the input's type.
 * Declared through an overload rather than a cast: the implementation signature is the unknown-typed walk.
 */
export function redactWith<T>(value: T, policy: Policy): T;
export function redactWith(value: unknown, policy: Policy): unknown {
  return walk(value, "", {}, policy);
}

/** Prefixes every rule path of a sub-policy (for DTOs nested in others). */
export function under(prefix: string, rules: Readonly<Record<string, Rule>>): Record<string, Rule> {
  const out: Record<string, Rule> = {};
  for (const [k, r] of Object.entries(rules)) out[join(prefix, k)] = r;
  return out;
}
