// The import-graph walker behind test/arch.test.ts: one pass of the TypeScript parser per file (typescript is a
// dev dependency already), so comments never count, `import type` is told apart from a value import, and a
// dynamic `import()` is an edge too. The checks are pure functions over the scanned tree, so the test runs them
// on the real sources and on tiny synthetic trees alike.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import ts from "typescript";

export const under = (file: string, dir: string): boolean =>
  file.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
export const underAny = (file: string, dirs: readonly string[]): boolean =>
  dirs.some((d) => (/\.[a-z]+$/.test(d) ? file === d : under(file, d)));
export const isBuiltin = (spec: string): boolean =>
  spec.startsWith("node:") || builtinModules.includes(spec.split("/")[0] ?? spec);
export const isReact = (spec: string): boolean =>
  spec === "react" || spec.startsWith("react/") || spec === "react-dom";

export interface ImportRule {
  name: string;
  /** Files the rule applies to. */
  applies: (file: string) => boolean;
  /** Why this import breaks the rule, or null when it is fine. */
  judge: (imp: ImportFact, file: string) => string | null;
}

// ---------------------------------------------------------------------------------------------------------------
// The walker: one pass of the TypeScript parser per file.
// ---------------------------------------------------------------------------------------------------------------

export interface ImportFact {
  /** The specifier as written. */
  spec: string;
  /** Repo-relative path of the imported file; null for a package or builtin. */
  to: string | null;
  /** `import type`, `export type … from`, every specifier `type`, or an `import("…")` type node. */
  typeOnly: boolean;
  /** An `import("…")` call: loaded when the code runs, not when the importing module loads. */
  dynamic: boolean;
  /** Imported names (`default`, `*` for a namespace); empty for a side-effect or dynamic import. */
  names: string[];
  line: number;
}

export interface FileFacts {
  /** Newline count, as `wc -l` prints it. */
  lines: number;
  imports: ImportFact[];
  /** Lines that read `process.env` / `os.homedir()`. */
  envReads: number[];
  /** String, template, regex and JSX text literals. */
  literals: string[];
  /** Lines with an `as` cast other than `as const`, or a `<T>x` assertion. */
  casts: number[];
}

export type Tree = Map<string, FileFacts>;

const SOURCE_EXT = /\.(ts|tsx|mts|mjs|js)$/;

function listSources(root: string, dir: string, skip: readonly string[], out: string[]): void {
  const abs = path.join(root, dir);
  for (const name of readdirSync(abs).sort()) {
    const rel = `${dir}/${name}`;
    if (name === "node_modules" || skip.some((n) => `${rel}/`.startsWith(n))) continue;
    if (statSync(path.join(root, rel)).isDirectory()) listSources(root, rel, skip, out);
    else if (SOURCE_EXT.test(name) && !name.endsWith(".d.ts")) out.push(rel);
  }
}

function resolveImport(root: string, from: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    try {
      if (statSync(path.join(root, candidate)).isFile()) return candidate;
    } catch {
      // try the next candidate
    }
  }
  return base; // unresolved: still an edge (tsc reports the missing file)
}

function importNames(clause: ts.ImportClause | undefined): { names: string[]; allTypes: boolean } {
  if (!clause) return { names: [], allTypes: false };
  const names: string[] = [];
  let allTypes = true;
  if (clause.name) {
    names.push("default");
    allTypes = false;
  }
  const b = clause.namedBindings;
  if (b && ts.isNamespaceImport(b)) {
    names.push("*");
    allTypes = false;
  } else if (b) {
    for (const el of b.elements) {
      names.push((el.propertyName ?? el.name).text);
      if (!el.isTypeOnly) allTypes = false;
    }
  }
  return { names, allTypes: allTypes && names.length > 0 };
}

function isProcessEnv(node: ts.Node): boolean {
  const isProcess = (e: ts.Expression) =>
    (ts.isIdentifier(e) && e.text === "process") ||
    (ts.isPropertyAccessExpression(e) && e.name.text === "process");
  if (ts.isPropertyAccessExpression(node)) return node.name.text === "env" && isProcess(node.expression);
  if (ts.isElementAccessExpression(node))
    return (
      ts.isStringLiteral(node.argumentExpression) &&
      node.argumentExpression.text === "env" &&
      isProcess(node.expression)
    );
  return false;
}

