// Reads the repository's own source tree for the house rules test (tests/unit/house.test.ts):
// the files, their lines, their imports and their functions, through the TypeScript parser.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(__dirname, '../..');

/** The folders whose TypeScript is the project's own source (tests included). */
export const SOURCE_FOLDERS = [
  'lib',
  'entrypoints',
  'components',
  'service',
  'devnet',
  'scripts',
  'tests',
] as const;

const SKIP = new Set(['node_modules', '.output', '.wxt', 'artifacts', 'fixtures']);

/** Repository-relative paths of every .ts/.tsx file under `folder`. */
export function sourceFiles(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      if (SKIP.has(entry.name)) continue;
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
    }
  };
  walk(folder);
  return out.sort();
}

export function lineCount(file: string): number {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

/** Each file parsed once per run: the house checks walk the same ~400 files several times. */
const parsed = new Map<string, ts.SourceFile>();

function parse(file: string): ts.SourceFile {
  let source = parsed.get(file);
  if (!source) {
    source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
    parsed.set(file, source);
  }
  return source;
}

/**
 * Every module `file` imports (static imports, re-exports, dynamic import()), resolved to the
 * repository-relative path of the file it loads, without .ts/.tsx, when it is the project's own
 * ('@/…' or relative): a folder import becomes its `index` file, so it is checked like any other.
 */
export function localImports(file: string): string[] {
  const source = parse(file);
  const specifiers: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers.flatMap((specifier) => {
    if (specifier.startsWith('@/')) return [resolveModule(specifier.slice(2))];
    if (specifier.startsWith('.'))
      return [resolveModule(relative(ROOT, resolve(ROOT, dirname(file), specifier)))];
    return [];
  });
}

const isFile = (path: string) => existsSync(join(ROOT, path)) && statSync(join(ROOT, path)).isFile();

/** The module a bundler loads for `path` (repository-relative): the file, else the folder's index. */
export function resolveModule(path: string): string {
  const bare = path.replace(/\.tsx?$/, '');
  if (isFile(`${bare}.ts`) || isFile(`${bare}.tsx`)) return bare;
  if (isFile(`${bare}/index.ts`) || isFile(`${bare}/index.tsx`)) return `${bare}/index`;
  return path; // JSON, CSS and other assets keep their extension
}

/**
 * The import cycles among `files` (each a strongly connected component of two or more modules, or
 * one that imports itself), type-only imports included: they still tie the modules' meaning together.
 */
export function importCycles(files: readonly string[]): string[][] {
  const modules = files.map((file) => file.replace(/\.tsx?$/, ''));
  const known = new Set(modules);
  const edges = new Map<string, string[]>();
  files.forEach((file, i) => {
    edges.set(
      modules[i] as string,
      localImports(file).filter((target) => known.has(target)),
    );
  });
  // Tarjan's algorithm, iteration order fixed by the sorted file list.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const connect = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of edges.get(node) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(node, Math.min(low.get(node) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || edges.get(node)?.includes(node)) cycles.push(component.sort());
  };
  for (const node of modules) if (!index.has(node)) connect(node);
  return cycles;
}

export interface FunctionSpan {
  name: string;
  line: number;
  lines: number;
}

/** Every function, method and arrow function of `file`, with the lines it spans. */
export function functionSpans(file: string): FunctionSpan[] {
  const source = parse(file);
  const spans: FunctionSpan[] = [];
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = lineOf(node.getStart(source));
      const named = node.name && ts.isIdentifier(node.name) ? node.name.text : undefined;
      const parent = node.parent;
      const assigned =
        parent &&
        (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) &&
        ts.isIdentifier(parent.name)
          ? parent.name.text
          : undefined;
      spans.push({
        name: named ?? assigned ?? '(anonymous)',
        line: start,
        lines: lineOf(node.end) - start + 1,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return spans;
}
