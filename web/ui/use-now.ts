// The wall clock as React state, ticking every `ms`: for countdowns that run locally between fetches (the cache
// clock in the session header, the Pruning tab's Next call card) instead of asking the server every second.

import { useEffect, useState } from "react";

export function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}
