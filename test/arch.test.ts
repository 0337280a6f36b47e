// Architecture rules (design-notes/architecture-review-2026-12.md §4.5), checked on the real source tree:
// import directions between the layers, one reader of the environment, no import cycle, each OpenClaw sentinel
// literal in one production file, no production file over 400 lines, no `as` cast. The walker (test/arch/scan.ts)
// reads the sources with the TypeScript parser, so comments never count and `import type` is told apart from a
// value import. The same checks also run on tiny synthetic trees at the bottom, so each rule is shown to fail.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  castFiles,
  edgeKey,
  envReaders,
  type ImportRule,
  importCycles,
  isBuiltin,
  isReact,
  layerViolations,
  literalHomes,
  loadClosure,
  longFiles,
  scanTree,
  type Tree,
  under,
  underAny,
} from "./arch/scan.ts";

// ---------------------------------------------------------------------------------------------------------------
// TEMPORARY allow-lists: what today's code still breaks. Whoever splits or fixes a file removes its entry in the
// same commit; an entry that is no longer needed FAILS the test, so the lists only shrink. End state: all empty.
// ---------------------------------------------------------------------------------------------------------------

/** Production files over MAX_LINES (the review's §1.2 list). */
const TEMP_LONG_FILES: readonly string[] = [];

/** Imports that break a layering rule, as [importing file, imported file]. */
const TEMP_LAYER_BREAKS: readonly (readonly [string, string])[] = [];

/** Edges left out of the cycle check, as [importing file, imported file]. */
const TEMP_CYCLE_EDGES: readonly (readonly [string, string])[] = [];

/** Production files that read `process.env` or the home dir besides ENV_READER. */
const TEMP_ENV_READERS: readonly string[] = [];

/** Sentinel literals that still live in more than one production file: literal → today's files. */
const TEMP_LITERAL_COPIES: Readonly<Record<string, readonly string[]>> = {};

/** Files with an `as` cast (other than `as const`) or a `<T>x` assertion. */
const TEMP_CASTS: readonly string[] = [];

// ---------------------------------------------------------------------------------------------------------------
// The rules.
// ---------------------------------------------------------------------------------------------------------------

const PRODUCTION_DIRS = ["server", "shared", "web"];
/** Not code: OpenClaw state dirs shipped as data. */
const NOT_SCANNED = ["server/demo/state/"];
const MAX_LINES = 400;
/** Data tables allowed over MAX_LINES (review §4.4 acceptance). */
const DATA_TABLES = ["shared/pricing.ts"];
/** The one module that reads `process.env` and the home dir (review §4.2 `shell/config.ts`). */
const ENV_READER = "server/shell/config.ts";
/** OpenClaw's fixed texts: each is one rule's output and must have one home (review §4.5). */
const SENTINELS = [
  "Context treemap unavailable.",
  "Unknown /context mode.",
  "[Old tool result content cleared]",
  "The conversation history before this point was compacted",
  "HEARTBEAT_OK",
];

/** The one rule the I/O and decode layers may use: which stored entries are transcript-only (transcript.md §8). */
const TRANSCRIPT_ONLY = "server/openclaw/transcript-only.ts";

/** The service, HTTP and the shell: reports import none of it. */
const SHELL_AND_SERVICE = ["server/main.ts", "server/service", "server/http", "server/shell", "server/cli"];

/** The process shell: argv, environment, wiring, serving. Entered from bin.mjs; nothing below imports it. */
const SHELL = ["server/bin.mjs", "server/main.ts", "server/cli", "server/shell"];

/**
 * What `clawscope --help` (and a usage error) may load: the CLI's surface, no package but Node's own. Each
 * command imports the service, the server, the export or the bench when it runs.
 */
const CLI_ENTRY = "server/main.ts";
const CLI_SURFACE = [
  "server/main.ts",
  "server/cli",
  "server/shell/config.ts",
  "server/sources/user-path.ts",
  "server/package-root.ts",
  "shared",
];

