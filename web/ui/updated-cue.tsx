// The visible "updated" cue (issue 8: "An open session updates within a second of OpenClaw writing, with a
// visible 'updated' cue"): shown once a live change arrived, highlighted for a moment, then an age.

import { useEffect, useState } from "react";
import { useLastChange } from "../api/live.ts";

const FLASH_MS = 2500;

function ageText(ms: number): string {
  if (ms < 10_000) return "updated just now";
  const s = Math.round(ms / 1000);
  if (s < 60) return `updated ${s}s ago`;
  const m = Math.round(s / 60);
  if (m < 60) return `updated ${m}m ago`;
  return `updated ${Math.round(m / 60)}h ago`;
}

/** Renders nothing until the first live change for the session (or, without ids, for the list) arrives. */
export function UpdatedCue({ agentId, sessionId }: { agentId?: string; sessionId?: string }) {
  const at = useLastChange(agentId, sessionId);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === null) return;
    setNow(Date.now());
    // Re-render to age the text; faster while the highlight is on so it ends on time.
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [at]);
  if (at === null) return null;
  const age = Math.max(0, now - at);
  const fresh = age < FLASH_MS;
  return (
    <span
      className={`updated-cue${fresh ? " fresh" : ""}`}
      data-testid="updated-cue"
      data-updated-at={at}
      title={`Live update received at ${new Date(at).toLocaleTimeString()}`}
    >
      ● {ageText(age)}
    </span>
  );
}
