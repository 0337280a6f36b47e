// Issue 13 (release family → defaults, exactly per release): the bootstrap defaults of every OpenClaw release
// 2026.1.x → 2026.9.x (openclaw/bootstrap/release-defaults.ts, read from each npm build's dist/), and a session
// without a stored report in an install whose config was last written by that release.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { releaseBootstrapDefaults } from "../../server/openclaw/bootstrap/release-defaults.ts";
import { renderContextText } from "../../server/openclaw/context-text/context-text.ts";
import { compareReleases, parseRelease } from "../../server/openclaw/release.ts";
import { createSessionService } from "../../server/service/session-service.ts";

function lookup(v: string) {
  const r = releaseBootstrapDefaults(v);
  if (!r) throw new Error(`no defaults for ${v}`);
  return r;
}

const caps = (v: string) => {
  const { defaults: d } = lookup(v);
  return [d.maxPerFile, d.maxTotal, d.split, d.agentsDigest, d.warningDefault];
};

describe("OpenClaw's bootstrap defaults per release", () => {
  it("orders releases as npm does (beta before its release, -N build after)", () => {
    const order = ["2026.5.31-beta.3", "2026.5.31-beta.4", "2026.5.31", "2026.6.1", "2026.7.1", "2026.7.1-1"];
    const parsed = order.map((v) => parseRelease(v));
    for (let i = 1; i < parsed.length; i += 1) {
      const [a, b] = [parsed[i - 1], parsed[i]];
      if (!a || !b) throw new Error("unparsed");
      expect(compareReleases(a, b), `${order[i - 1]} < ${order[i]}`).toBeLessThan(0);
    }
    expect(parseRelease("latest")).toBeNull();
  });

  it("caps, cut and warning default of every release family, at each boundary", () => {
    expect(caps("2026.1.29")).toEqual([20_000, null, "70/20", false, null]);
    expect(caps("2026.2.12")).toEqual([20_000, null, "70/20", false, null]);
    expect(caps("2026.2.17")).toEqual([20_000, 150_000, "70/20", false, null]);
    expect(caps("2026.3.22")).toEqual([20_000, 150_000, "70/20", false, "once"]);
    expect(caps("2026.4.14")).toEqual([20_000, 150_000, "70/20", false, "once"]);
    // 12,000 / 60,000 from 2026.4.15, the 75/25 cut only from 2026.4.20 (no npm release in between)
    expect(caps("2026.4.15")).toEqual([12_000, 60_000, "70/20", false, "once"]);
    expect(caps("2026.4.20")).toEqual([12_000, 60_000, "75/25", false, "once"]);
    expect(caps("2026.5.12")).toEqual([12_000, 60_000, "75/25", false, "once"]);
    // warning default once → always between 2026.5.12 and 2026.5.18; the AGENTS.md digest from 2026.5.19
    expect(caps("2026.5.18")).toEqual([12_000, 60_000, "75/25", false, "always"]);
    expect(caps("2026.5.19")).toEqual([12_000, 60_000, "75/25", true, "always"]);
    expect(caps("2026.5.31-beta.3")).toEqual([12_000, 60_000, "75/25", true, "always"]);
    expect(caps("2026.5.31-beta.4")).toEqual([20_000, 60_000, "75/25", true, "always"]);
    expect(caps("2026.6.5")).toEqual([20_000, 60_000, "75/25", true, "always"]);
    expect(caps("2026.7.1-1")).toEqual([20_000, 60_000, "75/25", true, "always"]);
    expect(caps("2026.9.6")).toEqual([20_000, 60_000, "75/25", true, "always"]);
    expect(lookup("2026.5.18").defaults.perAgentCaps).toBe(true);
    expect(lookup("2026.5.12").defaults.perAgentCaps).toBe(false);
  });

  it("says which releases were checked and which values are assumed", () => {
    expect(lookup("2026.5.7")).toMatchObject({
      verified: true,
      note: "2026.5.7: defaults of 2026.4.20–2026.5.12",
    });
    expect(lookup("2026.5.16-beta.3")).toMatchObject({
      verified: false,
      note: "2026.5.16-beta.3: defaults of 2026.4.20–2026.5.12 assumed (it lies between 2026.5.12 and 2026.5.18, not checked)",
    });
    expect(lookup("2026.10.2")).toMatchObject({
      verified: false,
      note: "2026.10.2: defaults of 2026.9.4–2026.9.6 assumed (it is newer than 2026.9.6, the newest release checked)",
    });
    // the AGENTS.md digest of 2026.9.6 arrived in 2026.9.4; 8.x – 9.3 still digest as 7.1 does
    expect(lookup("2026.9.3").defaults.digest).toBe("2026.7");
    expect(lookup("2026.8.2").defaults.digest).toBe("2026.7");
    expect(lookup("2026.9.4").defaults.digest).toBe("2026.9");
    expect(lookup("2026.9.6").defaults.digest).toBe("2026.9");
    expect(lookup("2025.12.1").verified).toBe(false);
  });
});

