import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { assertPortFree, PortInUseError } from '../../devnet/ports';

let held: Server | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (held ? held.close(() => resolve()) : resolve()));
  held = null;
});

describe('assertPortFree', () => {
  it('refuses a taken port with a message that says what to do', async () => {
    const server = createServer();
    held = server;
    const port = await new Promise<number>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
    );
    const error = await assertPortFree('127.0.0.1', port).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(PortInUseError);
    expect(String((error as Error).message)).toContain(`Port ${port} on 127.0.0.1 is already in use`);
  });

  it('lets a free port (and 0, "pick one") through', async () => {
    await expect(assertPortFree('127.0.0.1', 0)).resolves.toBeUndefined();
    const probe = createServer();
    const port = await new Promise<number>((resolve) =>
      probe.listen(0, '127.0.0.1', () => resolve((probe.address() as { port: number }).port)),
    );
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    await expect(assertPortFree('127.0.0.1', port)).resolves.toBeUndefined();
  });
});
