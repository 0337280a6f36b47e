// Export and sharing (issue 8): the redacted HTML export leaks no session text, the unredacted export cannot
// execute or load anything even with hostile transcript text, the "Copy as issue" Markdown escapes data, and
// the CLI writes the file but never into the state dir.
// Sessions: the bundled demo state dir (real OpenClaw 2026.9.6 SQLite + 2026.7.1 JSONL captures), the real
// fixture state dirs in ../shared/fixtures in place (skipped visibly when absent), and a tiny hostile JSONL
// state dir built in a tmp folder.

import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { esc } from "../../server/export/html.ts";
import { mdText, renderIssueMarkdown } from "../../server/export/issue-markdown.ts";
import { redactCost, redactExportData, redactPrune, redactTruncation } from "../../server/export/redact.ts";
import {
  buildExportHtml,
  buildIssueMarkdown,
  gatherExportData,
  isInside,
} from "../../server/export/write-export.ts";
import { createSessionService, type SessionService } from "../../server/service/session-service.ts";
import { fmtDuration, fmtInt } from "../../shared/format.ts";
import { isObject, type JsonValue } from "../../shared/json.ts";
import { css } from "../../shared/openclaw-colors.ts";
import { hashId, REDACTED } from "../../shared/redact-rules.ts";
import { layoutTreemap } from "../../shared/treemap-layout.ts";
import { groupColors, tileFill } from "../../shared/treemap-style.ts";
import { buildCanaryStateDir, CANARIES, CANARY_AGENT, CANARY_SESSION_ID } from "../e2e/canary-session.ts";
import { runCli } from "../helpers/cli.ts";

import { PRUNE_SCENARIOS } from "../helpers/prune-fixtures.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(here, "../..");
const DEMO = path.join(REPO, "server/demo/state");
const FIXTURES = path.resolve(REPO, "../shared/fixtures");
const SCENARIOS = PRUNE_SCENARIOS;
const GENERATED_AT = "2026-11-30T12:00:00.000Z";
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

// ---------------------------------------------------------------------------------------------------------------
// Hostile session: every text field carries markup, script, link and URL tricks.

const XSS = [
  "</script><script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "<svg onload=alert(2)>",
  "[click](javascript:alert(1))",
  "![pixel](http://evil.example/x.png)",
  "<a href='https://evil.example/steal'>link</a>",
  "<style>body{background:url(http://evil.example/bg)}</style>",
  "`code` **bold** | pipe",
].join(" ");
const EVIL_TOOL = "<b>x</b>";
const EVIL_MODEL = "m`[x](javascript:alert(1))";
const XSS_SESSION_ID = "11111111-2222-4333-8444-555555555555";

function line(o: JsonValue): string {
  return `${JSON.stringify(o)}\n`;
}

