// On-screen redaction (issue 8, "Redacted mode … toggle in the UI for screenshots"). PURE: strings in, strings
// out. It masks on screen what the redacted export hides (server/export/redact.ts): message text, tool output,
// file contents, paths, names and ids. Kept: numbers, tool/skill names, bootstrap file basenames, fixed labels.
// Every rule and the id hash come from shared/redact-rules.ts, the export's table: an id shows the same
// `#xxxxxxxx` on screen as in a redacted export.

import type { MapNode } from "../../shared/context-map.ts";
import {
  agentId,
  basename,
  hashId,
  mapId,
  mapName,
  REDACTED,
  sentence,
  sessionKey,
  toolName,
} from "../../shared/redact-rules.ts";

export { REDACTED } from "../../shared/redact-rules.ts";

/** Shown instead of a whole text block (/context texts, file contents). */
export const HIDDEN_NOTICE = "hidden in redacted mode";

/** The map tree with every name and source masked (ids are kept: they address zoom levels in the URL). */
export function mapTree(node: MapNode): MapNode {
  const out: MapNode = { ...node, name: mapName(node.name, node.id), source: sentence(node.source) };
  if (node.children) out.children = node.children.map(mapTree);
  return out;
}

/**
 * One object per mode so views call `r.text(x)` without branching; with `on === false` every function is the
 * identity (and `block` returns the text itself).
 */
export interface Redactor {
  on: boolean;
  /** Free text (messages, tool output, previews, summaries): `[redacted]`. */
  text(v: string): string;
  /** A whole text block (file contents, /context texts): the "hidden in redacted mode" notice. */
  block(v: string): string;
  /** A path: nothing of it is kept. */
  path(v: string): string;
  /** A bootstrap file name or path: its basename. */
  file(v: string): string;
  /** Ids (session, entry, tool call): a short hash. */
  id(v: string): string;
  agent(v: string): string;
  sessionKey(v: string): string;
  tool(v: string): string;
  sentence(v: string): string;
  /** A map node id as shown (its data segments hashed); the URL keeps the real id for zooming. */
  mapId(v: string): string;
  mapTree(n: MapNode): MapNode;
}

const identity = <T>(v: T): T => v;

export function makeRedactor(on: boolean): Redactor {
  if (!on) {
    return {
      on,
      text: identity,
      block: identity,
      path: identity,
      file: identity,
      id: identity,
      agent: identity,
      sessionKey: identity,
      tool: identity,
      sentence: identity,
      mapId: identity,
      mapTree: identity,
    };
  }
  return {
    on,
    text: () => REDACTED,
    block: () => HIDDEN_NOTICE,
    path: () => REDACTED,
    file: basename,
    id: hashId,
    agent: agentId,
    sessionKey,
    tool: toolName,
    sentence,
    mapId,
    mapTree,
  };
}

/** The URL parameter that switches on-screen redaction on (`redact=1`); exports are redacted unless `0`. */
export function redactFromParams(params: URLSearchParams): boolean {
  return params.get("redact") === "1";
}
