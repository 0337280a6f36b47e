// web/ui/shortcuts.tsx: which focused elements swallow single-key shortcuts (issue 15: a toggled checkbox must not).

import { describe, expect, it } from "vitest";
import { takesText } from "../../../web/ui/shortcuts.tsx";

describe("takesText: shortcuts fire unless the focus takes typed text", () => {
  it.each([
    ["INPUT", "text", false, true],
    ["INPUT", "search", false, true],
    ["INPUT", "number", false, true],
    ["INPUT", "", false, true], // no type attribute: a text field
    ["TEXTAREA", "", false, true],
    ["SELECT", "", false, true],
    ["DIV", "", true, true], // contenteditable
    ["INPUT", "checkbox", false, false], // after a toggle, 1…5, d, g and ? still work
    ["INPUT", "CHECKBOX", false, false],
    ["INPUT", "radio", false, false],
    ["INPUT", "range", false, false],
    ["BUTTON", "", false, false],
    ["A", "", false, false],
  ] as const)("%s type=%s editable=%s → %s", (tag, type, editable, expected) => {
    expect(takesText(tag, type, editable)).toBe(expected);
  });
});
