/**
 * Fails when two layers import each other, directly or round a longer loop. A layer is a top-level
 * folder of src/ (a file directly in src/ is its own layer), workflows/ or activities/; the graph
 * counts every relative import between them, type-only ones too. Run by `npm run lint`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..');
const SCANNED = ['src', 'workflows', 'activities'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The layer a path belongs to, or undefined outside the scanned folders. */
function layerOf(path: string): string | undefined {
  const [top, second, third] = relative(ROOT, path).split(sep);
  if (top === 'workflows' || top === 'activities') return top;
  if (top !== 'src' || second === undefined) return undefined;
  return third === undefined ? `src/${second.replace(/\.ts$/, '')}` : `src/${second}`;
}

/** layer → imported layer → one file that makes the edge (the evidence printed with a cycle). */
function layerGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of SCANNED.flatMap((dir) => sourceFiles(join(ROOT, dir)))) {
    const from = layerOf(file)!;
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = layerOf(resolve(dirname(file), fileName));
      if (to !== undefined && to !== from && !edges.has(to)) edges.set(to, `${relative(ROOT, file)} imports ${fileName}`);
    }
  }
  return graph;
}

/** Strongly connected components with more than one layer (Tarjan): each is one or more cycles. */
function cycles(graph: Map<string, Map<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (layer: string): void => {
    index.set(layer, index.size);
    low.set(layer, index.get(layer)!);
    stack.push(layer);
    for (const next of graph.get(layer)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(layer, Math.min(low.get(layer)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(layer, Math.min(low.get(layer)!, index.get(next)!));
      }
    }
    if (low.get(layer) !== index.get(layer)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== layer);
    if (component.length > 1) found.push(component.sort());
  };
  for (const layer of graph.keys()) if (!index.has(layer)) visit(layer);
  return found;
}

/** The shortest way from `start` round to itself inside `component` (breadth-first). */
function cycleFrom(start: string, component: string[], graph: Map<string, Map<string, string>>): string[] {
  const paths = [[start]];
  const reached = new Set([start]);
  for (const path of paths) {
    for (const next of graph.get(path.at(-1)!)!.keys()) {
      if (next === start) return [...path, start];
      if (!component.includes(next) || reached.has(next)) continue;
      reached.add(next);
      paths.push([...path, next]);
    }
  }
  throw new Error(`${start} is in no cycle`);
}

/** One shortest cycle of a component, to show what to cut. */
function shortestCycle(component: string[], graph: Map<string, Map<string, string>>): string[] {
  return component.map((start) => cycleFrom(start, component, graph)).reduce((a, b) => (b.length < a.length ? b : a));
}

const graph = layerGraph();
const found = cycles(graph);
if (found.length === 0) {
  console.log(`check-layers: no import cycle between ${graph.size} layers`);
} else {
  for (const component of found) {
    const cycle = shortestCycle(component, graph);
    console.error(`check-layers: import cycle ${cycle.join(' → ')}${component.length > 2 ? ` (among ${component.join(', ')})` : ''}`);
    for (let i = 1; i < cycle.length; i++) console.error(`  ${graph.get(cycle[i - 1]!)!.get(cycle[i]!)}`);
  }
  process.exitCode = 1;
}
