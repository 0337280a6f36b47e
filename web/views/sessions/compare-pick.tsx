// Two sessions picked in the list to compare (issue 16): a checkbox per row, the pick in the URL (`pick=`, at
// most two AGENT/SESSION refs, each URI-encoded, comma-separated) and a Compare button that opens the first
// session with `?compare=` the second.

import type { SessionSummary } from "../../../shared/session.ts";
import { hrefWithGlobals, navigate, sessionPath, setParams } from "../../router.ts";

export const pickRef = (s: { agentId: string; sessionId: string }): string => `${s.agentId}/${s.sessionId}`;

/** The picked refs, oldest first (at most two). */
export function parsePick(value: string | null): string[] {
  if (!value) return [];
  return value
    .split(",")
    .filter(Boolean)
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    })
    .slice(-2);
}

/** Toggle a ref; a third pick drops the oldest. */
export function togglePick(picked: readonly string[], ref: string): string[] {
  return picked.includes(ref) ? picked.filter((p) => p !== ref) : [...picked, ref].slice(-2);
}

function splitRef(ref: string): { agentId: string; sessionId: string } {
  const i = ref.indexOf("/");
  return { agentId: ref.slice(0, i), sessionId: ref.slice(i + 1) };
}

export function PickBox({ s, picked }: { s: SessionSummary; picked: readonly string[] }) {
  const ref = pickRef(s);
  return (
    <input
      type="checkbox"
      aria-label={`Pick ${ref} to compare`}
      data-testid={`pick-${ref}`}
      checked={picked.includes(ref)}
      onChange={() =>
        setParams({ pick: togglePick(picked, ref).map(encodeURIComponent).join(",") }, { replace: true })
      }
    />
  );
}

export function CompareButton({ picked }: { picked: readonly string[] }) {
  const [a, b] = picked;
  return (
    <button
      type="button"
      data-testid="compare-picked"
      disabled={a === undefined || b === undefined}
      title="Pick two sessions (the checkboxes) to compare them side by side"
      onClick={() => {
        if (a === undefined || b === undefined) return;
        const s = splitRef(a);
        navigate(hrefWithGlobals(sessionPath(s.agentId, s.sessionId), { compare: b }));
      }}
    >
      Compare {picked.length}/2
    </button>
  );
}
