// `clawscope prune` flags → the same query shape the HTTP route takes, so both paths share one parser
// (parsePruneQuery in shared/prune-params.ts).

import type { PruneQuery } from "../../shared/prune-params.ts";
import type { CliValues } from "../cli.ts";

export function pruneQueryFromCli(values: CliValues): PruneQuery {
  const q: Record<string, string[]> = {};
  const set = (key: string, v: string | undefined) => {
    if (v !== undefined) q[key] = [v];
  };
  set("ttl", values.ttl);
  set("keepLastAssistants", values["keep-last-assistants"]);
  set("softTrimRatio", values["soft-trim-ratio"]);
  set("hardClearRatio", values["hard-clear-ratio"]);
  set("minPrunableToolChars", values["min-prunable-tool-chars"]);
  set("softTrimMaxChars", values["soft-trim-max-chars"]);
  set("softTrimHeadChars", values["soft-trim-head-chars"]);
  set("softTrimTailChars", values["soft-trim-tail-chars"]);
  set("hardClear", values["hard-clear"]);
  set("placeholder", values.placeholder);
  set("contextWindow", values["context-window"]);
  set("algorithm", values.algorithm);
  set("at", values.at);
  if (values.allow) q.allow = values.allow;
  if (values.deny) q.deny = values.deny;
  return q;
}