/** A JSONL-era (2026.7-style) state dir with one session whose every text is hostile. */
function buildXssStateDir(root: string): string {
  const state = path.join(root, "state");
  const sessions = path.join(state, "agents/main/sessions");
  const workspace = path.join(state, "workspace");
  mkdirSync(sessions, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  const agents = `# Agents ${XSS}\nSecret workspace line: do not leak this text.\n`;
  writeFileSync(path.join(workspace, "AGENTS.md"), agents);
  const t0 = Date.parse("2026-11-30T10:00:00.000Z");
  const iso = (ms: number) => new Date(ms).toISOString();
  const report = {
    source: "run",
    generatedAt: t0 + 2000,
    sessionId: XSS_SESSION_ID,
    sessionKey: "agent:main:main",
    provider: "anthropic",
    model: EVIL_MODEL,
    workspaceDir: `/home/victim/<i>ws</i>/${XSS}`,
    bootstrapMaxChars: 20000,
    bootstrapTotalMaxChars: 60000,
    bootstrapTruncation: { truncatedFiles: 0, nearLimitFiles: 0, totalNearLimit: false },
    sandbox: { mode: "off", sandboxed: false },
    systemPrompt: { chars: 9000, projectContextChars: 600, nonProjectContextChars: 8400 },
    injectedWorkspaceFiles: [
      {
        name: "AGENTS.md",
        path: `/home/victim/<i>ws</i>/${XSS}/AGENTS.md`,
        missing: false,
        rawChars: agents.trimEnd().length,
        injectedChars: agents.trimEnd().length,
        truncated: false,
      },
    ],
    skills: { promptChars: 400, entries: [{ name: `skill ${XSS}`, blockChars: 400 }] },
    tools: {
      listChars: 0,
      schemaChars: 300,
      entries: [
        { name: EVIL_TOOL, summaryChars: 20, schemaChars: 150, propertiesCount: 1 },
        { name: "exec", summaryChars: 20, schemaChars: 150, propertiesCount: 1 },
      ],
    },
    currentTurn: { promptChars: 40, runtimeContextChars: 0, modelOnlyPromptChars: 0 },
  };
  const entry = {
    sessionId: XSS_SESSION_ID,
    updatedAt: t0 + 9000,
    modelProvider: "anthropic",
    model: EVIL_MODEL,
    contextTokens: 100000,
    totalTokens: 5000,
    totalTokensFresh: true,
    systemPromptReport: report,
  };
  writeFileSync(path.join(sessions, "sessions.json"), JSON.stringify({ "agent:main:main": entry }, null, 2));
  const usage = (input: number, read: number, write: number) => ({
    input,
    output: 20,
    cacheRead: read,
    cacheWrite: write,
    totalTokens: input + read + write + 20,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  });
  const rows: JsonValue[] = [
    { type: "session", version: 3, id: XSS_SESSION_ID, timestamp: iso(t0), cwd: "/home/victim/<i>ws</i>" },
    {
      type: "message",
      id: "a0000001",
      parentId: null,
      timestamp: iso(t0 + 1000),
      message: { role: "user", content: `Please look ${XSS}`, timestamp: t0 + 1000 },
    },
    {
      type: "message",
      id: "a0000002",
      parentId: "a0000001",
      timestamp: iso(t0 + 2000),
      message: {
        role: "assistant",
        content: [
          { type: "text", text: `Calling the tool ${XSS}` },
          { type: "toolCall", id: "call_1", name: EVIL_TOOL, arguments: { path: `/etc/${XSS}` } },
        ],
        api: "anthropic-messages",
        provider: "anthropic",
        model: EVIL_MODEL,
        usage: usage(3000, 0, 2000),
        stopReason: "toolUse",
        timestamp: t0 + 2000,
      },
    },
    {
      type: "message",
      id: "a0000003",
      parentId: "a0000002",
      timestamp: iso(t0 + 3000),
      message: {
        role: "toolResult",
        toolCallId: "call_1",
        toolName: EVIL_TOOL,
        content: [{ type: "text", text: `Tool output ${XSS}\n${"filler line of tool output\n".repeat(40)}` }],
        isError: false,
        timestamp: t0 + 3000,
      },
    },
    {
      type: "message",
      id: "a0000004",
      parentId: "a0000003",
      timestamp: iso(t0 + 9000),
      message: {
        role: "assistant",
        content: [{ type: "text", text: `Done ${XSS}` }],
        api: "anthropic-messages",
        provider: "anthropic",
        model: EVIL_MODEL,
        usage: usage(5, 2000, 3000),
        stopReason: "stop",
        timestamp: t0 + 9000,
      },
    },
  ];
  writeFileSync(path.join(sessions, `${XSS_SESSION_ID}.jsonl`), rows.map(line).join(""));
  return state;
}

// ---------------------------------------------------------------------------------------------------------------
// Snippet collection: every text of a session that a redacted export must not contain.

/** Transcript fields holding text (message text, thinking, tool output, tool-call arguments, summaries). */
const CONTENT_KEYS = new Set([
  "content",
  "text",
  "thinking",
  "arguments",
  "input",
  "details",
  "summary",
  "output",
  "command",
  "errorMessage",
]);

function allStrings(v: JsonValue | undefined, into: string[]): void {
  if (typeof v === "string") into.push(v);
  else if (Array.isArray(v)) for (const x of v) allStrings(x, into);
  else if (isObject(v)) for (const x of Object.values(v)) allStrings(x, into);
}

function contentStrings(v: JsonValue | undefined, into: string[]): void {
  if (Array.isArray(v)) for (const x of v) contentStrings(x, into);
  else if (isObject(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (CONTENT_KEYS.has(k)) allStrings(x, into);
      else if (k === "message" || k === "content") contentStrings(x, into);
    }
  }
}

/** Whole strings and their lines, trimmed, ≥ 8 chars. */
function snippetsOf(texts: string[]): Set<string> {
  const out = new Set<string>();
  for (const t of texts) {
    for (const s of [t, ...t.split("\n")]) {
      const x = s.trim();
      if (x.length >= 8) out.add(x);
    }
  }
  return out;
}

interface Collected {
  snippets: Set<string>;
  /** Names the redaction keeps on purpose: tool/skill names, bootstrap basenames, model/provider names. */
  names: Set<string>;
}

function collectSession(
  service: SessionService,
  stateDir: string,
  agentId: string,
  sessionId: string,
): Collected {
  const loaded = service.load(agentId, sessionId);
  if ("error" in loaded) throw new Error(loaded.error.message);
  const s = loaded.value;
  const texts: string[] = [];
  const names = new Set<string>();
  for (const e of s.transcript.entries) {
    contentStrings(e.raw, texts);
    const m = e.raw.message;
    if (isObject(m)) {
      for (const k of ["toolName", "model", "provider"]) {
        const v = m[k];
        if (typeof v === "string") names.add(v);
      }
      const content = m.content;
      if (Array.isArray(content))
        for (const b of content) if (isObject(b) && typeof b.name === "string") names.add(b.name);
    }
  }
  const data = gatherExportData(service, agentId, sessionId);
  if ("error" in data) throw new Error(data.error.message);
  const d = data.value;
  // Paths and ids recorded in the reports.
  texts.push(sessionId, stateDir, d.summary.location);
  if (d.truncation.recorded.workspaceDir) texts.push(d.truncation.recorded.workspaceDir);
  if (d.truncation.workspace.dir) texts.push(d.truncation.workspace.dir);
  for (const f of d.truncation.files) {
    names.add(f.name);
    texts.push(f.path);
    if (f.current.readPath) {
      texts.push(f.current.readPath);
      if (f.current.readable) texts.push(readFileSync(f.current.readPath, "utf8"));
    }
  }
  for (const f of d.report.totals?.files ?? []) texts.push(f.path);
  const spr = d.report.systemPromptReport.report;
  if (spr) {
    const sub: string[] = [];
    allStrings(spr.tools, sub);
    allStrings(spr.skills, sub);
    for (const n of sub) names.add(n);
    if (typeof spr.workspaceDir === "string") texts.push(spr.workspaceDir);
  }
  for (const c of d.cost.calls) {
    if (c.model) names.add(c.model);
    if (c.provider) names.add(c.provider);
  }
  // Workspace files of the state dir.
  const ws = path.join(stateDir, "workspace");
  if (existsSync(ws))
    for (const f of readdirSync(ws))
      if (f.endsWith(".md")) texts.push(readFileSync(path.join(ws, f), "utf8"));
  const snippets = snippetsOf(texts);
  for (const n of names) snippets.delete(n);
  return { snippets, names };
}

// ---------------------------------------------------------------------------------------------------------------

let tmp = "";
let xssState = "";
/** Redacted export of the hostile session: text the renderer prints on its own for any session. */
let boilerplate = "";

beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "clawscope-export-"));
  xssState = buildXssStateDir(tmp);
  const service = createSessionService({ stateDir: xssState, demo: false, reason: "test" });
  const r = buildExportHtml(service, "main", XSS_SESSION_ID, { redact: true, generatedAt: GENERATED_AT });
  if ("error" in r) throw new Error(r.error.message);
  boilerplate = r.value;
  service.close?.();
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

