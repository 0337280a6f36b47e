// The truncation report's totals and the stored report it compares with (issue 13): the [MISSING] markers OpenClaw
// injects are in totals.injectedChars, so the totals add up to the rows and to the budget left.

import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { buildTruncationReport } from "../../server/reports/truncation/truncation-report.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import type { JsonObject } from "../../shared/json.ts";
import type { TruncationReportDTO } from "../../shared/truncation.ts";

const unreadable = { dir: null, files: new Map<string, string | null>() };

function row(name: string, raw: number, injected: number, missing = false): JsonObject {
  return {
    name,
    path: `/home/u/.openclaw/workspace/${name}`,
    missing,
    rawChars: raw,
    injectedChars: injected,
    truncated: !missing && injected < raw,
  };
}

/** Σ rows, and what the budget loop left: the identity the totals promise. */
function expectTotalsAddUp(dto: TruncationReportDTO): void {
  const rows = dto.files.filter((f) => !f.nativeUnverified).reduce((s, f) => s + (f.injectedChars ?? 0), 0);
  expect(dto.totals.injectedChars).toBe(rows);
  expect(dto.maxTotal - (dto.totals.injectedChars ?? 0) - dto.totals.hiddenMarkerChars).toBe(
    dto.totals.budgetRemaining,
  );
}

describe("truncation totals (issue 13)", () => {
  it("a 2026.3-era report whose missing BOOTSTRAP.md marker was injected (66 chars): counted in the totals", () => {
    const report: JsonObject = {
      source: "run",
      workspaceDir: "/home/u/.openclaw/workspace",
      bootstrapMaxChars: 20000,
      bootstrapTotalMaxChars: 150000,
      injectedWorkspaceFiles: [
        row("AGENTS.md", 7000, 7000),
        row("SOUL.md", 1200, 1200),
        row("BOOTSTRAP.md", 0, 66, true),
      ],
    };
    const dto = buildTruncationReport({ report, family: "2026.3", workspace: unreadable });
    expect(dto.files[2]).toMatchObject({ status: "MISSING", injectedChars: 66 });
    expect(dto.totals.injectedChars).toBe(7000 + 1200 + 66);
    expect(dto.totals.hiddenMarkerChars).toBe(0);
    expect(dto.totals.budgetRemaining).toBe(150000 - 8266);
    expectTotalsAddUp(dto);
  });

  it("2026.9.x: a missing file's marker takes budget without being injected (hiddenMarkerChars)", () => {
    const report: JsonObject = {
      source: "run",
      workspaceDir: "/home/u/.openclaw/workspace",
      bootstrapMaxChars: 20000,
      bootstrapTotalMaxChars: 60000,
      injectedWorkspaceFiles: [
        row("AGENTS.md", 16640, 16640),
        row("BOOTSTRAP.md", 0, 0, true),
        row("MEMORY.md", 2613, 2613),
      ],
    };
    const dto = buildTruncationReport({ report, family: "2026.9", workspace: unreadable });
    const marker = "[MISSING] Expected at: /home/u/.openclaw/workspace/BOOTSTRAP.md".length;
    expect(dto.totals.injectedChars).toBe(16640 + 2613);
    expect(dto.totals.hiddenMarkerChars).toBe(marker);
    expect(dto.totals.budgetRemaining).toBe(60000 - 16640 - 2613 - marker);
    expectTotalsAddUp(dto);
  });
});

// --- sessions without a stored report, and a report of another session (test/fixtures/no-run-report) ---------

const here = path.dirname(fileURLToPath(import.meta.url));
const STATE = path.resolve(here, "../fixtures/no-run-report");
const CRON = "0c7f1a55-1111-4a1a-8c1c-000000000001";
const MAIN = "0c7f1a55-2222-4b2b-9d2d-000000000002";
const service = createSessionService({ stateDir: STATE, demo: false, reason: "test" });
afterAll(() => service.close());