// A report-less session (a cron run) in an install whose openclaw.json was last written by `version`, with a
// workspace whose AGENTS.md (30,000 chars) and SOUL.md (15,000 chars) exceed some releases' caps.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-release-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const SESSION = "5a5a5a5a-0000-4000-8000-000000000001";

function install(version: string): string {
  const dir = path.join(tmp, version);
  const sessions = path.join(dir, "agents/main/sessions");
  fs.mkdirSync(sessions, { recursive: true });
  fs.mkdirSync(path.join(dir, "workspace"));
  fs.writeFileSync(
    path.join(dir, "openclaw.json"),
    JSON.stringify({ meta: { lastTouchedVersion: version } }),
  );
  fs.writeFileSync(
    path.join(sessions, "sessions.json"),
    JSON.stringify({ "agent:main:cron:nightly": { sessionId: SESSION, updatedAt: 1780000000000 } }),
  );
  fs.writeFileSync(
    path.join(sessions, `${SESSION}.jsonl`),
    `${JSON.stringify({ type: "session", version: 3, id: SESSION, timestamp: "2026-06-01T10:00:00.000Z" })}\n`,
  );
  const lines = (n: number, word: string) =>
    Array.from({ length: n }, (_, i) => `- ${word} rule ${i}: you must keep this line`).join("\n");
  fs.writeFileSync(path.join(dir, "workspace/AGENTS.md"), lines(1000, "agents").slice(0, 30_000));
  fs.writeFileSync(path.join(dir, "workspace/SOUL.md"), "s".repeat(15_000));
  return dir;
}

function truncation(version: string) {
  const service = createSessionService({ stateDir: install(version), demo: false, reason: "test" });
  const r = service.truncation("main", SESSION, {});
  service.close();
  if (!r.ok) throw new Error(r.error.message);
  const file = (name: string) => {
    const f = r.value.files.find((x) => x.name === name)?.simulation;
    if (!f) throw new Error(`no simulation of ${name}`);
    return f;
  };
  return { dto: r.value, agents: file("AGENTS.md"), soul: file("SOUL.md") };
}