function checkNoLeak(stateDir: string, label: string, maxSessions = 3): void {
  const service = createSessionService({ stateDir, demo: false, reason: "test" });
  try {
    const live = service.listSessions().sessions.filter((s) => s.archived === null);
    expect(live.length, `${label}: live sessions`).toBeGreaterThan(0);
    for (const s of live.slice(0, maxSessions)) {
      const { snippets } = collectSession(service, stateDir, s.agentId, s.sessionId);
      expect(snippets.size, `${label} ${s.sessionId}: snippets collected`).toBeGreaterThan(10);
      const red = buildExportHtml(service, s.agentId, s.sessionId, {
        redact: true,
        generatedAt: GENERATED_AT,
      });
      const raw = buildExportHtml(service, s.agentId, s.sessionId, {
        redact: false,
        generatedAt: GENERATED_AT,
      });
      if ("error" in red || "error" in raw) throw new Error(`${label}: export failed`);
      // The redacted /context (issue 15: paths and free text masked, numbers and names kept) prints lines made of
      // numbers and kept names only; a transcript that quotes an earlier /context reply holds the same lines.
      // Those whole lines are OpenClaw's, not session text; every data string (paths, contents) is still checked.
      const d0 = gatherExportData(service, s.agentId, s.sessionId);
      if ("error" in d0) throw new Error(d0.error.message);
      const t0 = d0.value.report.texts;
      const maskedLines = new Set(
        t0.available && t0.redacted
          ? [t0.redacted.list, t0.redacted.detail].flatMap((t) => t.split("\n").map((l) => l.trim()))
          : [],
      );
      if (t0.available) expect(red.value).toContain(esc("Workspace: [redacted]"));
      // The HTML escapes data (`esc`), so look for the escaped form as well as the raw one.
      const leaks: string[] = [];
      let inRaw = 0;
      for (const snip of snippets) {
        if (boilerplate.includes(snip) || boilerplate.includes(esc(snip))) continue; // renderer's own words
        if (maskedLines.has(snip) && !snip.includes("[redacted]")) continue; // OpenClaw's numbers-and-names line
        if (red.value.includes(snip) || red.value.includes(esc(snip))) leaks.push(snip);
        if (raw.value.includes(esc(snip))) inRaw++;
      }
      expect(leaks, `${label} ${s.sessionId}: session text in the redacted export`).toEqual([]);
      // The check can fail: the unredacted export of the same session does show session text.
      expect(inRaw, `${label} ${s.sessionId}: unredacted export shows session text`).toBeGreaterThan(0);
      expect(red.value).toContain("redacted");
      // Sizes and usage stay: the last call's billed prompt and every bootstrap row's raw size.
      const d = gatherExportData(service, s.agentId, s.sessionId);
      if ("error" in d) throw new Error(d.error.message);
      const lc = d.value.report.lastCall;
      if (lc) expect(red.value).toContain(`${fmtInt(lc.promptTokens)} tokens`);
      for (const f of d.value.truncation.files)
        expect(red.value).toContain(`<td>${esc(f.name)}</td><td>${f.status}`);
      expect(red.value).not.toContain(s.sessionId);
      expect(red.value).toContain(hashId(s.sessionId));
    }
  } finally {
    service.close?.();
  }
}

