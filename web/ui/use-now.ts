// Countdowns that run locally between fetches (the cache clock in the session header, the Pruning tab's Next
// call card) instead of asking the server every second: the wall clock as React state, when a countdown has
// crossed zero, and asking the server again once per crossing.

import { useEffect, useRef, useState } from "react";

export function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}

/** A countdown that had time left when fetched (`fetchedLeft`) has run out locally (`leftNow`); null: no clock. */
export function crossedZero(fetchedLeft: number | null, leftNow: number | null): boolean {
  return fetchedLeft !== null && fetchedLeft > 0 && leftNow !== null && leftNow <= 0;
}

/**
 * Call `askAgain` once when `crossed` turns true for the answer fetched at `fetchedAt`: crossing zero changes
 * what the server says. The ref remembers which fetch was already refreshed, so a still-expired answer does
 * not loop.
 */
export function useAskAgainOnCrossing(crossed: boolean, fetchedAt: number, askAgain: () => void): void {
  const refreshedFor = useRef(0);
  useEffect(() => {
    if (!crossed || refreshedFor.current === fetchedAt) return;
    refreshedFor.current = fetchedAt;
    askAgain();
  }, [crossed, fetchedAt, askAgain]);
}