describe("a session without a stored report takes its release's defaults (config meta.lastTouchedVersion)", () => {
  it("2026.5.7: 12,000 / 60,000, the 75/25 cut, AGENTS.md without the policy digest", () => {
    const { dto, agents, soul } = truncation("2026.5.7");
    expect([dto.maxPerFile, dto.maxTotal]).toEqual([12_000, 60_000]);
    expect(soul).toMatchObject({ rawChars: 15_000, truncated: true, trimCap: 12_000 });
    // 75/25 of what the marker leaves, not 70/20 of the cap (8,400 + 2,400)
    expect(soul.headChars / soul.tailChars).toBeCloseTo(3, 1);
    expect(soul.headChars).toBeGreaterThan(8_400);
    expect(agents.digest).toBeNull();
    expect(agents.headChars / agents.tailChars).toBeCloseTo(3, 1);
    const note = dto.notes.join("\n");
    expect(note).toContain("what OpenClaw 2026.5.7 would inject");
    expect(note).toContain("bootstrapMaxChars 12,000 (OpenClaw 2026.5.7 default)");
    expect(note).toContain("decided by config");
    expect(note).toContain(
      "2026.5.7: defaults of 2026.4.20–2026.5.12: 75/25 head/tail cut, no AGENTS.md policy digest",
    );
    expect(note).toContain('truncation warning "once" by default');
  });

  it("2026.4.15: 12,000 / 60,000 but still the 70/20 cut", () => {
    const { dto, soul } = truncation("2026.4.15");
    expect([dto.maxPerFile, dto.maxTotal]).toEqual([12_000, 60_000]);
    expect([soul.headChars, soul.tailChars]).toEqual([8_400, 2_400]);
  });

  it("2026.3.2: 20,000 / 150,000 and 70/20 (SOUL.md fits)", () => {
    const { dto, agents, soul } = truncation("2026.3.2");
    expect([dto.maxPerFile, dto.maxTotal]).toEqual([20_000, 150_000]);
    expect(soul.truncated).toBe(false);
    expect([agents.headChars, agents.tailChars]).toEqual([14_000, 4_000]);
  });

  it("2026.5.28: 12,000 / 60,000 with the AGENTS.md policy digest; 2026.6.5: 20,000 / 60,000", () => {
    const may = truncation("2026.5.28");
    expect([may.dto.maxPerFile, may.dto.maxTotal]).toEqual([12_000, 60_000]);
    expect(may.agents.digest).not.toBeNull();
    expect(may.dto.notes.join("\n")).toContain(
      'AGENTS.md policy digest, truncation warning "always" by default',
    );
    const june = truncation("2026.6.5");
    expect([june.dto.maxPerFile, june.dto.maxTotal]).toEqual([20_000, 60_000]);
    expect(june.soul.truncated).toBe(false);
    expect(june.agents.digest).not.toBeNull();
  });

  it("a beta between two checked releases says its defaults are assumed", () => {
    const { dto } = truncation("2026.5.16-beta.3");
    expect(dto.notes.join("\n")).toContain("assumed (it lies between 2026.5.12 and 2026.5.18, not checked)");
    expect(dto.notes.join("\n")).toContain("Unverified for this exact release.");
  });
});

describe("/context detail's Compactable transcript line per release", () => {
  const entry = {
    sessionId: SESSION,
    systemPromptReport: {
      source: "run",
      generatedAt: 1780000000000,
      bootstrapMaxChars: 20000,
      bootstrapTotalMaxChars: 60000,
      systemPrompt: { chars: 100, projectContextChars: 10, nonProjectContextChars: 90, hash: "h" },
      injectedWorkspaceFiles: [],
      skills: { promptChars: 0, entries: [] },
      tools: { listChars: 0, schemaChars: 0, entries: [] },
    },
  };
  const detail = (appVersion: string | null) =>
    renderContextText({
      mode: "detail",
      family: "2026.7",
      entry,
      transcriptCounts: { messages: 4, real: 2 },
      appVersion,
    });

  it("releases up to 2026.6.5 print none (not 'unavailable'); 2026.6.6 on and unknown releases print it", () => {
    const line = "Compactable transcript: 2 real conversation message(s) / 4 transcript message(s)";
    expect(detail("2026.6.5")).not.toContain("Compactable transcript");
    expect(detail("2026.5.28")).not.toContain("Compactable transcript");
    expect(detail("2026.6.6")).toContain(line);
    expect(detail("2026.7.1")).toContain(line);
    expect(detail(null)).toContain(line);
    // everything else of the reply is the same
    expect(detail("2026.6.5")).toBe(detail("2026.6.6").replace(`\n${line}`, ""));
  });
});