describe("redacted export leaks no session text", () => {
  it("bundled demo state dir (or the shared j1 capture when the demo is absent)", () => {
    const dir = existsSync(DEMO) ? DEMO : path.join(FIXTURES, "j1-jsonl-cache-ttl-default/state");
    if (!existsSync(dir)) {
      console.warn(`export.test: neither ${DEMO} nor the shared fixtures exist — skipped`);
      return;
    }
    checkNoLeak(dir, "demo", 3);
  });

  const fixturesExist = existsSync(FIXTURES);
  if (!fixturesExist) console.warn(`export.test: ${FIXTURES} absent — fixture state dirs skipped`);
  describe.skipIf(!fixturesExist)("real fixture state dirs (../shared/fixtures, in place)", () => {
    for (const sc of SCENARIOS) {
      it(sc, () => {
        checkNoLeak(path.join(FIXTURES, sc, "state"), sc, 1);
      });
    }
  });

  it("hostile session: none of its text, paths or the hostile tool/model names", () => {
    for (const s of [
      "alert(1)",
      "evil.example",
      "onerror",
      "Secret workspace line",
      "victim",
      "Please look",
      "Tool output",
      "filler line",
      EVIL_TOOL,
      esc(EVIL_TOOL),
      "javascript",
    ]) {
      expect(boilerplate, s).not.toContain(s);
    }
    expect(boilerplate).toContain(REDACTED);
    expect(boilerplate).toContain("AGENTS.md"); // bootstrap basenames stay
    expect(boilerplate).toContain("exec"); // plain tool names stay
  });
});

// ---------------------------------------------------------------------------------------------------------------

/** Numbers, booleans and nulls of a value in walk order (what redaction must leave untouched). */
function scalars(v: unknown, into: unknown[] = []): unknown[] {
  if (v === null || typeof v === "number" || typeof v === "boolean") into.push(v);
  else if (Array.isArray(v)) for (const x of v) scalars(x, into);
  else if (typeof v === "object") for (const x of Object.values(v)) scalars(x, into);
  return into;
}

