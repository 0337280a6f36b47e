// Issue 15, "Same numbers everywhere": for every session of every fixture state dir and corpus state dir, the
// headline numbers of the context at the last call — billed prompt, clawscope's tracked estimate, the untracked
// rest, the prompt's groups and the context window — are one set (server/reports/context-numbers.ts), and every
// surface that prints them prints that set: the map (DTO, tiles, footer), the /context tab (run report DTO, its
// stats), OpenClaw's own /context detail text (OpenClaw's figures, kept apart as `numbers.openclaw`), "Copy as
// issue", the HTML export and `clawscope map [--json]`. Every printed figure is parsed back out of the text, so a
// view that computes its own number fails here. Corpus dirs are read in place and skipped visibly when absent.

import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatContextNumbers, mapOutput } from "../server/cli/map-command.ts";
import { buildExportHtml, buildIssueMarkdown } from "../server/export/write-export.ts";
import { createSessionService, type SessionService } from "../server/service/session-service.ts";
import type { MapNode } from "../shared/context-map.ts";
import type { ContextNumbersDTO } from "../shared/context-numbers.ts";
import { footerText } from "../web/views/map/map-footer.tsx";
import { reportStats } from "../web/views/report/report-stats.ts";

const REPO = path.resolve(__dirname, "..");
const SHARED = path.resolve(REPO, "../shared");

/** Every state dir: the demo, the repo's fixtures, the shared captures (in place) and the corpus (in place). */
function stateDirs(): { name: string; dir: string }[] {
  const dirs: { name: string; dir: string }[] = [{ name: "demo", dir: path.join(REPO, "server/demo/state") }];
  dirs.push({ name: "no-run-report", dir: path.join(REPO, "test/fixtures/no-run-report") });
  const realWorld = path.join(REPO, "test/fixtures/real-world");
  for (const d of readdirSync(realWorld, { withFileTypes: true }))
    if (d.isDirectory())
      dirs.push({ name: `real-world/${d.name}`, dir: path.join(realWorld, d.name, "state") });
  for (const group of ["fixtures", "corpus"]) {
    const root = path.join(SHARED, group);
    if (!existsSync(root)) {
      console.warn(`[skip] ${root} not found: its state dirs are not checked for consistency`);
      continue;
    }
    for (const d of readdirSync(root, { withFileTypes: true })) {
      if (!d.isDirectory()) continue;
      const dir = group === "fixtures" ? path.join(root, d.name, "state") : path.join(root, d.name);
      if (existsSync(dir)) dirs.push({ name: `${group}/${d.name}`, dir });
    }
  }
  return dirs;
}

/** `12,345` / `-86` → number. */
const int = (s: string | undefined): number => {
  if (s === undefined) throw new Error("no number printed");
  return Number(s.replace(/,/g, ""));
};

/** The one capture of `re` in `text`, as a number (null when the alternative without a number matched). */
function printed(text: string, re: RegExp, what: string): number | null {
  const m = re.exec(text);
  expect(m, `${what}: ${re} not found`).not.toBeNull();
  return m?.[1] === undefined ? null : int(m[1]);
}

const sum = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0);

function leaves(n: MapNode): MapNode[] {
  return n.children?.length ? n.children.flatMap(leaves) : [n];
}

/** The set itself: Σ groups = billed whenever untracked is known; tracked = Σ of the groups before it. */
function checkNumbers(n: ContextNumbersDTO, where: string): void {
  const tracked = n.groups.filter((g) => g.key !== "untracked");
  expect(sum(tracked.map((g) => g.tokens)), `${where}: tracked = Σ groups`).toBe(n.trackedTokens);
  expect(sum(tracked.map((g) => g.chars)), `${where}: tracked chars = Σ groups`).toBe(n.trackedChars);
  if (n.billedPromptTokens !== null && n.untrackedTokens !== null) {
    expect(n.untrackedTokens).toBe(n.billedPromptTokens - n.trackedTokens);
    expect(sum(n.groups.map((g) => g.tokens)), `${where}: Σ groups = billed`).toBe(n.billedPromptTokens);
  } else expect(n.groups.some((g) => g.key === "untracked")).toBe(false);
}