const RULES: readonly ImportRule[] = [
  {
    name: "web/ imports from server/ only `import type { AppType }`, in web/api/client.ts",
    applies: (f) => under(f, "web"),
    judge: (imp, f) => {
      if (imp.to === null || !under(imp.to, "server")) return null;
      const ok = f === "web/api/client.ts" && imp.typeOnly && imp.names.join(",") === "AppType";
      return ok ? null : "the browser computes nothing the server owns (only the route types cross)";
    },
  },
  {
    name: "web/ imports no Node builtin",
    applies: (f) => under(f, "web"),
    judge: (imp) => (isBuiltin(imp.spec) ? "runs in the browser" : null),
  },
  {
    name: "server/ never imports web/ nor React",
    applies: (f) => under(f, "server"),
    judge: (imp) =>
      (imp.to !== null && under(imp.to, "web")) || isReact(imp.spec)
        ? "bench and export use shared/, not the SPA"
        : null,
  },
  {
    name: "only the shell imports the shell (server/main.ts, cli/, shell/)",
    applies: (f) => !underAny(f, SHELL),
    judge: (imp) =>
      imp.to !== null && underAny(imp.to, SHELL)
        ? "lower layers take what they need as parameters; they never reach up for argv or the runtime"
        : null,
  },
  {
    name: "shared/ imports only shared/ and no Node builtin",
    applies: (f) => under(f, "shared"),
    judge: (imp) =>
      (imp.to !== null && !under(imp.to, "shared")) || isBuiltin(imp.spec)
        ? "shared code runs in the browser and the server"
        : null,
  },
  {
    name: "server/model/ imports only server/model/, shared/ and openclaw/transcript-only.ts",
    applies: (f) => under(f, "server/model"),
    judge: (imp) =>
      (imp.to !== null && !underAny(imp.to, ["server/model", "shared", TRANSCRIPT_ONLY])) ||
      isBuiltin(imp.spec)
        ? "the model decodes; it knows no I/O, no report and no OpenClaw policy but which entries the model sees"
        : null,
  },
  {
    name: "server/openclaw/ imports only server/model/, server/openclaw/, shared/ and no Node builtin",
    applies: (f) => under(f, "server/openclaw"),
    judge: (imp) =>
      (imp.to !== null && !underAny(imp.to, ["server/model", "server/openclaw", "shared"])) ||
      isBuiltin(imp.spec)
        ? "rules are pure"
        : null,
  },
  {
    name: "server/reports/ never imports sources/, the service, HTTP or the shell",
    applies: (f) => under(f, "server/reports"),
    judge: (imp) =>
      imp.to !== null && underAny(imp.to, ["server/sources", ...SHELL_AND_SERVICE])
        ? "reports are pure"
        : null,
  },
  {
    name: "server/sources/ never imports server/openclaw/ except openclaw/transcript-only.ts",
    applies: (f) => under(f, "server/sources"),
    judge: (imp) =>
      imp.to !== null && under(imp.to, "server/openclaw") && imp.to !== TRANSCRIPT_ONLY
        ? "I/O knows no policy: the caller hands rules' results in"
        : null,
  },
];

// ---------------------------------------------------------------------------------------------------------------
// The real tree.
// ---------------------------------------------------------------------------------------------------------------

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tree = scanTree(REPO, PRODUCTION_DIRS, NOT_SCANNED);
const pairKey = ([a, b]: readonly [string, string]) => edgeKey(a, b);

