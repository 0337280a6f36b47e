// A single transient message ("Link copied"), announced politely to screen readers. A tiny module store so
// any component can call `showToast` without a context provider; <Toaster/> renders it once in the shell.

import { useEffect, useSyncExternalStore } from "react";

interface ToastState {
  id: number;
  text: string;
  kind: "ok" | "error";
}

let current: ToastState | null = null;
let nextId = 1;
const listeners = new Set<() => void>();

function emit(): void {
  for (const l of listeners) l();
}

export function showToast(text: string, kind: "ok" | "error" = "ok"): void {
  current = { id: nextId++, text, kind };
  emit();
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function Toaster() {
  const t = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
  useEffect(() => {
    if (!t) return;
    const id = t.id;
    const timer = setTimeout(
      () => {
        if (current?.id === id) {
          current = null;
          emit();
        }
      },
      t.kind === "error" ? 6000 : 2500,
    );
    return () => clearTimeout(timer);
  }, [t]);
  return (
    <div className="toast-host" aria-live="polite">
      {t ? (
        <div className={`toast toast-${t.kind}`} role="status" data-testid="toast" key={t.id}>
          {t.text}
        </div>
      ) : null}
    </div>
  );
}

/** Copy text to the clipboard; falls back to a hidden textarea where the async clipboard is unavailable. */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // Not allowed (no permission / insecure context): fall through to the legacy path.
    }
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  if (!ok) throw new Error("the browser refused to copy");
}
