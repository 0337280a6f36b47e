// export-calls as Parquet through hyparquet-writer (pure JS; research deps.md §2), imported only by this command.
// An explicit schema so `started_at` is TIMESTAMP(isAdjustedToUTC=true, MILLIS) — DuckDB reads TIMESTAMP WITH TIME
// ZONE, BigQuery / ClickHouse an instant — and token counts INT64 (a long install passes 2^31 tokens).

import { CALL_COLUMNS, type CallRow, EXPORT_CALLS_SCHEMA } from "./export-calls.ts";

type Kind = (typeof CALL_COLUMNS)[number]["kind"];

function schemaElement(name: string, kind: Kind, nullable: boolean) {
  const repetition_type = nullable ? ("OPTIONAL" as const) : ("REQUIRED" as const);
  switch (kind) {
    case "string":
      return {
        name,
        type: "BYTE_ARRAY" as const,
        converted_type: "UTF8" as const,
        logical_type: { type: "STRING" as const },
        repetition_type,
      };
    case "timestamp":
      return {
        name,
        type: "INT64" as const,
        logical_type: { type: "TIMESTAMP" as const, isAdjustedToUTC: true, unit: "MILLIS" as const },
        repetition_type,
      };
    case "int":
      return { name, type: "INT64" as const, repetition_type };
    case "double":
      return { name, type: "DOUBLE" as const, repetition_type };
    case "bool":
      return { name, type: "BOOLEAN" as const, repetition_type };
  }
}

function cell(v: CallRow[keyof CallRow], kind: Kind): unknown {
  if (v === null) return null;
  if (kind === "int" && typeof v === "number") return BigInt(Math.round(v));
  if (kind === "timestamp" && typeof v === "number") return new Date(v);
  return v;
}

export async function toParquet(rows: readonly CallRow[]): Promise<Uint8Array> {
  const { parquetWriteBuffer } = await import("hyparquet-writer");
  const buffer = parquetWriteBuffer({
    columnData: CALL_COLUMNS.map((c) => ({ name: c.name, data: rows.map((r) => cell(r[c.name], c.kind)) })),
    schema: [
      { name: "root", num_children: CALL_COLUMNS.length },
      ...CALL_COLUMNS.map((c) => schemaElement(c.name, c.kind, c.nullable)),
    ],
    kvMetadata: [{ key: "clawscope.schema", value: EXPORT_CALLS_SCHEMA }],
    createdBy: "clawscope export-calls",
  });
  return new Uint8Array(buffer);
}