/** The map: the same set; its tiles add up to it (Σ top-level tiles = billed when the estimate is under it). */
function checkMap(service: SessionService, agent: string, id: string, n: ContextNumbersDTO, where: string) {
  const r = service.contextMap(agent, id);
  if (!r.ok) throw new Error(`${where}: map failed: ${r.error.message}`);
  const map = r.value;
  expect(map.numbers, `${where}: map.numbers`).toEqual(n);
  expect(map.trackedTokens).toBe(n.trackedTokens);
  expect(map.trackedChars).toBe(n.trackedChars);
  expect(map.actualTokens).toBe(n.billedPromptTokens);
  const top = map.root.children ?? [];
  const drawn = leaves(map.root).filter((l) => l.id !== "untracked");
  expect(sum(drawn.map((l) => l.estTokens)), `${where}: Σ leaves = tracked`).toBe(n.trackedTokens);
  for (const g of n.groups) {
    const tile = top.find((t) => t.group === g.key);
    if (g.key === "untracked" && g.tokens <= 0) expect(tile, `${where}: no untracked tile`).toBeUndefined();
    else expect(tile?.estTokens, `${where}: tile ${g.key}`).toBe(g.tokens);
  }
  if (n.untrackedTokens !== null && n.untrackedTokens >= 0)
    expect(sum(top.map((t) => t.estTokens)), `${where}: Σ tiles = billed`).toBe(n.billedPromptTokens);
  // The footer under the map (and under its PNG).
  const foot = footerText(map);
  expect(printed(foot, /~([\d,]+) tok\)/, `${where} footer tracked`)).toBe(n.trackedTokens);
  expect(printed(foot, /actual ctx (?:([\d,]+) tok|unknown)/, `${where} footer billed`)).toBe(
    n.billedPromptTokens,
  );
  expect(printed(foot, /window ([\d,]+) tok/, `${where} footer window`)).toBe(n.contextWindow.tokens);
}

/** The /context tab: the run report carries the set; its stats print it; OpenClaw's text keeps OpenClaw's. */
function checkContextTab(
  service: SessionService,
  agent: string,
  id: string,
  n: ContextNumbersDTO,
  where: string,
) {
  const r = service.runReport(agent, id);
  if (!r.ok) throw new Error(`${where}: run report failed: ${r.error.message}`);
  const report = r.value;
  expect(report.numbers, `${where}: report.numbers`).toEqual(n);
  const rec = report.reconciliation;
  expect(rec.actualTokens).toBe(n.billedPromptTokens);
  expect(rec.clawscopeTracked).toEqual({ chars: n.trackedChars, estTokens: n.trackedTokens });
  expect(rec.clawscopeUntrackedTokens).toBe(n.untrackedTokens);
  expect(rec.openclawUntrackedTokens).toBe(n.openclaw?.untrackedTokens ?? null);
  if (report.totals && n.openclaw)
    expect(report.totals.openclawTracked).toEqual({
      chars: n.openclaw.trackedChars,
      estTokens: n.openclaw.trackedTokens,
    });

  const stat = new Map(reportStats(n).map((s) => [s.testId, s.value]));
  expect(printed(stat.get("report-billed") ?? "", /^(?:([\d,]+) tok|unknown)$/, `${where} stat billed`)).toBe(
    n.billedPromptTokens,
  );
  expect(printed(stat.get("report-tracked") ?? "", /^~([\d,]+) tok$/, `${where} stat tracked`)).toBe(
    n.trackedTokens,
  );
  expect(
    printed(stat.get("report-untracked") ?? "", /^(?:(-?[\d,]+) tok|unknown)$/, `${where} stat untracked`),
  ).toBe(n.untrackedTokens);
  expect(printed(stat.get("report-window") ?? "", /^([\d,]+) tok/, `${where} stat window`)).toBe(
    n.contextWindow.tokens,
  );
  if (n.openclaw) {
    expect(printed(stat.get("report-openclaw-tracked") ?? "", /^~([\d,]+) tok$/, where)).toBe(
      n.openclaw.trackedTokens,
    );
    expect(printed(stat.get("report-openclaw-untracked") ?? "", /^(?:(-?[\d,]+) tok|unknown)$/, where)).toBe(
      n.openclaw.untrackedTokens,
    );
  } else expect(stat.has("report-openclaw-tracked")).toBe(false);

  // OpenClaw's own /context detail (7.1+ prints its tracked estimate and untracked line): OpenClaw's numbers.
  const texts = report.texts;
  if (texts.available && n.openclaw && report.version.family !== "2026.3") {
    const detail = texts.detail;
    const m = /^Tracked prompt estimate: ([\d,]+) chars \(~([\d,]+) tok\)$/mu.exec(detail);
    expect(m, `${where}: /context detail's tracked line`).not.toBeNull();
    expect(int(m?.[1])).toBe(n.openclaw.trackedChars);
    expect(int(m?.[2])).toBe(n.openclaw.trackedTokens);
    const u = n.openclaw.untrackedTokens;
    if (u === null) expect(detail).not.toContain("Untracked provider/runtime overhead");
    else if (u > 0)
      expect(detail).toContain(`Untracked provider/runtime overhead: ~${u.toLocaleString("en-US")} tok`);
    else expect(detail).toContain("Untracked provider/runtime overhead: not observed in cached usage");
  }
}

