// Cache-TTL pruning replay: what-if controls for every setting (URL parameters, debounced refetch of /prune),
// the timeline, the selected call's tool results, and the next-call prediction.
// URL state: every PRUNE_PARAM_KEYS entry, axis=time|index, call=<index>, tr=<toolCallId>.

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { PruneReplayDTO } from "../../../shared/prune.ts";
import { PRUNE_PARAM_KEYS, type PruneParams } from "../../../shared/prune-params.ts";
import type { AxisMode } from "../../../shared/timeline-scales.ts";
import { pruneQuery } from "../../api/queries.ts";
import { ErrorPanel, isMissingTranscript, Loading, MissingTranscript } from "../../ui/status.tsx";
import type { SessionTabProps } from "../session-tab.ts";
import { CallDetails } from "./call-details.tsx";
import { CallsTable } from "./calls-table.tsx";
import { NextCall } from "./next-call.tsx";
import { PruneSummary } from "./summary.tsx";
import { TimelineCard } from "./timeline-card.tsx";
import { WhatIfDelta } from "./what-if-delta.tsx";
import { WhatIfForm } from "./what-if-form.tsx";

export function readPruneParams(params: URLSearchParams): PruneParams {
  const p: PruneParams = {};
  for (const k of PRUNE_PARAM_KEYS) {
    const v = params.get(k);
    if (v !== null && v !== "") p[k] = v;
  }
  return p;
}

export function PruningView({ agentId, sessionId, params }: SessionTabProps) {
  const p = readPruneParams(params);
  const query = useQuery(pruneQuery(agentId, sessionId, p));
  const axis: AxisMode = params.get("axis") === "index" ? "index" : "time";
  const callParam = params.get("call");
  const selected = callParam === null ? null : Number(callParam);
  return (
    <div className="pruning-view">
      <WhatIfForm dto={query.data} p={p} fetching={query.isFetching} />
      {query.data ? (
        <PrunePanel
          dto={query.data}
          axis={axis}
          selected={selected !== null && Number.isInteger(selected) ? selected : null}
          agentId={agentId}
          sessionId={sessionId}
          p={p}
          previewId={params.get("tr")}
        />
      ) : isMissingTranscript(query.error) ? (
        <MissingTranscript error={query.error} />
      ) : query.error ? (
        <ErrorPanel error={query.error} title="Could not replay pruning" retry={() => void query.refetch()} />
      ) : (
        <Loading label="Replaying pruning…" />
      )}
      {query.data && query.error ? (
        <ErrorPanel error={query.error} title="The what-if values were rejected" />
      ) : null}
    </div>
  );
}

function PrunePanel(props: {
  dto: PruneReplayDTO;
  axis: AxisMode;
  selected: number | null;
  agentId: string;
  sessionId: string;
  p: PruneParams;
  previewId: string | null;
}) {
  const { dto, selected } = props;
  // Details open where the click was (issue 15): under the timeline for a timeline click (and a permalink),
  // in a row right under the clicked row for a table click.
  const [from, setFrom] = useState<"timeline" | "table">("timeline");
  const next = { dto, agentId: props.agentId, sessionId: props.sessionId, p: props.p };
  const details = (i: number) => {
    const call = dto.calls[i];
    return call ? (
      <CallDetails
        call={call}
        index={i}
        agentId={props.agentId}
        sessionId={props.sessionId}
        whatIf={props.p}
        previewId={props.previewId}
        gap={dto.marks?.gaps.find((g) => g.call === i)}
      />
    ) : null;
  };
  return (
    <>
      <PruneSummary dto={dto} />
      <WhatIfDelta agentId={props.agentId} sessionId={props.sessionId} p={props.p} whatIf={dto} />
      <NextCall source={next} />
      <TimelineCard
        dto={dto}
        next={next}
        axis={props.axis}
        selected={selected}
        onPick={() => setFrom("timeline")}
      />
      {selected !== null && from === "timeline" ? details(selected) : null}
      <CallsTable
        dto={dto}
        selected={selected}
        detail={from === "table" ? details : undefined}
        onPick={() => setFrom("table")}
      />
    </>
  );
}
