// Build-time ABIs (wired in wxt.config.ts, build only). Our sources write ABIs in viem's
// human-readable form (`parseAbi(['function approve(address spender, uint256 amount)'])`), which
// types them and keeps them readable; but parsing them at run time ships abitype's signature parser
// (~14 kB minified, ~4 kB gzip) in the background bundle, whose budget is 150 kB gzip. This plugin
// runs the same `parseAbi`/`parseAbiItem` at build time on calls whose argument is a literal (or a
// same-file `const NAME = [...] as const` of string literals) and emits the resulting JSON ABI, so the
// bundle holds data and no parser. Tests run the sources as written, so both paths are exercised: the
// build fails if a call it rewrites does not parse, and it warns for a call it cannot rewrite.
import { parseAbi, parseAbiItem } from 'viem';
import type { Plugin } from 'vite';

/** A run of single-quoted string literals, commas and whitespace: the inside of a literal array. */
const STRING_LIST = String.raw`(?:\s*'[^'\\\n]*'\s*,?)+\s*`;
const CALL_WITH_LITERAL = new RegExp(String.raw`\bparseAbi\(\s*\[(${STRING_LIST})\]\s*\)`, 'g');
const CALL_WITH_NAME = /\bparseAbi\(\s*([A-Z_][A-Z0-9_]*)\s*\)/g;
const ITEM_CALL = /\bparseAbiItem\(\s*'([^'\\\n]*)'\s*\)/g;

function stringsOf(list: string): string[] {
  return [...list.matchAll(/'([^'\\\n]*)'/g)].map((match) => match[1] as string);
}

/** The string literals of `const NAME = [ ... ] as const` in the same source, if it is one. */
function constantList(code: string, name: string): string[] | null {
  const declaration = new RegExp(String.raw`\bconst ${name}\s*=\s*\[(${STRING_LIST})\]\s*as const`).exec(
    code,
  );
  return declaration ? stringsOf(declaration[1] as string) : null;
}

/** Rewrites every literal parseAbi/parseAbiItem call of a source; `unresolved` counts the others. */
export function inlineAbis(code: string): { code: string; unresolved: number } {
  let out = code.replace(CALL_WITH_LITERAL, (_call, list: string) =>
    JSON.stringify(parseAbi(stringsOf(list))),
  );
  out = out.replace(ITEM_CALL, (_call, signature: string) => JSON.stringify(parseAbiItem(signature)));
  out = out.replace(CALL_WITH_NAME, (call, name: string) => {
    const strings = constantList(code, name);
    return strings ? JSON.stringify(parseAbi(strings)) : call;
  });
  const unresolved = [...out.matchAll(/\bparseAbi(?:Item)?\(/g)].length;
  return { code: out, unresolved };
}

export function abiLiterals(): Plugin {
  return {
    name: 'swaplane-abi-literals',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (id.includes('node_modules') || !/\.tsx?$/.test(id) || !code.includes('parseAbi')) return null;
      const { code: out, unresolved } = inlineAbis(code);
      if (unresolved > 0) this.warn(`${unresolved} parseAbi call(s) left to run time in ${id}`);
      return out === code ? null : { code: out, map: null };
    },
  };
}
