/**
 * The sandbox's modules form no import cycle (issue #9). The graph is read with the TypeScript
 * compiler's own pre-processor, counting every relative import and re-export, type-only ones too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const SANDBOX = join(ROOT, 'sandbox');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles
      .map((ref) => ref.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => resolve(dirname(file), name))
      .filter((target) => known.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every cycle found by depth-first search, each as the list of files around it. */
function cycles(graph: Map<string, string[]>): string[][] {
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

describe('sandbox module graph', () => {
  const graph = importGraph(sourceFiles(SANDBOX));

  it('is read from the sources (sanity: the app imports its routes)', () => {
    const app = graph.get(join(SANDBOX, 'http/app.ts')) ?? [];
    expect(app.map((f) => relative(SANDBOX, f))).toContain('http/context.ts');
  });

  it('has no import cycle', () => {
    const named = cycles(graph).map((cycle) => cycle.map((f) => relative(SANDBOX, f)).join(' → '));
    expect(named).toEqual([]);
  });
});
