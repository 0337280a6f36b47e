// The bench's baselines, measured in the same run as what they are compared with (docs/performance.md): the
// issue's jq recipe, a naive Node read + JSON.parse, and a bare SQLite SELECT + decode of the same rows.

import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { isObject } from "../../shared/json.ts";
import { zstdDecoder } from "../sources/sqlite/zstd-decoders.ts";
import { MB } from "./measure.ts";

export function jqInstalled(): boolean {
  const r = spawnSync("jq", ["--version"], { encoding: "utf8" });
  return r.status === 0;
}

/** The jq recipe (usage only), through sh so the pipe is the same as typed in a shell. */
export function jqUsage(file: string): string {
  const q =
    '\'select(.type=="message" and .message.role=="assistant") | .message.usage | [.input,.output,.cacheRead,.cacheWrite]\'';
  return execFileSync("sh", ["-c", `jq -c ${q} "$1" | jq -s 'transpose | map(add)'`, "sh", file], {
    encoding: "utf8",
    maxBuffer: 64 * MB,
  });
}

/** Naive Node: read the whole file, JSON.parse every line, sum assistant usage. */
export function naiveUsage(file: string): number {
  const text = readFileSync(file, "utf8");
  let total = 0;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const v: unknown = JSON.parse(line);
    if (isObject(v) && v.type === "message" && isObject(v.message) && v.message.role === "assistant") {
      const u = v.message.usage;
      if (isObject(u) && typeof u.output === "number") total += u.output;
    }
  }
  return total;
}

/** Bare SELECT + decode (zstd with the decompressor clawscope uses → UTF-8 → JSON.parse) of every event row. */
export function bareSqliteDecode(dbFile: string, sessionId: string): number {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  const dec = new TextDecoder();
  const zstd = zstdDecoder();
  let n = 0;
  try {
    const stmt = db.prepare(
      "SELECT seq, event_json, event_zstd, event_utf8_bytes FROM transcript_events WHERE session_id = ? ORDER BY seq",
    );
    for (const r of stmt.iterate(sessionId)) {
      if (!isObject(r)) continue;
      const text =
        typeof r.event_json === "string"
          ? r.event_json
          : r.event_zstd instanceof Uint8Array
            ? dec.decode(
                zstd.decompress(
                  r.event_zstd,
                  typeof r.event_utf8_bytes === "number" ? r.event_utf8_bytes : null,
                ),
              )
            : "";
      if (isObject(JSON.parse(text))) n++;
    }
  } finally {
    db.close();
  }
  return n;
}
