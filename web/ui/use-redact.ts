// The on-screen redaction mode of the current URL (`redact=1`), as a Redactor (redact.ts) for any component.

import { useMemo } from "react";
import { useRoute } from "../router.ts";
import { makeRedactor, type Redactor, redactFromParams } from "./redact.ts";

export function useRedactor(): Redactor {
  const { params } = useRoute();
  const on = redactFromParams(params);
  return useMemo(() => makeRedactor(on), [on]);
}