/** "Copy as issue" and the HTML export (unredacted: redaction keeps numbers, export.test.ts checks that). */
function checkExports(
  service: SessionService,
  agent: string,
  id: string,
  n: ContextNumbersDTO,
  where: string,
) {
  const md = buildIssueMarkdown(service, agent, id, { redact: false });
  if (!md.ok) throw new Error(`${where}: issue text failed: ${md.error.message}`);
  const t = md.value;
  const tracked =
    /\| clawscope tracked estimate \| ~([\d,]+) tokens \([^)]*\)(?:, untracked (-?[\d,]+))? \|/.exec(t);
  expect(tracked, `${where}: issue text's tracked row`).not.toBeNull();
  expect(int(tracked?.[1])).toBe(n.trackedTokens);
  expect(tracked?.[2] === undefined ? null : int(tracked[2])).toBe(n.untrackedTokens);
  expect(printed(t, /\| Last call, billed prompt \| (?:([\d,]+) tokens|no model call recorded)/, where)).toBe(
    n.billedPromptTokens,
  );
  expect(printed(t, /\| Context window \| ([\d,]+) tokens/, `${where} issue window`)).toBe(
    n.contextWindow.tokens,
  );
  if (n.openclaw) {
    const oc =
      /\| OpenClaw tracked estimate \| ~([\d,]+) tokens \(\/context detail\)(?:, untracked (-?[\d,]+))? \|/.exec(
        t,
      );
    expect(oc, `${where}: issue text's OpenClaw row`).not.toBeNull();
    expect(int(oc?.[1])).toBe(n.openclaw.trackedTokens);
    expect(oc?.[2] === undefined ? null : int(oc[2])).toBe(n.openclaw.untrackedTokens);
  }

  const html = buildExportHtml(service, agent, id, { redact: false, generatedAt: "2026-12-01T00:00:00Z" });
  if (!html.ok) throw new Error(`${where}: export failed: ${html.error.message}`);
  const h = html.value;
  const dd = (label: string, re: string) => new RegExp(`<dt>${label}</dt><dd>${re}</dd>`, "u");
  expect(
    printed(h, dd("Tracked estimate \\(clawscope, as sent\\)", "~([\\d,]+) tokens"), `${where} export`),
  ).toBe(n.trackedTokens);
  expect(
    printed(h, dd("Untracked", "(?:(-?[\\d,]+) tokens|not observed)"), `${where} export untracked`),
  ).toBe(n.untrackedTokens);
  expect(printed(h, dd("Last call billed prompt", "(?:([\\d,]+) tokens|no call recorded)"), where)).toBe(
    n.billedPromptTokens,
  );
  expect(printed(h, /<dt>Context window<\/dt><dd>([\d,]+) tokens/u, `${where} export window`)).toBe(
    n.contextWindow.tokens,
  );
  // The issue text is embedded in the export too: the same rows.
  expect(h).toContain(`~${n.trackedTokens.toLocaleString("en-US")} tokens (chars/4 of what was sent)`);
}

