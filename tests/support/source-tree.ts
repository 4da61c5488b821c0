// Reads the repository's own source tree for the house rules test (tests/unit/house.test.ts):
// the files, their lines, their imports and their functions, through the TypeScript parser.
import { readdirSync, readFileSync } from 'node:fs';
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

function parse(file: string): ts.SourceFile {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
}

/**
 * Every module `file` imports (static imports, re-exports, dynamic import()), resolved to a
 * repository-relative path without extension when it is the project's own ('@/…' or relative).
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
    if (specifier.startsWith('@/')) return [specifier.slice(2)];
    if (specifier.startsWith('.')) return [relative(ROOT, resolve(ROOT, dirname(file), specifier))];
    return [];
  });
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
