import * as z from 'zod/mini';

let configured = false;

/** zod 4 compiles parsers with `new Function`, which MV3's CSP blocks: switch that off before any parse. */
export function ensureJitlessZod(): void {
  if (configured) return;
  z.config({ jitless: true });
  configured = true;
}

ensureJitlessZod();