/** `clawscope map --json` is the set; `clawscope map` prints it. */
function checkCli(service: SessionService, agent: string, id: string, n: ContextNumbersDTO, where: string) {
  const out = mapOutput(service, { agentId: agent, sessionId: id }, undefined, (m: string) => {
    throw new Error(m);
  });
  expect(out.json).toEqual(n);
  const { billedPromptTokens, trackedTokens, untrackedTokens, groups } = JSON.parse(JSON.stringify(out.json));
  expect({ billedPromptTokens, trackedTokens, untrackedTokens }).toEqual({
    billedPromptTokens: n.billedPromptTokens,
    trackedTokens: n.trackedTokens,
    untrackedTokens: n.untrackedTokens,
  });
  expect(Array.isArray(groups)).toBe(true);
  const text = out.text();
  expect(text).toBe(formatContextNumbers(n));
  expect(
    printed(text, /^billed prompt \(last call\): (?:([\d,]+) tok|unknown)$/mu, `${where} cli billed`),
  ).toBe(n.billedPromptTokens);
  expect(printed(text, /^tracked: [\d,]+ chars, ~([\d,]+) tok/mu, `${where} cli tracked`)).toBe(
    n.trackedTokens,
  );
  expect(printed(text, /^untracked: (?:(-?[\d,]+) tok|unknown)/mu, `${where} cli untracked`)).toBe(
    n.untrackedTokens,
  );
  expect(printed(text, /^context window: ([\d,]+) tok/mu, `${where} cli window`)).toBe(
    n.contextWindow.tokens,
  );
  for (const g of n.groups) {
    const row = text.split("\n").find((l) => l.startsWith(`${g.name}  `));
    expect(row, `${where}: cli row ${g.name}`).toBeDefined();
    expect(
      int(
        row
          ?.trim()
          .split(/\s{2,}/u)
          .at(-1),
      ),
    ).toBe(g.tokens);
  }
}

describe("one number, one definition: every view and the CLI print the same set (issue 15)", () => {
  for (const { name, dir } of stateDirs()) {
    it(name, () => {
      const service = createSessionService({ stateDir: dir, demo: false, reason: "test" });
      try {
        let checked = 0;
        for (const s of service.listSessions().sessions) {
          if (s.missing) continue;
          const where = `${name} ${s.agentId}/${s.sessionId}`;
          const r = service.contextNumbers(s.agentId, s.sessionId);
          if (!r.ok) {
            // A session that cannot be loaded fails the same way in every view (a located error, not numbers).
            expect(service.contextMap(s.agentId, s.sessionId).ok, where).toBe(false);
            expect(service.runReport(s.agentId, s.sessionId).ok, where).toBe(false);
            continue;
          }
          const n = r.value;
          checkNumbers(n, where);
          checkMap(service, s.agentId, s.sessionId, n, where);
          checkContextTab(service, s.agentId, s.sessionId, n, where);
          checkExports(service, s.agentId, s.sessionId, n, where);
          checkCli(service, s.agentId, s.sessionId, n, where);
          checked++;
        }
        expect(checked, `${name}: sessions checked`).toBeGreaterThan(0);
      } finally {
        service.close();
      }
    }, 300_000);
  }
});