// ---------------------------------------------------------------------------------------------------------------
// Canary session (issue 15 "Redaction from one rule table"): a distinct planted string in every field that holds
// data — message text, thinking, tool-call arguments, tool output, a compaction summary, file contents, paths,
// the workspace dir, session-key and agent labels, entry / tool-call / session ids. None may reach a redacted
// export or issue text; each does reach the unredacted export (so the check can fail).

describe("redaction from one rule table: planted canaries (issue 15)", () => {
  it("no canary in the redacted export or issue text; every canary in the unredacted export", () => {
    const state = buildCanaryStateDir(tmp);
    const service = createSessionService({ stateDir: state, demo: false, reason: "test" });
    try {
      const agent = CANARY_AGENT;
      const red = buildExportHtml(service, agent, CANARY_SESSION_ID, {
        redact: true,
        generatedAt: GENERATED_AT,
      });
      const raw = buildExportHtml(service, agent, CANARY_SESSION_ID, {
        redact: false,
        generatedAt: GENERATED_AT,
      });
      const md = buildIssueMarkdown(service, agent, CANARY_SESSION_ID, { redact: true });
      if ("error" in red || "error" in raw || "error" in md) throw new Error("export failed");
      const redacted = `${red.value}\n${md.value}`.toLowerCase();
      for (const [field, canary] of Object.entries(CANARIES))
        expect(redacted.includes(canary.toLowerCase()), `${field} leaked`).toBe(false);
      // The unredacted export shows the session's data (the check above can fail): its text, its paths, its ids.
      const full = raw.value.toLowerCase();
      for (const c of [CANARIES.userText, CANARIES.toolOutput, CANARIES.workspaceDir, CANARIES.assistantText])
        expect(full, c).toContain(c.toLowerCase());
      // The redacted export still says which session it is, by the shared hash.
      expect(red.value).toContain(hashId(CANARY_SESSION_ID));
    } finally {
      service.close?.();
    }
  });
});

describe("redaction is an allow-list", () => {
  const dir = path.join(FIXTURES, "s3-aggressive-hardclear/state");
  it.skipIf(!existsSync(dir))(
    "keeps every number, boolean and null; unknown string fields are redacted",
    () => {
      const service = createSessionService({ stateDir: dir, demo: false, reason: "test" });
      const live = service.listSessions().sessions.find((x) => x.archived === null);
      if (!live) throw new Error("no live session in s3");
      const data = gatherExportData(service, live.agentId, live.sessionId);
      service.close?.();
      if ("error" in data) throw new Error(data.error.message);
      const d = data.value;
      const red = redactExportData(d);
      for (const k of ["summary", "map", "truncation", "prune", "cost"] as const)
        expect(scalars(red[k]), k).toEqual(scalars(d[k]));
      // The run report minus the /context texts (dropped on purpose in redacted exports).
      expect(scalars({ ...red.report, texts: null })).toEqual(scalars({ ...d.report, texts: null }));
      // s3 has hard-clear rounds: their enum states survive.
      expect(red.prune.calls.map((c) => c.round)).toEqual(d.prune.calls.map((c) => c.round));
      expect(red.cost.calls.map((c) => c.verdict)).toEqual(d.cost.calls.map((c) => c.verdict));
      // The map's fixed group names (the Tokenizer note's chars/4 groups) are clawscope's labels: kept.
      expect(red.map.tokenizer.estimatedGroups).toEqual(d.map.tokenizer.estimatedGroups);
      // A field nobody allow-listed (a future DTO addition) is redacted, at any depth.
      const future = {
        ...d.cost,
        futureNote: "secret text",
        calls: d.cost.calls.map((c) => ({ ...c, why: "x y z" })),
      };
      const rf = redactCost(future);
      expect(Reflect.get(rf, "futureNote")).toBe(REDACTED);
      expect(rf.calls.every((c) => Reflect.get(c, "why") === REDACTED)).toBe(true);
      // Data-bearing strings: paths → basenames, texts → REDACTED, ids → hashes.
      const rt = redactTruncation(d.truncation);
      expect(rt.files.map((f) => f.path)).toEqual(d.truncation.files.map((f) => path.basename(f.path)));
      expect(rt.recorded.workspaceDir === null || rt.recorded.workspaceDir === REDACTED).toBe(true);
      const seg = rt.files.flatMap((f) => f.simulation?.segments ?? []);
      expect(seg.length).toBeGreaterThan(0);
      expect(seg.every((x) => x.text === REDACTED)).toBe(true);
      const rp = redactPrune(d.prune);
      const ids = Object.keys(d.prune.calls.at(-1)?.toolResults ?? {});
      expect(Object.keys(rp.calls.at(-1)?.toolResults ?? {})).toEqual(ids.map(hashId));
      expect(rp.calls.every((c) => c.gateText === REDACTED)).toBe(true);
    },
  );
});

