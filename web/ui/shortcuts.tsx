// The `?` keyboard-shortcut sheet, and the global key handler that drives it.

import { useEffect, useRef } from "react";

export const SHORTCUTS: { keys: string; what: string }[] = [
  { keys: "?", what: "Show / hide this sheet" },
  { keys: "/", what: "Focus the search box" },
  { keys: "1 … 5", what: "Switch tab (map, context, truncation, pruning, cost)" },
  { keys: "Esc / Backspace", what: "Map: zoom out one level (Esc also closes dialogs)" },
  {
    keys: "[ / ]  Home / End",
    what: "Map: previous / next call, first / last call (the context as sent then)",
  },
  { keys: "g", what: "Back to the session list" },
  { keys: "d", what: "Toggle dark mode" },
];

/** True when the key event comes from a text field (shortcuts must not fire while typing). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
}

export function ShortcutSheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal?.();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="shortcut-sheet"
      aria-label="Keyboard shortcuts"
      data-testid="shortcut-sheet"
      onClose={onClose}
    >
      <h2>Keyboard shortcuts</h2>
      <table className="table">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys}>
              <td>
                <kbd>{s.keys}</kbd>
              </td>
              <td>{s.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={onClose} data-testid="shortcut-close">
        Close
      </button>
    </dialog>
  );
}
