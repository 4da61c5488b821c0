// Build hardening for every browser target (wired in wxt.config.ts, build only):
//
// 1. zod 4 can compile object parsers with the Function constructor (its "JIT"), and probes for it
//    with `new Function("")`. Swaplane runs zod jitless (lib/zod-config.ts), so that code is dead at
//    run time, but it still ships: Firefox's linter flags it (DANGEROUS_EVAL) and an MV3 CSP would
//    reject it. Every `const F = Function;` in zod becomes a constructor that throws EvalError, which
//    is exactly what zod already handles when a CSP forbids code generation (the probe answers
//    false, the compiler reports "unsupported" and the interpreter parses).
// 2. Preact assigns `innerHTML` only for `dangerouslySetInnerHTML`, which Swaplane never uses (Biome's
//    noDangerouslySetInnerHtml forbids it in our sources). That assignment becomes a throw, so token
//    metadata or anything else can never reach an HTML sink through it.
//
// Both rewrites fail the build if the library code no longer looks as expected (a dependency update
// must be looked at, not silently shipped), and `generateBundle` fails the build if any emitted chunk
// still contains a code-generation or HTML sink (see findUnsafeSinks).
import type { Plugin } from 'vite';

const ZOD_FUNCTION_ALIAS = /const F = Function;/g;
const ZOD_NO_CODEGEN =
  "const F = function () { throw new EvalError('code generation is disabled in Swaplane builds'); };";
const ZOD_FILES_WITH_CODEGEN = ['zod/v4/core/util.js', 'zod/v4/core/doc.js', 'zod/v4/core/compile.js'];

const PREACT_FILE = 'preact/dist/preact.mjs';
const PREACT_INNER_HTML = '(t.innerHTML=h.__html)';
const PREACT_NO_INNER_HTML = "(()=>{throw Error('dangerouslySetInnerHTML is disabled in Swaplane')})()";

export interface UnsafeSink {
  kind: 'Function constructor' | 'eval' | 'innerHTML assignment' | 'outerHTML assignment' | 'HTML insertion';
  index: number;
  excerpt: string;
}

// The global Function (or eval) used as a value: called, `new`ed, `.call(`/`.apply(`ed, or aliased
// (`let e=Function,`, `c?x:Function)`). Not flagged: `x.Function`, `Function.prototype`,
// `Function.call.bind(…)` (borrowing a method), an object key (`{eval:{minArgs:1}}` in the
// webextension polyfill's API table) and the word in message text such as `Function "${name}" not found`.
const SINKS: { kind: UnsafeSink['kind']; pattern: RegExp }[] = [
  {
    kind: 'Function constructor',
    pattern: /(?<![\w$.])(?:new\s+Function(?![\w$])|Function\s*(?:[(),;}\]]|\.\s*(?:apply|call)\s*\(|$))/g,
  },
  { kind: 'eval', pattern: /(?<![\w$.])eval\s*(?:[(),;}\]]|$)/g },
  { kind: 'innerHTML assignment', pattern: /\.innerHTML\s*(?:\+?=)(?!=)/g },
  { kind: 'outerHTML assignment', pattern: /\.outerHTML\s*(?:\+?=)(?!=)/g },
  {
    kind: 'HTML insertion',
    pattern: /\.(?:insertAdjacentHTML|createContextualFragment)\s*\(|document\.write(?:ln)?\s*\(/g,
  },
];

/** Code-generation and HTML sinks in built JavaScript (minified: no comments left to confuse it). */
export function findUnsafeSinks(code: string): UnsafeSink[] {
  const found: UnsafeSink[] = [];
  for (const { kind, pattern } of SINKS) {
    for (const match of code.matchAll(pattern)) {
      const index = match.index ?? 0;
      found.push({ kind, index, excerpt: code.slice(Math.max(0, index - 40), index + 60) });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

const normalize = (id: string) => (id.split('?')[0] ?? id).replaceAll('\\', '/');
const isPackageFile = (id: string, file: string) => normalize(id).endsWith(`/node_modules/${file}`);

/** The source rewrites alone, for tests and for the plugin; throws when a library changed shape. */
export function hardenModule(id: string, code: string): string | null {
  if (ZOD_FILES_WITH_CODEGEN.some((file) => isPackageFile(id, file))) {
    const count = code.match(ZOD_FUNCTION_ALIAS)?.length ?? 0;
    if (count === 0) {
      throw new Error(
        `${normalize(id)}: zod's \`const F = Function;\` not found; update scripts/vite-harden.ts`,
      );
    }
    return code.replace(ZOD_FUNCTION_ALIAS, ZOD_NO_CODEGEN);
  }
  if (isPackageFile(id, PREACT_FILE)) {
    if (code.split(PREACT_INNER_HTML).length !== 2) {
      throw new Error(
        `${normalize(id)}: Preact's innerHTML assignment not found once; update scripts/vite-harden.ts`,
      );
    }
    return code.replace(PREACT_INNER_HTML, PREACT_NO_INNER_HTML);
  }
  return null;
}

export function harden(): Plugin {
  // `wxt` (dev) builds unminified, and comments such as zod's "the caught `new Function`" would
  // read as sinks: the scan is for minified (shipped) builds; the rewrites apply to every build.
  let minified = true;
  return {
    name: 'swaplane:harden',
    apply: 'build',
    enforce: 'pre',
    configResolved(config) {
      minified = config.build.minify !== false;
    },
    transform(code, id) {
      try {
        const hardened = hardenModule(id, code);
        return hardened === null ? null : { code: hardened, map: null };
      } catch (error) {
        this.error(error instanceof Error ? error.message : String(error));
      }
    },
    generateBundle(_options, bundle) {
      if (!minified) return;
      for (const [fileName, output] of Object.entries(bundle)) {
        if (output.type !== 'chunk') continue;
        const sinks = findUnsafeSinks(output.code);
        if (sinks.length > 0) {
          const lines = sinks.map((sink) => `  ${sink.kind}: …${sink.excerpt}…`).join('\n');
          this.error(`${fileName} contains unsafe sinks:\n${lines}`);
        }
      }
    },
  };
}
