// `clawscope` / `clawscope serve` opens a browser only when asked, or when started from a terminal outside CI
// (server/shell/config.ts serveOptions: null = "when stdout is a terminal", decided in shell/serve.ts).

import { describe, expect, it } from "vitest";
import { serveOptions } from "../../server/shell/config.ts";

const at = (env: Record<string, string>) => Object.freeze({ env, homedir: "/home/u" });

describe("serveOptions: open", () => {
  it("defaults to 'when stdout is a terminal' outside CI", () => {
    expect(serveOptions({}, at({})).open).toBeNull();
    expect(serveOptions({}, at({ CI: "" })).open).toBeNull();
    expect(serveOptions({}, at({ CI: "false" })).open).toBeNull();
    expect(serveOptions({}, at({ CI: "0" })).open).toBeNull();
  });

  it("never opens under CI unless asked", () => {
    expect(serveOptions({}, at({ CI: "true" })).open).toBe(false);
    expect(serveOptions({}, at({ CI: "1" })).open).toBe(false);
    expect(serveOptions({ open: true }, at({ CI: "true" })).open).toBe(true);
  });

  it("follows --open / --no-open", () => {
    expect(serveOptions({ open: true }, at({})).open).toBe(true);
    expect(serveOptions({ noOpen: true }, at({})).open).toBe(false);
  });
});