// ---------------------------------------------------------------------------------------------------------------

/** Every tag the renderer emits; any other tag in the output would be injected markup. */
const ALLOWED_TAGS = new Set(
  "html head meta title style body main header section footer h1 h2 h3 p b i code span div dl dt dd ul li table thead tbody tfoot tr th td figure figcaption svg g rect text line circle details summary pre".split(
    " ",
  ),
);

describe("unredacted export of a hostile session executes and loads nothing", () => {
  let html = "";
  beforeAll(() => {
    const service = createSessionService({ stateDir: xssState, demo: false, reason: "test" });
    const r = buildExportHtml(service, "main", XSS_SESSION_ID, { redact: false, generatedAt: GENERATED_AT });
    service.close?.();
    if ("error" in r) throw new Error(r.error.message);
    html = r.value;
  });

  it("shows the hostile text, escaped", () => {
    expect(html).toContain(esc(EVIL_TOOL));
    expect(html).toContain("&lt;/script&gt;");
    expect(html).toContain(esc("<img src=x onerror=alert(1)>"));
  });

  it("has no script, event handler, javascript: or network URL", () => {
    const lower = html.toLowerCase();
    expect(lower).not.toContain("<script");
    expect(lower).not.toMatch(/<[^>]*\son[a-z]+\s*=/); // no event-handler attribute inside any tag
    expect(lower).not.toContain("onerror=alert");
    expect(lower).not.toContain("javascript:");
    expect(lower).not.toMatch(/https?:\/\//);
    expect(lower).not.toMatch(/\b(src|href|xlink:href|action|formaction)\s*=/);
    // CSS is the renderer's own: the <style> block and style attributes load nothing.
    const css = [
      ...(lower.match(/<style>[\s\S]*?<\/style>/g) ?? []),
      ...[...lower.matchAll(/style="([^"]*)"/g)].map((m) => m[1] ?? ""),
    ].join("\n");
    expect(css.length).toBeGreaterThan(100);
    expect(css).not.toContain("url(");
    expect(css).not.toContain("@import");
  });

  it("uses only the renderer's own tags and parses as one document", () => {
    const tags = new Set(
      [...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) => (m[1] ?? "").toLowerCase()),
    );
    expect([...tags].filter((t) => !ALLOWED_TAGS.has(t))).toEqual([]);
    expect(html.startsWith("<!DOCTYPE html>\n<html")).toBe(true);
    for (const t of ["<html", "</html>", "<head>", "</head>", "<body>", "</body>", "<style>", "</style>"])
      expect(html.split(t).length - 1, t).toBe(1);
    expect(html.trimEnd().endsWith("</html>")).toBe(true);
    // Strict CSP, no script source at all.
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;; img-src data&#58;">`,
    );
  });

  it("every text node and attribute value is escaped: no raw < or > inside text", () => {
    // Between tags only escaped text may appear; a raw `<` would have started a tag (checked above) and a raw `>`
    // in text means unbalanced markup.
    const textRuns = html.replace(/<style>[\s\S]*?<\/style>/, "").split(/<[^>]*>/);
    for (const t of textRuns) expect(t).not.toMatch(/[<>]/);
    for (const m of html.matchAll(/="([^"]*)"/g)) expect(m[1] ?? "").not.toMatch(/[<>'"]/);
  });
});

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`export.test: ${CHROMIUM} absent — the real-browser export check is skipped`);