describe("architecture (review §4.5)", () => {
  it("scans the production tree", () => {
    expect(tree.size).toBeGreaterThan(100);
    expect(tree.has("server/bin.mjs")).toBe(true);
  });

  it("imports go one way: web → shared ← server; rules and the model are pure; reports compose", () => {
    const found = layerViolations(tree, RULES);
    const allowed = new Set(TEMP_LAYER_BREAKS.map(pairKey));
    const broken = found.filter((v) => !allowed.has(edgeKey(v.file, v.to)));
    expect(broken.map((v) => `${v.file}:${v.line} imports ${v.to} — ${v.rule} (${v.why})`)).toEqual([]);
    const seen = new Set(found.map((v) => edgeKey(v.file, v.to)));
    const stale = TEMP_LAYER_BREAKS.filter((p) => !seen.has(pairKey(p)));
    expect(stale.map(pairKey), "fixed: remove from TEMP_LAYER_BREAKS").toEqual([]);
  });

  it("has no import cycle (type-only and dynamic imports count)", () => {
    expect(importCycles(tree, TEMP_CYCLE_EDGES).map((c) => c.join(" → "))).toEqual([]);
    const edges = new Set(
      [...tree].flatMap(([f, facts]) => facts.imports.map((i) => edgeKey(f, i.to ?? i.spec))),
    );
    const gone = TEMP_CYCLE_EDGES.filter((p) => !edges.has(pairKey(p)));
    expect(gone.map(pairKey), "edge gone: remove from TEMP_CYCLE_EDGES").toEqual([]);
    // An ignored edge that no longer closes a loop is no longer needed.
    const unneeded = TEMP_CYCLE_EDGES.filter(
      (p) =>
        edges.has(pairKey(p)) &&
        importCycles(
          tree,
          TEMP_CYCLE_EDGES.filter((q) => q !== p),
        ).length === 0,
    );
    expect(unneeded.map(pairKey), "no longer part of a cycle: remove from TEMP_CYCLE_EDGES").toEqual([]);
  });

  it("`clawscope --help` loads the CLI surface only (commands import the rest when they run)", () => {
    const { files, packages } = loadClosure(tree, CLI_ENTRY);
    expect(files.filter((f) => !underAny(f, CLI_SURFACE))).toEqual([]);
    expect(packages.filter((p) => !isBuiltin(p))).toEqual([]);
  });

  it(`reads process.env and the home dir only in ${ENV_READER}`, () => {
    const readers = envReaders(tree).filter((f) => f !== ENV_READER);
    expect(readers.filter((f) => !TEMP_ENV_READERS.includes(f))).toEqual([]);
    expect(
      TEMP_ENV_READERS.filter((f) => !readers.includes(f)),
      "remove from TEMP_ENV_READERS",
    ).toEqual([]);
  });

  it.each(SENTINELS)("OpenClaw's %j occurs in exactly one production file", (literal) => {
    const homes = literalHomes(tree, literal);
    const allowed = TEMP_LITERAL_COPIES[literal];
    if (allowed) {
      expect(homes.filter((f) => !allowed.includes(f))).toEqual([]);
      expect(
        homes.length,
        `one home left: remove ${JSON.stringify(literal)} from TEMP_LITERAL_COPIES`,
      ).toBeGreaterThan(1);
    } else {
      expect(homes).toHaveLength(1);
    }
  });

  it(`has no production file over ${MAX_LINES} lines (data tables excepted by name)`, () => {
    const long = longFiles(tree, MAX_LINES).filter((f) => !DATA_TABLES.includes(f));
    expect(
      long.filter((f) => !TEMP_LONG_FILES.includes(f)).map((f) => `${f}: ${tree.get(f)?.lines}`),
    ).toEqual([]);
    expect(
      TEMP_LONG_FILES.filter((f) => !long.includes(f)),
      "split: remove from TEMP_LONG_FILES",
    ).toEqual([]);
  });

  it("has no `as` cast outside `as const`", () => {
    const files = castFiles(tree);
    const located = files
      .filter((f) => !TEMP_CASTS.includes(f))
      .map((f) => `${f}:${tree.get(f)?.casts.join(",")}`);
    expect(located).toEqual([]);
    expect(
      TEMP_CASTS.filter((f) => !files.includes(f)),
      "remove from TEMP_CASTS",
    ).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Each rule fails when broken: the same walker and checks on tiny synthetic trees.
// ---------------------------------------------------------------------------------------------------------------

describe("the architecture checks themselves", () => {
  const roots: string[] = [];
  afterAll(() => {
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });
  const synthetic = (files: Record<string, string>): Tree => {
    const root = mkdtempSync(path.join(tmpdir(), "clawscope-arch-"));
    roots.push(root);
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(path.join(root, path.dirname(rel)), { recursive: true });
      writeFileSync(path.join(root, rel), text);
    }
    return scanTree(
      root,
      PRODUCTION_DIRS.filter((d) => Object.keys(files).some((f) => under(f, d))),
    );
  };

  it("finds a cycle, through type-only and dynamic imports too, and skips an ignored edge", () => {
    const t = synthetic({
      "server/a.ts": 'import { b } from "./b.ts";\nexport const a = b;\n',
      "server/b.ts": 'import type { C } from "./c/c.ts";\nexport const b: C = 1;\n',
      "server/c/c.ts": 'export type C = number;\nexport const load = () => import("../a.ts");\n',
      "server/d.ts": 'import { a } from "./a.ts";\nexport const d = a;\n',
    });
    expect(importCycles(t)).toEqual([["server/a.ts", "server/b.ts", "server/c/c.ts", "server/a.ts"]]);
    expect(importCycles(t, [["server/c/c.ts", "server/a.ts"]])).toEqual([]);
  });

  it("finds a forbidden import and tells `import type { AppType }` from a value import", () => {
    const t = synthetic({
      "server/app.ts": "export type AppType = { x: 1 };\nexport const value = 1;\n",
      "server/openclaw/rule.ts":
        'import { readFileSync } from "node:fs";\nimport { q } from "../sources/q.ts";\n',
      "server/sources/q.ts": 'export const q = 1;\nimport { r } from "../openclaw/rule.ts";\n',
      "server/reports/r.ts": 'import { q } from "../sources/q.ts";\n',
      "server/shell/runtime.ts": "export interface Runtime { a: 1 }\n",
      "server/export/w.ts": 'import type { Runtime } from "../shell/runtime.ts";\n',
      "shared/s.ts": 'import { createHash } from "node:crypto";\n',
      "web/api/client.ts": 'import type { AppType } from "../../server/app.ts";\n',
      "web/views/v.tsx": 'import { value } from "../../server/app.ts";\n',
    });
    const found = layerViolations(t, RULES).map((v) => `${v.file} → ${v.to}`);
    expect(found).toEqual([
      "server/export/w.ts → server/shell/runtime.ts",
      "server/openclaw/rule.ts → node:fs",
      "server/openclaw/rule.ts → server/sources/q.ts",
      "server/reports/r.ts → server/sources/q.ts",
      "server/sources/q.ts → server/openclaw/rule.ts",
      "shared/s.ts → node:crypto",
      "web/views/v.tsx → server/app.ts",
    ]);
  });

  it("follows value imports only when it lists what loading a module loads", () => {
    const t = synthetic({
      "server/main.ts":
        'import { a } from "./a.ts";\nimport type { T } from "./heavy.ts";\nexport const run = () => import("./heavy.ts");\n',
      "server/a.ts":
        'import { parseArgs } from "node:util";\nimport Database from "better-sqlite3";\nexport const a = 1;\n',
      "server/heavy.ts": 'import { zstd } from "fzstd";\nexport type T = 1;\n',
    });
    expect(loadClosure(t, "server/main.ts")).toEqual({
      files: ["server/a.ts", "server/main.ts"],
      packages: ["better-sqlite3", "node:util"],
    });
  });

  it("finds every kind of environment read, long files, casts and a literal's homes", () => {
    const t = synthetic({
      "server/a.ts": 'export const port = process.env.PORT;\nconst x = "HEARTBEAT_OK";\n',
      "server/b.ts": 'import { homedir } from "node:os";\n// process.env in a comment does not count\n',
      "server/c.ts":
        'import os from "node:os";\nexport const h = os.homedir();\nexport const e = process["env"];\n',
      "server/d.ts": `${"// x\n".repeat(MAX_LINES + 1)}export const y = 1 as unknown as string;\n`,
      "server/e.ts":
        'export const z = [1] as const;\n// "HEARTBEAT_OK" in a comment is no copy\nexport const h = (e: { homedir: string }) => e.homedir;\n',
      "web/f.tsx": "export const F = () => <p>HEARTBEAT_OK</p>;\n",
    });
    expect(envReaders(t)).toEqual(["server/a.ts", "server/b.ts", "server/c.ts"]);
    expect(longFiles(t, MAX_LINES)).toEqual(["server/d.ts"]);
    expect(castFiles(t)).toEqual(["server/d.ts"]);
    expect(literalHomes(t, "HEARTBEAT_OK")).toEqual(["server/a.ts", "web/f.tsx"]);
  });
});
