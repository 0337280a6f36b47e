// The `?` keyboard-shortcut sheet, and the global key handler that drives it.

import { useEffect, useRef } from "react";

export const SHORTCUTS: { keys: string; what: string }[] = [
  { keys: "?", what: "Show / hide this sheet" },
  { keys: "/", what: "Focus the search box" },
  { keys: "1 … 5", what: "Switch tab (map, context, truncation, pruning, cost)" },
  {
    keys: "← ↑ → ↓  Enter",
    what: "Map: walk the tiles, Enter zooms into a group or pins a tile's details; table view: ↑ ↓ rows, → opens, ← closes",
  },
  { keys: "Esc / Backspace", what: "Map: zoom out one level (Esc also closes dialogs)" },
  {
    keys: "[ / ]  Home / End",
    what: "Map: previous / next call, first / last call (the context as sent then)",
  },
  { keys: "g", what: "Back to the overview (spend and the session list)" },
  { keys: "d", what: "Toggle dark mode" },
];

/** Input types that take no typed text: a single key on them (after a click) is a shortcut, not input. */
const NON_TEXT_INPUTS: ReadonlySet<string> = new Set([
  "checkbox",
  "radio",
  "button",
  "submit",
  "reset",
  "range",
  "color",
  "file",
  "image",
]);

/** Whether an element of this tag / input type / editability takes typed text (pure, for the handler and tests). */
export function takesText(tag: string, inputType: string, editable: boolean): boolean {
  if (editable) return true;
  if (tag === "INPUT") return !NON_TEXT_INPUTS.has(inputType.toLowerCase());
  return tag === "TEXTAREA" || tag === "SELECT";
}

/**
 * True when the key event comes from a text field (shortcuts must not fire while typing). A focused checkbox,
 * radio or button is not one: after toggling a checkbox every single-key shortcut keeps working (issue 15).
 */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const type = target instanceof HTMLInputElement ? target.type : "";
  return takesText(target.tagName, type, target.isContentEditable);
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
