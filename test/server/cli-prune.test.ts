// `clawscope prune` as a user runs it (issue 18): `--json` prints the linear shape, `--call N` one call with
// its complete maps (the `--full` shape's call N), `--full` the complete replay; bad `--call` values are
// usage errors (exit 2), a call the replay does not have a located failure (exit 1).

import { describe, expect, it } from "vitest";
import type { PruneCallDTO, PruneLinearReplayDTO, PruneReplayDTO } from "../../shared/prune.ts";
import { runCli } from "../helpers/cli.ts";
import { statesFromLinear } from "../helpers/prune-linear.ts";

const SESSION = "legacy/4b707e2a-5983-497f-a2d7-d3ea6b3a5e84";

function cli(...args: string[]) {
  const r = runCli(["prune", "--demo", "--session", SESSION, ...args]);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("clawscope prune", () => {
  it("--json is linear, --full complete, --call N the complete call N", { timeout: 60_000 }, () => {
    const linear: PruneLinearReplayDTO = JSON.parse(cli("--json").stdout);
    const full: PruneReplayDTO = JSON.parse(cli("--json", "--full").stdout);
    expect(linear.callsDetail).toBe("linear");
    expect(full.callsDetail).toBeUndefined();
    expect(linear.calls.length).toBe(full.calls.length);
    expect(linear.calls.length).toBeGreaterThan(2);
    expect(statesFromLinear(linear)).toEqual(full.calls.map((c) => c.toolResults));
    const r = cli("--json", "--call", "3");
    expect(r.status).toBe(0);
    const call: PruneCallDTO & { call: number } = JSON.parse(r.stdout);
    expect(call).toEqual({ call: 3, ...full.calls[2] });
    expect(Object.keys(call.toolResults).length).toBeGreaterThan(0);
  });

  it("bad --call values", { timeout: 60_000 }, () => {
    const zero = cli("--json", "--call", "0");
    expect(zero.status).toBe(2);
    expect(zero.stderr).toContain("--call must be a call number");
    const both = cli("--call", "1", "--full");
    expect(both.status).toBe(2);
    const beyond = cli("--json", "--call", "9999");
    expect(beyond.status).toBe(1);
    expect(beyond.stderr).toMatch(/no call 9999 in the replay \(it has \d+, numbered from 1\)/);
    expect(beyond.stdout).toBe("");
  });

  it("--at: ISO or epoch ms as given, now = the wall clock, default right after the last entry", () => {
    const asRun: PruneLinearReplayDTO = JSON.parse(cli("--json").stdout);
    const iso = "2027-01-02T03:04:05Z";
    const at: PruneLinearReplayDTO = JSON.parse(cli("--json", "--at", iso).stdout);
    expect(at.next.at).toBe(Date.parse(iso));
    expect(at.calls).toEqual(asRun.calls);
    const ms: PruneLinearReplayDTO = JSON.parse(cli("--json", "--at", String(Date.parse(iso))).stdout);
    expect(ms.next).toEqual(at.next);
    const before = Date.now();
    const now: PruneLinearReplayDTO = JSON.parse(cli("--json", "--at", "now").stdout);
    expect(now.next.at).toBeGreaterThanOrEqual(before);
    expect(now.next.at).toBeLessThanOrEqual(Date.now());
    expect(asRun.next.at).toBeLessThan(before);
    // the text names the time it predicts for
    const text = cli("--at", iso).stdout;
    expect(text).toContain("next (a message at 2027-01-02T03:04:05Z):");
  });

  it("a malformed --at is a usage error, not silently the default", () => {
    const bad = cli("--json", "--at", "yesterday-ish");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--at must be an ISO time, epoch milliseconds or now (got "yesterday-ish")');
    expect(bad.stdout).toBe("");
  });
});