export function scanFile(root: string, file: string): FileFacts {
  const text = readFileSync(path.join(root, file), "utf8");
  const kind = file.endsWith(".tsx")
    ? ts.ScriptKind.TSX
    : file.endsWith(".ts")
      ? ts.ScriptKind.TS
      : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const facts: FileFacts = {
    lines: text.split("\n").length - 1,
    imports: [],
    envReads: [],
    literals: [],
    casts: [],
  };
  const lineOf = (n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const addImport = (spec: string, node: ts.Node, typeOnly: boolean, names: string[], dynamic = false) => {
    const to = resolveImport(root, file, spec);
    facts.imports.push({ spec, to, typeOnly, dynamic, names, line: lineOf(node) });
  };

  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const spec = node.moduleSpecifier.text;
      const { names, allTypes } = importNames(node.importClause);
      addImport(spec, node, node.importClause?.isTypeOnly === true || allTypes, names);
      if ((spec === "node:os" || spec === "os") && names.includes("homedir"))
        facts.envReads.push(lineOf(node));
      if ((spec === "node:process" || spec === "process") && names.includes("env"))
        facts.envReads.push(lineOf(node));
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const els = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : [];
      const typeOnly = node.isTypeOnly || (els.length > 0 && els.every((e) => e.isTypeOnly));
      addImport(
        node.moduleSpecifier.text,
        node,
        typeOnly,
        els.map((e) => (e.propertyName ?? e.name).text),
      );
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      addImport(node.arguments[0].text, node, false, [], true);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      addImport(node.argument.literal.text, node, true, node.qualifier ? [node.qualifier.getText(sf)] : []);
    } else if (isProcessEnv(node)) {
      facts.envReads.push(lineOf(node));
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === "homedir"
    ) {
      facts.envReads.push(lineOf(node));
    } else if (ts.isAsExpression(node)) {
      const t = node.type;
      const asConst = ts.isTypeReferenceNode(t) && t.typeName.getText(sf) === "const";
      if (!asConst) facts.casts.push(lineOf(node));
    } else if (ts.isTypeAssertionExpression(node)) {
      facts.casts.push(lineOf(node));
    }
    if (
      ts.isStringLiteralLike(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isJsxText(node)
    ) {
      facts.literals.push(node.text);
    } else if (ts.isRegularExpressionLiteral(node)) {
      facts.literals.push(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return facts;
}

export function scanTree(root: string, dirs: readonly string[], skip: readonly string[] = []): Tree {
  const files: string[] = [];
  for (const d of dirs) listSources(root, d, skip, files);
  return new Map(files.map((f) => [f, scanFile(root, f)]));
}

// ---------------------------------------------------------------------------------------------------------------
// Checks over a scanned tree (pure; the synthetic tests below call the same functions).
// ---------------------------------------------------------------------------------------------------------------

export interface Violation {
  rule: string;
  file: string;
  line: number;
  to: string;
  why: string;
}

export function layerViolations(tree: Tree, rules: readonly ImportRule[]): Violation[] {
  const out: Violation[] = [];
  for (const [file, facts] of tree) {
    for (const rule of rules) {
      if (!rule.applies(file)) continue;
      for (const imp of facts.imports) {
        const why = rule.judge(imp, file);
        if (why) out.push({ rule: rule.name, file, line: imp.line, to: imp.to ?? imp.spec, why });
      }
    }
  }
  return out;
}

export const edgeKey = (from: string, to: string) => `${from} → ${to}`;

/** Every import cycle (one concrete loop per strongly connected component), ignoring the given edges. */
export function importCycles(tree: Tree, ignored: readonly (readonly [string, string])[] = []): string[][] {
  const skip = new Set(ignored.map(([a, b]) => edgeKey(a, b)));
  const next = new Map<string, string[]>();
  for (const [file, facts] of tree) {
    const targets = facts.imports.flatMap((i) =>
      i.to !== null && tree.has(i.to) && !skip.has(edgeKey(file, i.to)) ? [i.to] : [],
    );
    next.set(file, [...new Set(targets)].sort());
  }
  // Tarjan's strongly connected components, iterative (no recursion limit on a deep chain).
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1];
      if (!top) break;
      const succ = next.get(top.node) ?? [];
      const w = succ[top.i++];
      if (w !== undefined) {
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push({ node: w, i: 0 });
        } else if (onStack.has(w)) {
          low.set(top.node, Math.min(low.get(top.node) ?? 0, index.get(w) ?? 0));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(top.node) ?? 0));
      if (low.get(top.node) === index.get(top.node)) {
        const comp: string[] = [];
        for (;;) {
          const v = stack.pop();
          if (v === undefined) break;
          onStack.delete(v);
          comp.push(v);
          if (v === top.node) break;
        }
        const selfLoop = comp.length === 1 && (next.get(top.node) ?? []).includes(top.node);
        if (comp.length > 1 || selfLoop) components.push(comp.sort());
      }
    }
  }
  // One readable loop per component: breadth-first from its first file back to itself, inside the component.
  return components.map((comp) => {
    const inComp = new Set(comp);
    const first = comp[0] ?? "";
    const prev = new Map<string, string>();
    const queue = [first];
    while (queue.length > 0) {
      const v = queue.shift() ?? "";
      for (const w of next.get(v) ?? []) {
        if (!inComp.has(w) || prev.has(w)) continue;
        prev.set(w, v);
        if (w === first) queue.length = 0;
        else queue.push(w);
      }
    }
    const back: string[] = [];
    for (let v = prev.get(first); v !== undefined && v !== first; v = prev.get(v)) back.push(v);
    return [first, ...back.reverse(), first];
  });
}

/**
 * What loading `entry` loads: the closure over value imports (type-only imports are erased; a dynamic import
 * runs later). Internal files and the packages they import, sorted.
 */
export function loadClosure(tree: Tree, entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (files.has(file)) continue;
    files.add(file);
    for (const imp of tree.get(file)?.imports ?? []) {
      if (imp.typeOnly || imp.dynamic) continue;
      if (imp.to === null) packages.add(imp.spec);
      else queue.push(imp.to);
    }
  }
  return { files: [...files].sort(), packages: [...packages].sort() };
}

export function envReaders(tree: Tree): string[] {
  return [...tree].flatMap(([file, f]) => (f.envReads.length > 0 ? [file] : []));
}

export function literalHomes(tree: Tree, literal: string): string[] {
  return [...tree].flatMap(([file, f]) => (f.literals.some((l) => l.includes(literal)) ? [file] : []));
}

export function longFiles(tree: Tree, max: number): string[] {
  return [...tree].flatMap(([file, f]) => (f.lines > max ? [file] : []));
}

export function castFiles(tree: Tree): string[] {
  return [...tree].flatMap(([file, f]) => (f.casts.length > 0 ? [file] : []));
}
