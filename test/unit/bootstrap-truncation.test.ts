// Unit tests of OpenClaw's bootstrap truncation rules per family (spec bootstrap.md §3–§7),
// the truncation report builder and the workspace reader's rebasing.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { analyzeBootstrapRows } from "../../server/openclaw/bootstrap/analysis.ts";
import { simulateBootstrapInjection } from "../../server/openclaw/bootstrap/budget-loop.ts";
import { bootstrapFileNames } from "../../server/openclaw/bootstrap/files-and-limits.ts";
import { buildPolicyDigest, policyDigestCandidates } from "../../server/openclaw/bootstrap/policy-digest.ts";
import { trimBootstrapContent } from "../../server/openclaw/bootstrap/trim.ts";
import { promptWarningSignature } from "../../server/openclaw/bootstrap/warning-signature.ts";
import { buildTruncationReport } from "../../server/reports/truncation/truncation-report.ts";
import {
  readWorkspaceFiles,
  readWorkspaceForReport,
  rebaseRecordedPath,
  recordedStateDirOf,
} from "../../server/sources/workspace-files.ts";
import type { JsonObject } from "../../shared/json.ts";

function isObjectRow(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;
/** A deterministic text of exactly n chars made of numbered lines. */
function lines(n: number, prefix = "line"): string {
  let s = "";
  for (let i = 0; s.length < n; i += 1) s += `${prefix} ${i} lorem ipsum dolor sit amet\n`;
  // End on a non-space so trimEnd() keeps exactly n chars.
  return n > 0 ? `${s.slice(0, n - 1)}.` : "";
}

describe("file list per family (§1)", () => {
  it("9.x retires TOOLS.md and HEARTBEAT.md; 7.1 keeps them between SOUL.md and IDENTITY.md", () => {
    expect(bootstrapFileNames("2026.9")).toEqual([
      "AGENTS.md",
      "SOUL.md",
      "IDENTITY.md",
      "USER.md",
      "BOOTSTRAP.md",
      "MEMORY.md",
    ]);
    expect(bootstrapFileNames("2026.7").slice(0, 4)).toEqual([
      "AGENTS.md",
      "SOUL.md",
      "TOOLS.md",
      "IDENTITY.md",
    ]);
    expect(bootstrapFileNames("2026.7")).toContain("HEARTBEAT.md");
    expect(bootstrapFileNames("2026.3")).toContain("memory.md");
  });
});

describe("2026.3.2 trimming: fixed 70/20, not re-fitted (§4.1)", () => {
  it("keeps floor(cap·0.7) head + floor(cap·0.2) tail around the two-line marker", () => {
    const content = lines(1000);
    const r = trimBootstrapContent("2026.3", "SOUL.md", content, 100);
    const marker =
      "\n\n[...truncated, read SOUL.md for full content...]\n…(truncated SOUL.md: kept 70+20 chars of 1000)…\n\n";
    expect(r.text).toBe(content.slice(0, 70) + marker + content.slice(980));
    expect(r.text.length).toBeGreaterThan(100); // the result is not re-fitted to the cap
    expect(r.segments.map((s) => s.kind)).toEqual(["kept-head", "marker", "kept-tail"]);
  });

  it("applies the same rule to AGENTS.md (no policy digest before 2026.7)", () => {
    const r = trimBootstrapContent("2026.3", "AGENTS.md", `- must never push\n${lines(2000)}`, 200);
    expect(r.digest).toBeNull();
    expect(r.text).not.toContain("[Policy digest");
    expect(r.headChars).toBe(140);
    expect(r.tailChars).toBe(40);
  });
});

describe("2026.7.1 / 2026.9.x trimming: converging 75/25 (§4.2)", () => {
  it("USER.md N=5263 at cap 4000 → 2922 + 974 + 101-char marker + 2 separators = 3999", () => {
    const content = lines(5263);
    for (const family of ["2026.7", "2026.9"] as const) {
      const r = trimBootstrapContent(family, "USER.md", content, 4000);
      const marker =
        "\n[...truncated, read USER.md for full content...]\n…(truncated USER.md: kept 2922+974 chars of 5263)…\n";
      expect(marker.length).toBe(101);
      expect(r.text).toBe(`${content.slice(0, 2922)}\n${marker}\n${content.slice(5263 - 974)}`);
      expect(r.text.length).toBe(3999);
      expect(r.segments.map((s) => s.kind)).toEqual([
        "kept-head",
        "separator",
        "marker",
        "separator",
        "kept-tail",
      ]);
    }
  });

  it("switches to the compact marker when fewer than 16 chars would remain for content", () => {
    const content = lines(1000);
    const r = trimBootstrapContent("2026.9", "USER.md", content, 100);
    // compact(0,0) is 21 chars → budget 79 → 59+19, marker 23 chars → budget 77 → 57+19 (stable).
    expect(r.text).toBe(`${content.slice(0, 57)}[…truncated 57+19/1000]${content.slice(1000 - 19)}`);
    expect(r.text.length).toBe(99);
  });

  it("hard-cuts to the cap when not even the compact marker fits", () => {
    const r = trimBootstrapContent("2026.9", "USER.md", lines(1000), 5);
    expect(r.text).toBe("[…tru");
    expect(r.segments).toEqual([{ kind: "marker", text: "[…tru" }]);
  });

  it("measures CJK text in UTF-16 code units", () => {
    const content = "規則：".repeat(2000); // 6000 BMP chars
    const r = trimBootstrapContent("2026.9", "MEMORY.md", content, 1000);
    expect(r.rawChars).toBe(6000);
    expect(r.text.length).toBeLessThanOrEqual(1000);
    expect(r.text).toContain(`kept ${r.headChars}+${r.tailChars} chars of 6000`);
    expect(r.text.startsWith(content.slice(0, r.headChars))).toBe(true);
  });

  it("trims trailing whitespace first; rawChars never counts it", () => {
    const r = trimBootstrapContent("2026.9", "SOUL.md", "abc  \n\n\t ", 20000);
    expect(r.text).toBe("abc");
    expect(r.rawChars).toBe(3);
    expect(r.truncated).toBe(false);
    const cut = trimBootstrapContent("2026.9", "SOUL.md", `${"a".repeat(500)}\n\n   `, 200);
    expect(cut.text).toContain("of 500)");
  });
});

describe("surrogate pairs at cut points (§3: 9.x UTF-16-safe head and tail, 7.1 plain ones)", () => {
  const content = `x${"😀".repeat(3000)}`; // 6001 code units; pairs start at odd indexes
  it("9.x never leaves half a pair at the head or tail cut", () => {
    const r = trimBootstrapContent("2026.9", "MEMORY.md", content, 1000);
    expect(LONE_SURROGATE.test(r.text)).toBe(false);
    const head = r.segments.find((s) => s.kind === "kept-head");
    const tail = r.segments.find((s) => s.kind === "kept-tail");
    // The marker still prints the computed sizes; the safe slices may be one unit shorter.
    expect((head?.text.length ?? 0) + (tail?.text.length ?? 0)).toBeLessThan(r.headChars + r.tailChars);
  });
  it("7.1 slices non-AGENTS files plainly and can split a pair", () => {
    const r = trimBootstrapContent("2026.7", "MEMORY.md", content, 1000);
    expect(LONE_SURROGATE.test(r.text)).toBe(true);
  });
  it("7.1 AGENTS.md slices head and tail plainly too (dist 7.1 trimAgentsBootstrapContent); 9.x safely", () => {
    const r = trimBootstrapContent("2026.7", "AGENTS.md", content, 1000);
    expect(LONE_SURROGATE.test(r.text)).toBe(true);
    expect(LONE_SURROGATE.test(trimBootstrapContent("2026.9", "AGENTS.md", content, 1000).text)).toBe(false);
  });
});

describe("AGENTS.md policy digest (§4.3)", () => {
  const agents = [
    "# Rules",
    "",
    "Intro prose about the project.",
    "- You must run the tests before pushing.",
    "Plain prose without keywords.",
    "禁止直接推送到 main 分支。",
    "```",
    "- fenced bullet counts as a bullet line",
    "",
    "Another prose line",
    "1) numbered item",
    `- ${"long ".repeat(80)}`,
  ].join("\n");

  it("9.x pairs a candidate with the preceding prose line and knows the CJK policy words", () => {
    const c = policyDigestCandidates("2026.9", agents);
    expect(c.map((x) => x.text)).toEqual([
      "# Rules",
      "Intro prose about the project.\n- You must run the tests before pushing.",
      "Plain prose without keywords.\n禁止直接推送到 main 分支。",
      "- fenced bullet counts as a bullet line",
      "Another prose line\n1) numbered item",
      `- ${"long ".repeat(47)}lo…`,
    ]);
    expect(c.map((x) => x.high)).toEqual([false, true, true, false, false, false]);
    const long = c[5]?.text ?? "";
    expect(long.length).toBe(240);
  });

  it("7.1 takes single lines, no prose pairing, no CJK words", () => {
    const c = policyDigestCandidates("2026.7", agents);
    expect(c.map((x) => x.text)).toEqual([
      "# Rules",
      "- You must run the tests before pushing.",
      "- fenced bullet counts as a bullet line",
      "1) numbered item",
      `- ${"long ".repeat(47)}lo…`,
    ]);
  });

  it("a 2026.9-family session of 8.1 – 9.3 digests as 7.1 (the release's trim rule), 9.4+ as 9.6", () => {
    // the policy lines in the middle: neither the head (45 %) nor the tail (15 %) of the cut holds them
    const big = `${"filler line\n".repeat(300)}${agents}\n${"filler line\n".repeat(300)}`;
    const as = (digest: "2026.7" | "2026.9") =>
      trimBootstrapContent("2026.9", "AGENTS.md", big, 2000, { split: "75/25", agentsDigest: true, digest })
        .text;
    expect(as("2026.9")).toContain("Plain prose without keywords.\n禁止直接推送到 main 分支。");
    expect(as("2026.7")).not.toContain("禁止直接推送到 main 分支。");
    expect(as("2026.7")).toContain("- You must run the tests before pushing.");
    // the family's own rule is 9.6's
    expect(trimBootstrapContent("2026.9", "AGENTS.md", big, 2000).text).toBe(as("2026.9"));
  });
  it("selects high-priority lines first, then the rest in order, within the budget", () => {
    const text = ["- a bullet", "- never share secrets", "- another bullet"].join("\n");
    // Budget 32: the high-priority line (21) first, then "- a bullet" (1 + 10) fits, the last does not.
    const d = buildPolicyDigest("2026.9", text, 32);
    expect(d.text).toBe("- a bullet\n- never share secrets");
    expect(d.omittedLines).toBe(1);
    expect(buildPolicyDigest("2026.9", text, 0)).toMatchObject({ text: "", omittedLines: 0 });
  });

  it("renders head, notice, digest header, digest, omitted count, kept line and tail within the cap", () => {
    const content = `${agents}\n${lines(20000, "body")}`;
    const r = trimBootstrapContent("2026.9", "AGENTS.md", content, 6000);
    expect(r.text.length).toBeLessThanOrEqual(6000);
    expect(r.headChars).toBe(2700);
    expect(r.tailChars).toBe(900);
    const n = content.trimEnd().length;
    const digest = r.digest?.text ?? "";
    const omitted = r.digest?.omittedLines ?? 0;
    const parts = [
      content.slice(0, 2700),
      "[...truncated, read AGENTS.md for full content...]",
      "[Policy digest from AGENTS.md]",
      digest,
      ...(omitted > 0 ? [`[...${omitted} more policy lines omitted...]`] : []),
      `…(truncated AGENTS.md: kept 2700+policy ${digest.length}+900 chars of ${n})…`,
      content.trimEnd().slice(n - 900),
    ];
    expect(r.text).toBe(parts.join("\n"));
    expect(r.segments.filter((s) => s.kind === "digest").map((s) => s.text)).toEqual([digest]);
    expect(digest).toContain("禁止直接推送到 main 分支。");
  });

  it("shrinks tail, then head (not below 1), then the digest when the cap is tiny", () => {
    const content = `- must keep this rule\n${lines(3000)}`;
    const r = trimBootstrapContent("2026.9", "AGENTS.md", content, 120);
    expect(r.text.length).toBeLessThanOrEqual(120);
    expect(r.tailChars).toBe(0);
    expect(r.headChars).toBeGreaterThanOrEqual(1);
  });
});

describe("total-budget loop (§3) and missing files (§5)", () => {
  it("stops when fewer than 64 chars remain for a non-missing file", () => {
    const run = simulateBootstrapInjection({
      family: "2026.9",
      maxPerFile: 20000,
      maxTotal: 100,
      files: [
        { name: "AGENTS.md", path: "/w/AGENTS.md", content: lines(40) },
        { name: "SOUL.md", path: "/w/SOUL.md", content: lines(30) },
        { name: "IDENTITY.md", path: "/w/IDENTITY.md", content: "id" },
      ],
    });
    expect(run.files.map((f) => [f.injectedChars, f.skipReason])).toEqual([
      [40, null],
      [0, "below-min-budget"],
      [0, "budget-exhausted"],
    ]);
    expect(run.files[1]?.truncated).toBe(true);
    expect(run.warnings).toContain(
      "remaining bootstrap budget is 60 chars (<64); skipping additional bootstrap files",
    );
  });

  it("caps a file at the remaining budget (cause total-limit in 9.x)", () => {
    const run = simulateBootstrapInjection({
      family: "2026.9",
      maxPerFile: 20000,
      maxTotal: 1000,
      files: [
        { name: "AGENTS.md", path: "/w/AGENTS.md", content: lines(600) },
        { name: "MEMORY.md", path: "/w/MEMORY.md", content: lines(900) },
      ],
    });
    expect(run.files[1]?.trimCap).toBe(400);
    expect(run.files[1]?.injectedChars).toBeLessThanOrEqual(400);
    const a = analyzeBootstrapRows("2026.9", run.files, 20000, 1000);
    expect(a.rows.map((r) => r.causes)).toEqual([[], ["total-limit"]]);
  });

  it("clamps with '…' when the (2026.3, not re-fitted) text exceeds the remaining budget", () => {
    const run = simulateBootstrapInjection({
      family: "2026.3",
      maxPerFile: 20000,
      maxTotal: 200,
      files: [{ name: "SOUL.md", path: "/w/SOUL.md", content: lines(1000) }],
    });
    const f = run.files[0];
    expect(f?.injectedChars).toBe(200);
    expect(f?.injectedText.endsWith("…")).toBe(true);
    expect(f?.clampedByTotal).toBe(true);
    expect(f?.segments.at(-1)).toEqual({ kind: "clamp-ellipsis", text: "…" });
  });

  it("2026.3 injects the missing marker; a budget ≤ 3 keeps its first chars without '…'", () => {
    const run = simulateBootstrapInjection({
      family: "2026.3",
      maxPerFile: 20000,
      maxTotal: 100,
      files: [
        { name: "BOOTSTRAP.md", path: "/w/BOOTSTRAP.md", content: null },
        { name: "AGENTS.md", path: "/w/AGENTS.md", content: lines(68) },
        { name: "HEARTBEAT.md", path: "/w/HEARTBEAT.md", content: null },
        { name: "USER.md", path: "/w/USER.md", content: "u" },
      ],
    });
    expect(run.files[0]?.injectedText).toBe("[MISSING] Expected at: /w/BOOTSTRAP.md");
    expect(run.files[0]?.injectedChars).toBe(38);
    expect(run.files[0]?.truncated).toBe(false);
    // 100 − 38 = 62 < 64: AGENTS.md is skipped and the loop stops.
    expect(run.files[1]?.skipReason).toBe("below-min-budget");
    expect(run.files[2]?.skipReason).toBe("budget-exhausted");
  });

  it("clamps a missing marker to a budget of 3 without the ellipsis, and with it above 3", () => {
    const three = simulateBootstrapInjection({
      family: "2026.3",
      maxPerFile: 20000,
      maxTotal: 67,
      files: [
        { name: "AGENTS.md", path: "/w/AGENTS.md", content: lines(64) },
        { name: "BOOTSTRAP.md", path: "/w/BOOTSTRAP.md", content: null },
      ],
    });
    expect(three.files[1]?.injectedText).toBe("[MI");
    const five = simulateBootstrapInjection({
      family: "2026.3",
      maxPerFile: 20000,
      maxTotal: 69,
      files: [
        { name: "AGENTS.md", path: "/w/AGENTS.md", content: lines(64) },
        { name: "BOOTSTRAP.md", path: "/w/BOOTSTRAP.md", content: null },
      ],
    });
    expect(five.files[1]?.injectedText).toBe("[MIS…");
    expect(five.remainingAfter).toBe(0);
  });

  it("9.x charges a missing file's marker to the budget without injecting it", () => {
    const run = simulateBootstrapInjection({
      family: "2026.9",
      maxPerFile: 20000,
      maxTotal: 1000,
      files: [
        { name: "BOOTSTRAP.md", path: "/w/BOOTSTRAP.md", content: null },
        { name: "MEMORY.md", path: "/w/MEMORY.md", content: lines(2000) },
      ],
    });
    expect(run.files[0]).toMatchObject({ injectedChars: 0, budgetUsed: 38, injected: false, missing: true });
    expect(run.files[1]?.trimCap).toBe(962);
  });

  it("skips files without a path and notes a warning", () => {
    const run = simulateBootstrapInjection({
      family: "2026.9",
      maxPerFile: 20000,
      maxTotal: 1000,
      files: [{ name: "EXTRA.md", path: " ", content: "x" }],
    });
    expect(run.files[0]?.skipReason).toBe("no-path");
    expect(run.warnings[0]).toContain('skipping bootstrap file "EXTRA.md"');
  });

  it("segments always concatenate to the injected text and dropped ranges cover the rest", () => {
    const content = lines(9000);
    const run = simulateBootstrapInjection({
      family: "2026.9",
      maxPerFile: 3000,
      maxTotal: 4000,
      files: [
        { name: "AGENTS.md", path: "/w/AGENTS.md", content: `- must\n${content}` },
        { name: "USER.md", path: "/w/USER.md", content },
      ],
    });
    for (const f of run.files) {
      expect(f.segments.map((s) => s.text).join("")).toBe(f.injectedText);
      const kept = f.segments
        .filter((s) => s.kind === "kept-head" || s.kind === "kept-tail")
        .reduce((a, s) => a + s.text.length, 0);
      const dropped = f.dropped.reduce((a, d) => a + (d.to - d.from), 0);
      expect(kept + dropped).toBe(f.rawChars);
    }
  });
});

describe("near-limit and causes (§6) and the warning signature (§7.1)", () => {
  const row = (name: string, rawChars: number, injectedChars: number, missing = false) => ({
    name,
    path: `/w/${name}`,
    missing,
    rawChars,
    injectedChars,
    truncated: !missing && injectedChars < rawChars,
  });

  it("9.x: USER.md's effective limit is 4000 (near limit at 3400), others bootstrapMaxChars", () => {
    const a = analyzeBootstrapRows(
      "2026.9",
      [row("AGENTS.md", 16640, 16640), row("USER.md", 5263, 3999)],
      20000,
      60000,
    );
    expect(a.rows.map((r) => [r.fileLimit, r.nearLimit, r.causes])).toEqual([
      [20000, false, []],
      [4000, true, ["per-file-limit"]],
    ]);
    expect([a.totalRawChars, a.totalInjectedChars, a.totalNearLimit]).toEqual([21903, 20639, false]);
  });

  it("7.1: one total-limit flag for every truncated file when Σinjected ≥ total cap", () => {
    const rows = [row("AGENTS.md", 800, 800), row("USER.md", 5000, 200)];
    expect(analyzeBootstrapRows("2026.7", rows, 20000, 1000).rows[1]?.causes).toEqual(["total-limit"]);
    expect(analyzeBootstrapRows("2026.7", rows, 20000, 1001).rows[1]?.causes).toEqual([]);
    expect(analyzeBootstrapRows("2026.7", rows, 20000, 1000).rows[1]?.fileLimit).toBe(20000);
  });

  it("signature: truncated files sorted by path, causes sorted, absent when nothing is truncated", () => {
    const rows = [row("USER.md", 5263, 3999), row("AGENTS.md", 16640, 11587)];
    const sig = promptWarningSignature(
      rows,
      [["per-file-limit"], ["total-limit", "per-file-limit"]],
      12000,
      60000,
    );
    expect(sig).toBe(
      '{"bootstrapMaxChars":12000,"bootstrapTotalMaxChars":60000,"files":[' +
        '{"path":"/w/AGENTS.md","rawChars":16640,"injectedChars":11587,"causes":["per-file-limit","total-limit"]},' +
        '{"path":"/w/USER.md","rawChars":5263,"injectedChars":3999,"causes":["per-file-limit"]}]}',
    );
    expect(promptWarningSignature([row("A.md", 1, 1)], [[]], 1, 1)).toBeUndefined();
  });
});

describe("buildTruncationReport", () => {
  const report: JsonObject = {
    source: "run",
    workspaceDir: "/nowhere/.openclaw/workspace",
    bootstrapMaxChars: 20000,
    bootstrapTotalMaxChars: 60000,
    injectedWorkspaceFiles: [
      {
        name: "AGENTS.md",
        path: "/nowhere/.openclaw/workspace/AGENTS.md",
        missing: false,
        rawChars: 16640,
        injectedChars: 16640,
        truncated: false,
      },
      {
        name: "USER.md",
        path: "/nowhere/.openclaw/workspace/USER.md",
        missing: false,
        rawChars: 5263,
        injectedChars: 3999,
        truncated: true,
      },
      {
        name: "BOOTSTRAP.md",
        path: "/nowhere/.openclaw/workspace/BOOTSTRAP.md",
        missing: true,
        rawChars: 0,
        injectedChars: 0,
        truncated: false,
      },
      {
        name: "MEMORY.md",
        path: "/nowhere/.openclaw/workspace/MEMORY.md",
        missing: false,
        rawChars: 2613,
        injectedChars: 2613,
        truncated: false,
      },
    ],
  };
  const unreadable = { dir: null, files: new Map<string, string | null>() };

  it("recorded mode: the report's numbers, USER.md cause shown as the fixed cap", () => {
    const dto = buildTruncationReport({ report, family: "2026.9", workspace: unreadable });
    expect(dto.mode).toBe("recorded");
    const user = dto.files[1];
    expect(user).toMatchObject({
      status: "TRUNCATED",
      causes: ["per-file-limit"],
      displayCauses: ["user-md-fixed-cap"],
      fixedUserCap: true,
      removedChars: 1264,
      removedPct: 24,
    });
    expect(user?.estimatedTokens).toEqual({ raw: 1316, injected: 1000 });
    expect(dto.files[2]?.status).toBe("MISSING");
    expect(dto.totals).toMatchObject({
      rawChars: 24516,
      injectedChars: 23252,
      truncatedFiles: 1,
      nearLimitFiles: 1,
    });
    expect(dto.waterfall.map((w) => w.used)).toEqual([16640, 3999, 64, 2613]);
    expect(dto.waterfall[2]?.hiddenMarker).toBe(true);
    expect(dto.notes.join(" ")).toContain("not readable");
  });

  it("ignores invalid overrides with a warning (OpenClaw accepts only finite numbers > 0)", () => {
    const dto = buildTruncationReport({
      report,
      family: "2026.9",
      workspace: unreadable,
      overrides: { maxTotal: 0 },
    });
    expect(dto.mode).toBe("recorded");
    expect(dto.maxTotal).toBe(60000);
    expect(dto.warnings[0]).toContain("Ignored --max-total 0");
  });

  it("from-numbers what-if: exact except where the AGENTS.md digest matters", () => {
    const dto = buildTruncationReport({
      report,
      family: "2026.9",
      workspace: unreadable,
      overrides: { maxPerFile: 12000 },
    });
    expect(dto.mode).toBe("from-numbers");
    expect(dto.maxPerFile).toBe(12000);
    expect(dto.files[0]).toMatchObject({
      name: "AGENTS.md",
      injectedChars: null,
      exact: false,
      truncated: true,
      status: "TRUNCATED",
    });
    expect(dto.files[0]?.note).toContain("policy digest");
    expect(dto.files[1]).toMatchObject({ name: "USER.md", injectedChars: 3999, exact: true });
    expect(dto.files[3]).toMatchObject({ name: "MEMORY.md", injectedChars: 2613, exact: true });
    expect(dto.totals.injectedChars).toBeNull();
  });

  it("recomputed what-if and change detection by size (no per-file hashes)", () => {
    const files = new Map<string, string | null>([
      ["AGENTS.md", lines(16640)],
      ["USER.md", lines(5000)],
      ["BOOTSTRAP.md", null],
      ["MEMORY.md", lines(2613)],
    ]);
    const dto = buildTruncationReport({
      report,
      family: "2026.9",
      workspace: { dir: "/tmp/ws", files },
      overrides: { maxTotal: 20000 },
    });
    expect(dto.mode).toBe("recomputed");
    expect(dto.changes).toEqual([
      { name: "USER.md", kind: "size", recordedRawChars: 5263, currentRawChars: 5000 },
    ]);
    expect(dto.warnings[0]).toContain("no per-file hashes");
    expect(dto.files[0]?.injectedChars).toBe(16640);
    // 20000 − 16640 = 3360 left: USER.md is capped by the total budget (cause total-limit too).
    expect(dto.files[1]?.causes).toEqual(["per-file-limit", "total-limit"]);
    expect(dto.waterfall[1]?.totalCapBit).toBe(true);
    expect(dto.files[1]?.simulation?.segments.map((s) => s.text).join("")).toHaveLength(
      dto.files[1]?.injectedChars ?? -1,
    );
  });
});

describe("workspace reader: rebasing recorded paths (storage.md §7)", () => {
  const root = mkdtempSync(path.join(tmpdir(), "clawscope-ws-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("derives the recorded state dir from workspace / workspace-<id>", () => {
    expect(recordedStateDirOf("/home/user/.openclaw/workspace")).toBe("/home/user/.openclaw");
    expect(recordedStateDirOf("/home/user/.openclaw/workspace-ops/")).toBe("/home/user/.openclaw");
    expect(recordedStateDirOf("/srv/projects/mine")).toBeNull();
    expect(
      rebaseRecordedPath("/home/user/.openclaw/workspace/USER.md", "/home/user/.openclaw", "/x/state"),
    ).toBe("/x/state/workspace/USER.md");
    expect(rebaseRecordedPath("/elsewhere/USER.md", "/home/user/.openclaw", "/x/state")).toBeNull();
  });

  it("reads rebased files read-only and reports missing ones as null", () => {
    const state = path.join(root, "state");
    mkdirSync(path.join(state, "workspace"), { recursive: true });
    writeFileSync(path.join(state, "workspace", "AGENTS.md"), "# agents\n");
    const read = readWorkspaceFiles({
      recordedWorkspaceDir: "/no-such-home/.openclaw/workspace",
      stateDir: state,
      recordedFiles: [
        { name: "AGENTS.md", path: "/no-such-home/.openclaw/workspace/AGENTS.md" },
        { name: "USER.md", path: "/no-such-home/.openclaw/workspace/USER.md" },
      ],
    });
    expect(read.dir).toBe(path.join(state, "workspace"));
    expect(read.files.get("AGENTS.md")).toBe("# agents\n");
    expect(read.files.get("USER.md")).toBeNull();
    expect(read.rebasedPaths).toContainEqual({
      recorded: "/no-such-home/.openclaw/workspace/AGENTS.md",
      actual: path.join(state, "workspace", "AGENTS.md"),
    });
  });

  it("keys a second AGENTS.md (session run from another folder) by its recorded path; outside the state dir it is not read (issue 20)", () => {
    const state = path.join(root, "state2");
    const other = path.join(root, "worktree");
    mkdirSync(path.join(state, "workspace"), { recursive: true });
    mkdirSync(other, { recursive: true });
    writeFileSync(path.join(state, "workspace", "AGENTS.md"), "workspace rules");
    writeFileSync(path.join(other, "AGENTS.md"), "worktree rules, longer");
    const report: JsonObject = {
      workspaceDir: "/gone/.openclaw/workspace",
      bootstrapMaxChars: 20000,
      bootstrapTotalMaxChars: 60000,
      injectedWorkspaceFiles: [
        {
          name: "AGENTS.md",
          path: "/gone/.openclaw/workspace/AGENTS.md",
          missing: false,
          rawChars: 15,
          injectedChars: 15,
          truncated: false,
        },
        {
          name: "AGENTS.md",
          path: path.join(other, "AGENTS.md"),
          missing: false,
          rawChars: 22,
          injectedChars: 22,
          truncated: false,
        },
      ],
    };
    const ws = readWorkspaceForReport(report, { stateDir: state });
    expect(ws.files.get("AGENTS.md")).toBe("workspace rules");
    // A recorded per-file path outside the state dir and the workspace is never opened (issue 20): the row is
    // keyed, not read, and says why.
    expect(ws.files.has(path.join(other, "AGENTS.md"))).toBe(true);
    expect(ws.files.get(path.join(other, "AGENTS.md"))).toBeNull();
    expect(ws.unreadable).toEqual([
      {
        name: path.join(other, "AGENTS.md"),
        path: path.join(other, "AGENTS.md"),
        reason: expect.stringMatching(/^outside .*: not read$/),
      },
    ]);
    const dto = buildTruncationReport({ report, family: "2026.9", workspace: ws });
    expect(dto.files.map((f) => f.current.readable)).toEqual([true, false]);
    // Inside the state dir, the other folder's file is read.
    const inside = path.join(state, "worktree");
    mkdirSync(inside, { recursive: true });
    writeFileSync(path.join(inside, "AGENTS.md"), "worktree rules, longer");
    const second = report.injectedWorkspaceFiles;
    if (!Array.isArray(second) || !isObjectRow(second[1])) throw new Error("no second row");
    second[1].path = path.join(inside, "AGENTS.md");
    const ws2 = readWorkspaceForReport(report, { stateDir: state });
    expect(ws2.files.get(path.join(inside, "AGENTS.md"))).toBe("worktree rules, longer");
    const dto2 = buildTruncationReport({ report, family: "2026.9", workspace: ws2 });
    expect(dto2.files.map((f) => f.simulation?.matchesReport)).toEqual([true, true]);
  });

  it("marks the workspace unavailable when it lies outside the recorded state dir", () => {
    const read = readWorkspaceFiles({ recordedWorkspaceDir: "/srv/custom-ws", stateDir: root });
    expect(read.dir).toBeNull();
    expect(read.unavailableReason).toContain("does not lie under the recorded state dir");
  });
});
