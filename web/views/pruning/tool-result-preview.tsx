// One tool result at one call: the text stored in the transcript beside the text sent (head … tail + trim note,
// or the hard-clear placeholder).

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { fmtInt } from "../../../shared/format.ts";
import type { PruneParams } from "../../../shared/prune-params.ts";
import { prunePreviewQuery } from "../../api/queries.ts";
import { ErrorPanel, Loading } from "../../ui/status.tsx";
import { useRedactor } from "../../ui/use-redact.ts";

export const STATE_BADGE = {
  full: "badge-ok",
  "soft-trim": "badge-archived",
  "hard-clear": "badge-error",
} as const;

/** Stored text vs the text sent at this call (head … tail + trim note, or the placeholder). */
export function ToolResultPreview(props: {
  agentId: string;
  sessionId: string;
  whatIf: PruneParams;
  callIndex: number;
  toolCallId: string;
}) {
  const red = useRedactor();
  const q = useQuery(
    prunePreviewQuery(props.agentId, props.sessionId, props.whatIf, props.callIndex, props.toolCallId),
  );
  // The preview opens where it was asked for (issue 15): from a map tile's link or a row click it scrolls into
  // view once its text is there.
  const box = useRef<HTMLDivElement>(null);
  const shownId = q.data?.toolCallId;
  useEffect(() => {
    if (shownId !== undefined) box.current?.scrollIntoView({ block: "nearest" });
  }, [shownId]);
  if (q.isPending) return <Loading label="Loading the tool result preview…" />;
  if (q.isError)
    return <ErrorPanel error={q.error} title="Tool result preview failed" retry={() => void q.refetch()} />;
  const p = q.data;
  return (
    <div className="preview-pair" data-testid="prune-preview" data-tool-call-id={p.toolCallId} ref={box}>
      <p className="small">
        <span className="mono">{p.toolName}</span>{" "}
        <span className={`badge ${STATE_BADGE[p.state]}`}>{p.state}</span> {p.note}
      </p>
      <div className="preview-columns">
        <figure>
          <figcaption className="small muted">
            stored in the transcript ({fmtInt(p.before.length)} chars)
          </figcaption>
          <pre className="preview-text" data-testid="prune-preview-before">
            {red.block(p.before)}
          </pre>
        </figure>
        <figure>
          <figcaption className="small muted">
            sent at call #{props.callIndex + 1} ({fmtInt(p.after.length)} chars)
          </figcaption>
          <pre className="preview-text" data-testid="prune-preview-after">
            {red.block(p.after)}
          </pre>
        </figure>
      </div>
    </div>
  );
}