describe.skipIf(!hasChromium)("unredacted hostile export opened from disk in Chromium", () => {
  it("makes no request but its own file, runs nothing, and shows the text as text", async () => {
    const service = createSessionService({ stateDir: xssState, demo: false, reason: "test" });
    const r = buildExportHtml(service, "main", XSS_SESSION_ID, { redact: false, generatedAt: GENERATED_AT });
    service.close?.();
    if ("error" in r) throw new Error(r.error.message);
    const file = path.join(tmp, "hostile.html");
    writeFileSync(file, r.value);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"],
    });
    try {
      const page = await browser.newPage();
      const requests: string[] = [];
      const dialogs: string[] = [];
      page.on("request", (q) => requests.push(q.url()));
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await page.goto(`file://${file}`, { waitUntil: "load" });
      await page.waitForTimeout(300);
      expect(requests).toEqual([`file://${file}`]);
      expect(dialogs).toEqual([]);
      expect(await page.locator("script, img, iframe, object, embed, a, link, b b").count()).toBe(0);
      const body = (await page.locator("body").textContent()) ?? "";
      expect(body).toContain("</script><script>alert(1)</script>");
      expect(body).toContain(EVIL_TOOL);
      expect(await page.locator("section").count()).toBe(7);
    } finally {
      await browser.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("the export draws the app's map and timeline (shared layout, style and scales)", () => {
  it.skipIf(!existsSync(DEMO))(
    "demo session: every tile where the app's layout puts it, every call mark",
    () => {
      const service = createSessionService({ stateDir: DEMO, demo: false, reason: "test" });
      const sid = "bc255ab3-b341-464a-a811-4d1115e16ed8";
      const data = gatherExportData(service, "main", sid);
      const r = buildExportHtml(service, "main", sid, { redact: false, generatedAt: GENERATED_AT });
      service.close?.();
      if ("error" in data || "error" in r) throw new Error("export failed");
      const { map, prune } = data.value;
      const figure = /<figure class="map">[\s\S]*?<\/figure>/.exec(r.value)?.[0] ?? "";
      const layout = layoutTreemap(map.root, { width: 1280, height: 860, mode: "estTokens" });
      const colors = groupColors(map.groups);
      const num = (n: number) => esc(String(Math.round(n * 100) / 100));
      expect(layout.rects.length).toBeGreaterThan(50);
      expect(figure.split("<rect ").length - 1).toBe(layout.rects.length);
      for (const t of layout.rects)
        expect(figure, t.id).toContain(
          `<rect x="${num(t.x)}" y="${num(t.y)}" width="${num(t.w)}" height="${num(t.h)}" fill="${css(tileFill(t, colors))}"`,
        );
      const timeline = /<figure class="timeline">[\s\S]*?<\/figure>/.exec(r.value)?.[0] ?? "";
      expect(timeline.split("<g><title>#").length - 1).toBe(prune.calls.length);
      expect(timeline).toContain(`>pruning TTL ${esc(fmtDuration(prune.settings.ttlMs))}<`);
      // every expired gap's cache re-write (the cost report's gap cost) in its call's title (issue 15)
      const gaps = prune.marks?.gaps ?? [];
      expect(gaps.length).toBe(data.value.cost.gapCosts.length);
      for (const g of gaps)
        expect(timeline).toContain(esc(`cache expired: re-wrote ${fmtInt(g.rewrittenTokens)} tokens`));
    },
  );
});

describe("Copy as issue Markdown", () => {
  it("escapes Markdown specials in data strings", () => {
    expect(mdText("a`b")).toBe("a\\`b");
    expect(mdText("[x](javascript:alert(1))")).toBe("\\[x\\]\\(javascript\\:alert\\(1\\)\\)");
    expect(mdText("<b>x</b>")).toBe("\\<b\\>x\\</b\\>");
    expect(mdText("a|b\nc")).toBe("a\\|b c");
    expect(mdText("http://evil.example")).toBe("http\\://evil.example");
  });

  it("unredacted: hostile model/tool names are escaped, the numbers are there", () => {
    const service = createSessionService({ stateDir: xssState, demo: false, reason: "test" });
    const r = buildIssueMarkdown(service, "main", XSS_SESSION_ID, { redact: false });
    service.close?.();
    if ("error" in r) throw new Error(r.error.message);
    const md = r.value;
    expect(md).toContain(mdText(EVIL_MODEL));
    expect(md).not.toContain(EVIL_MODEL);
    expect(md).not.toMatch(/(?<!\\)\]\(/); // no link syntax
    expect(md).not.toMatch(/(?<!\\)</); // no raw HTML
    expect(md).not.toMatch(/https?:\/\//);
    // Last call billed prompt: 5 + 2,000 + 3,000 (the fixture's usage) and the window.
    expect(md).toContain("5,005 tokens (input 5, cache read 2,000, cache write 3,000; output 20)");
    expect(md).toContain("100,000 tokens");
    expect(md).toContain("| mode | cache-ttl |".slice(0, 8));
  });

  it("redacted (the default): no hostile text at all, same numbers", () => {
    const service = createSessionService({ stateDir: xssState, demo: false, reason: "test" });
    const data = gatherExportData(service, "main", XSS_SESSION_ID);
    service.close?.();
    if ("error" in data) throw new Error(data.error.message);
    const md = renderIssueMarkdown({ ...redactExportData(data.value), redacted: true });
    expect(md).not.toContain("javascript");
    expect(md).not.toContain("alert");
    expect(md).not.toContain("victim");
    expect(md).toContain("5,005 tokens");
    expect(md).toContain("Redacted export");
  });

  it("real capture (j1, 2026.7.1): version family, settings and cut files", () => {
    const dir = path.join(FIXTURES, "j1-jsonl-cache-ttl-default/state");
    if (!existsSync(dir)) {
      console.warn(`export.test: ${dir} absent — skipped`);
      return;
    }
    const service = createSessionService({ stateDir: dir, demo: false, reason: "test" });
    const data = gatherExportData(service, "main", "4b707e2a-5983-497f-a2d7-d3ea6b3a5e84");
    service.close?.();
    if ("error" in data) throw new Error(data.error.message);
    const md = renderIssueMarkdown({ ...redactExportData(data.value), redacted: true });
    const d = data.value;
    expect(md).toContain(`rule family ${d.report.version.family}`);
    expect(md).toContain(`| ttl | ${d.prune.settings.ttlRaw ?? "default"}`);
    expect(md).toContain(`bootstrapMaxChars ${d.truncation.maxPerFile.toLocaleString("en-US")}`);
    expect(md).toContain(`${(d.report.lastCall?.promptTokens ?? -1).toLocaleString("en-US")} tokens`);
    // clawscope's estimate of the last call's prompt + untracked = the billed prompt.
    const m =
      /clawscope tracked estimate \| ~([\d,]+) tokens \(chars\/4 of what was sent\), untracked ([\d,]+)/.exec(
        md,
      );
    expect(m).not.toBeNull();
    const n = (x: string | undefined) => Number((x ?? "").replaceAll(",", ""));
    expect(n(m?.[1]) + n(m?.[2])).toBe(d.report.lastCall?.promptTokens);
    for (const f of d.truncation.files.filter((x) => x.missing || x.truncated))
      expect(md).toContain(`| ${f.name} | ${f.status} |`);
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("CLI export", () => {
  const cli = (args: string[]) => runCli(args);

  it("writes a redacted self-contained file by default", () => {
    const out = path.join(tmp, "r.html");
    const r = cli(["export", "--state-dir", xssState, "--session", XSS_SESSION_ID, "--out", out]);
    expect(r.status, r.stderr).toBe(0);
    const html = readFileSync(out, "utf8");
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html).toContain("redacted");
    expect(html).not.toContain("alert");
    expect(html).not.toContain(XSS_SESSION_ID);
  });

  it("--no-redact keeps the (escaped) text", () => {
    const out = path.join(tmp, "raw.html");
    const r = cli([
      "export",
      "--state-dir",
      xssState,
      "--session",
      XSS_SESSION_ID,
      "--out",
      out,
      "--no-redact",
    ]);
    expect(r.status, r.stderr).toBe(0);
    const html = readFileSync(out, "utf8");
    expect(html).toContain("&lt;/script&gt;");
    expect(html.toLowerCase()).not.toContain("<script");
  });

  it("refuses to write inside the state dir", () => {
    for (const out of [path.join(xssState, "r.html"), path.join(xssState, "agents/main/sessions/x.html")]) {
      const r = cli(["export", "--state-dir", xssState, "--session", XSS_SESSION_ID, "--out", out]);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain("inside the OpenClaw state dir");
      expect(existsSync(out)).toBe(false);
    }
    expect(isInside(path.join(xssState, "..", "state", "a.html"), xssState)).toBe(true);
    expect(isInside(path.join(tmp, "elsewhere.html"), xssState)).toBe(false);
  });
});
