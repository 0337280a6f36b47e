// The timeline card: the axis switch (real time / call index), the legend, and the timeline itself.

import { useRef } from "react";
import type { PruneReplayDTO } from "../../../shared/prune.ts";
import type { AxisMode } from "../../../shared/timeline-scales.ts";
import { setParams } from "../../router.ts";
import { useElementWidth } from "../../treemap/use-size.ts";
import type { NextCallSource } from "./next-call.tsx";
import { Timeline } from "./timeline.tsx";
import { TimelineEvents } from "./timeline-marks.tsx";

function AxisSwitch({ axis }: { axis: AxisMode }) {
  return (
    <fieldset className="segmented" aria-label="Time axis">
      <button
        type="button"
        aria-pressed={axis === "time"}
        className={axis === "time" ? "active" : undefined}
        onClick={() => setParams({ axis: null }, { replace: true })}
        data-testid="axis-time"
      >
        real time
      </button>
      <button
        type="button"
        aria-pressed={axis === "index"}
        className={axis === "index" ? "active" : undefined}
        onClick={() => setParams({ axis: "index" }, { replace: true })}
        data-testid="axis-index"
      >
        call index
      </button>
    </fieldset>
  );
}

function Dot({ color }: { color: string }) {
  return <span className="legend-dot" style={{ background: color }} aria-hidden="true" />;
}

export function TimelineCard(props: {
  dto: PruneReplayDTO;
  /** Where the Next call card's prediction comes from (the "next" mark says the same). */
  next: NextCallSource;
  axis: AxisMode;
  selected: number | null;
  /** A call was clicked on the timeline (its details then open under the timeline). */
  onPick?: () => void;
}) {
  const { dto, next, axis, selected, onPick } = props;
  const box = useRef<HTMLDivElement>(null);
  const width = useElementWidth(box);
  const select = (i: number) => {
    onPick?.();
    setParams({ call: i === selected ? null : String(i) }, { replace: true });
  };
  return (
    <div className="card" ref={box}>
      <div className="toolbar">
        <h3>Timeline</h3>
        <AxisSwitch axis={axis} />
        {/* The colours are swatches, the words stay in the muted text colour (a coloured word was 2.7:1). */}
        <span className="muted small">
          <Dot color="currentColor" /> none <Dot color="rgb(214,140,40)" /> soft-trim{" "}
          <Dot color="rgb(196,64,64)" /> hard-clear ◯ TTL expired · $ cache re-write of an expired gap
          {dto.marks?.events.length ? " · C compaction · R reset" : ""} — click a call
        </span>
      </div>
      {dto.calls.length === 0 ? (
        <p className="muted">No model calls in this session.</p>
      ) : (
        <Timeline
          dto={dto}
          next={next}
          width={width - 28}
          axis={axis}
          selected={selected}
          onSelect={select}
        />
      )}
      <TimelineEvents dto={dto} selected={selected} onSelect={select} />
    </div>
  );
}
