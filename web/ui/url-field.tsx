// What-if inputs bound to URL parameters: typing updates a local draft; the URL (and so the query) follows
// after a short pause, so each keystroke does not refetch.

import { useEffect, useState } from "react";
import { setParams } from "../router.ts";

export function UrlField({
  param,
  value,
  label,
  placeholder,
  type = "text",
  testId,
  title,
  step,
}: {
  param: string;
  value: string | null;
  label: string;
  placeholder?: string;
  type?: "text" | "number";
  testId: string;
  title?: string;
  step?: string;
}) {
  const [draft, setDraft] = useState(value ?? "");
  useEffect(() => setDraft(value ?? ""), [value]);
  useEffect(() => {
    if (draft === (value ?? "")) return;
    const t = setTimeout(
      () => setParams({ [param]: draft.trim() === "" ? null : draft.trim() }, { replace: true }),
      450,
    );
    return () => clearTimeout(t);
  }, [draft, value, param]);
  return (
    <label title={title}>
      {label}
      <input
        type={type}
        value={draft}
        placeholder={placeholder}
        step={step}
        aria-label={label}
        data-testid={testId}
        onChange={(e) => setDraft(e.target.value)}
      />
    </label>
  );
}