function truncation(sessionId: string, query: Record<string, string> = {}): TruncationReportDTO {
  const r = service.truncation("main", sessionId, query, { allowWorkspaceOverride: true });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe("a session without a stored run report (issue 13)", () => {
  it("reads the workspace OpenClaw would use (<stateDir>/workspace) and shows what the configured caps would inject", () => {
    const dto = truncation(CRON);
    expect(dto.storedReport.available).toBe(false);
    expect(dto.mode).toBe("recomputed");
    expect(dto.workspace).toMatchObject({ readable: true, source: "<stateDir>/workspace" });
    expect(dto.maxPerFile).toBe(3000); // agents.defaults.bootstrapMaxChars
    const byName = new Map(dto.files.map((f) => [f.name, f]));
    // Never MISSING for a file on disk.
    for (const name of ["AGENTS.md", "SOUL.md", "USER.md"])
      expect(byName.get(name)?.status, name).not.toBe("MISSING");
    expect(byName.get("AGENTS.md")).toMatchObject({ rawChars: 4200, status: "TRUNCATED" });
    expect(byName.get("AGENTS.md")?.injectedChars).toBeLessThanOrEqual(3000);
    expect(byName.get("SOUL.md")).toMatchObject({ rawChars: 27, injectedChars: 27, status: "OK" });
    expect(byName.get("IDENTITY.md")?.status).toBe("MISSING");
    expect(dto.totals.rawChars).toBe(4200 + 27 + 44);
    expectTotalsAddUp(dto);
    expect(dto.notes.join(" ")).toContain("No run report is stored for this session");
    expect(dto.notes.join(" ")).toContain("agents.defaults.bootstrapMaxChars");
  });

  it("--workspace DIR: rows and totals show the files' real sizes", () => {
    const dto = truncation(CRON, { workspace: path.join(STATE, "workspace") });
    expect(dto.workspace.source).toBe("--workspace");
    expect(dto.files.find((f) => f.name === "USER.md")).toMatchObject({ rawChars: 44, injectedChars: 44 });
    expect(dto.totals.rawChars).toBe(4271);
    expect(dto.totals.injectedChars).toBeGreaterThan(0);
  });

  it("no workspace anywhere: no rows (nothing is called MISSING unseen), and where it looked", () => {
    const dto = truncation(CRON, { workspace: path.join(STATE, "no-such-dir") });
    expect(dto.workspace.readable).toBe(false);
    const bare = buildTruncationReport({
      report: null,
      family: "2026.7",
      workspace: { dir: null, files: new Map(), tried: ["/x/workspace", "/x/workspace-main"] },
    });
    expect(bare.files).toEqual([]);
    expect(bare.storedReport.available).toBe(false);
    expect(bare.notes.join(" ")).toContain("looked in: /x/workspace, /x/workspace-main");
  });
});

describe("a workspace without USER.md (bootstrap.md §1)", () => {
  const files = new Map<string, string | null>([
    ["AGENTS.md", "# agents\n"],
    ["SOUL.md", "soul\n"],
    ["IDENTITY.md", "id\n"],
    ["USER.md", null],
    ["BOOTSTRAP.md", null],
    ["MEMORY.md", null],
  ]);
  const names = (family: "2026.7" | "2026.9") =>
    buildTruncationReport({ report: null, family, workspace: { dir: "/w", files } }).files.map(
      (f) => `${f.name}${f.missing ? " MISSING" : ""}`,
    );
  it("2026.8.1+ skips a missing USER.md as it skips MEMORY.md; 2026.7.1 lists it MISSING", () => {
    expect(names("2026.9")).toEqual(["AGENTS.md", "SOUL.md", "IDENTITY.md", "BOOTSTRAP.md MISSING"]);
    expect(names("2026.7")).toEqual([
      "AGENTS.md",
      "SOUL.md",
      "TOOLS.md MISSING",
      "IDENTITY.md",
      "USER.md MISSING",
      "HEARTBEAT.md MISSING",
      "BOOTSTRAP.md MISSING",
    ]);
  });
});

describe("a stored report of another session id (issue 13)", () => {
  it("says whose report it is in the truncation DTO", () => {
    const dto = truncation(MAIN);
    expect(dto.storedReport).toMatchObject({
      available: true,
      sessionId: "56c4e0d1-3333-4c3c-ae3e-000000000003",
    });
    expect(dto.storedReport.owner).toMatchObject({
      reportSessionId: "56c4e0d1-3333-4c3c-ae3e-000000000003",
      currentOfKey: false,
    });
    expect(dto.storedReport.owner?.note).toContain(
      "run report of session 56c4e0d1…, an earlier session of this key",
    );
    expect(truncation(CRON).storedReport.owner).toBeNull();
  });
});
