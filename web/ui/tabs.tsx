import type { KeyboardEvent } from "react";

export interface TabDef<K extends string> {
  key: K;
  label: string;
  disabled?: boolean;
  hint?: string;
}

/** ARIA tablist; arrow keys move between tabs. Each tab has data-testid `tab-<key>`. */
export function Tabs<K extends string>({
  tabs,
  active,
  onSelect,
  label,
}: {
  tabs: readonly TabDef<K>[];
  active: K;
  onSelect: (k: K) => void;
  label: string;
}) {
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
    const enabled = tabs.filter((t) => !t.disabled);
    const i = enabled.findIndex((t) => t.key === active);
    const next = enabled[(i + (e.key === "ArrowRight" ? 1 : enabled.length - 1)) % enabled.length];
    if (!next) return;
    onSelect(next.key);
    // focus follows the selection (WAI-ARIA tabs; ux-notes: it stayed on the old tab)
    e.currentTarget.querySelector<HTMLButtonElement>(`[data-testid="tab-${next.key}"]`)?.focus();
  };
  return (
    <div className="tabs" role="tablist" aria-label={label} onKeyDown={onKey}>
      {tabs.map((t) => (
        <button
          key={t.key}
          type="button"
          role="tab"
          aria-selected={t.key === active}
          tabIndex={t.key === active ? 0 : -1}
          disabled={t.disabled}
          title={t.hint}
          className={t.key === active ? "tab active" : "tab"}
          onClick={() => onSelect(t.key)}
          data-testid={`tab-${t.key}`}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
