// The truncation report's totals and the stored report it compares with (issue 13): the [MISSING] markers OpenClaw
// injects are in totals.injectedChars, so the totals add up to the rows and to the budget left.

import { describe, expect, it } from "vitest";
import { buildTruncationReport } from "../../server/reports/truncation/truncation-report.ts";
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
