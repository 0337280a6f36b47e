// A URL parameter edited through a draft: the input shows the draft at once, the URL (and whatever it drives)
// follows after a short pause, and a URL change from elsewhere (back button, link) resets the draft.

import { useEffect, useState } from "react";
import { setParams } from "../../router.ts";

export function useDebouncedParam(name: string, value: string, delayMs = 200): [string, (v: string) => void] {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  useEffect(() => {
    if (draft === value) return;
    const t = setTimeout(() => setParams({ [name]: draft }, { replace: true }), delayMs);
    return () => clearTimeout(t);
  }, [draft, value, name, delayMs]);
  return [draft, setDraft];
}
