import { useEffect, useState } from "react";

/** The value, updated only after it has been stable for `ms` (what-if inputs → refetch). */
export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}
