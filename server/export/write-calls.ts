// export-calls' one file write: the rows of every state dir, in the chosen format, to `--out` — refused when the
// target is inside ANY of the state dirs read (safe-write.ts: no symlink, no hard link, never in a state dir).

import path from "node:path";
import { pushAll } from "../../shared/big-lists.ts";
import type { SessionService } from "../service/session-service.ts";
import { realpathOrNull } from "../sources/fs-safety.ts";
import { type CallRow, callRows, toCsv, toNdjson } from "./export-calls.ts";
import { refusalReason, UnsafeTargetError, writeOutsideStateDir } from "./safe-write.ts";

export type CallsFormat = "parquet" | "csv" | "ndjson";

export type CallsExportResult =
  | { ok: true; rows: number; errors: string[] }
  | { ok: false; message: string; errors: string[] };

export async function writeCallsExport(
  sources: readonly { service: SessionService; stateDir: string }[],
  out: string,
  format: CallsFormat,
): Promise<CallsExportResult> {
  for (const { stateDir } of sources) {
    const reason = refusalReason(out, realpathOrNull(stateDir) ?? path.resolve(stateDir));
    if (reason !== null) return { ok: false, message: `refusing to write ${out}: ${reason}`, errors: [] };
  }
  const rows: CallRow[] = [];
  const errors: string[] = [];
  for (const { service, stateDir } of sources) {
    const r = callRows(service, stateDir);
    pushAll(rows, r.rows);
    pushAll(
      errors,
      r.errors.map((e) => `${stateDir}: ${e}`),
    );
  }
  const content =
    format === "csv"
      ? toCsv(rows)
      : format === "ndjson"
        ? toNdjson(rows)
        : await (await import("./calls-parquet.ts")).toParquet(rows);
  const first = sources[0];
  if (!first) return { ok: false, message: "no state dir", errors };
  try {
    await writeOutsideStateDir(out, first.stateDir, content);
  } catch (e) {
    if (e instanceof UnsafeTargetError) return { ok: false, message: e.message, errors };
    throw e;
  }
  return { ok: true, rows: rows.length, errors };
}
