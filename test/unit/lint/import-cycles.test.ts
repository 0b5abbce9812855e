/**
 * No module of the app takes part in an import cycle (issues #9 and #17): the core, the hosts, the
 * renderer, shared/ and the sandbox, read as one graph over the whole tree with the TypeScript
 * compiler's parser: every relative import, re-export and dynamic import that is loaded at run time.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const FOLDERS = ['electron', 'shared', 'renderer', 'sandbox'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The relative modules a file loads when it runs: imports and re-exports, dynamic imports too, but
 * not type-only ones (`import type`, or every name marked `type`), which vanish when compiled — the
 * zustand slices and their store name each other's types, as that pattern means to.
 */
function loadedModules(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            bindings !== undefined &&
            ts.isNamedImports(bindings) &&
            bindings.elements.length > 0 &&
            bindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      if (!node.isTypeOnly) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

export function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = loadedModules(file)
      .filter((name) => name.startsWith('.'))
      .map((name) => resolve(dirname(file), name))
      .filter((target) => known.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every cycle found by depth-first search, each as the list of files around it. */
export function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'visiting');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'visiting') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe("the app's module graph", () => {
  const files = FOLDERS.map((folder) => join(ROOT, folder))
    .filter((dir) => existsSync(dir))
    .flatMap(sourceFiles);
  const graph = importGraph(files);

  it('is read from the sources (sanity: each folder has edges we know of)', () => {
    const edges = (file: string) => (graph.get(join(ROOT, file)) ?? []).map((f) => relative(ROOT, f));
    expect(edges('sandbox/http/app.ts')).toContain('sandbox/http/context.ts');
    expect(edges('renderer/main.tsx').length).toBeGreaterThan(0);
    expect(edges('electron/browser-host.ts').length).toBeGreaterThan(0);
  });

  it('finds a cycle when there is one (the check itself)', () => {
    const a = '/a.ts';
    const b = '/b.ts';
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual([[a, b, a]]);
  });

  it('has no import cycle', () => {
    const named = cycles(graph).map((cycle) => cycle.map((f) => relative(ROOT, f)).join(' → '));
    expect(named).toEqual([]);
  });
});
