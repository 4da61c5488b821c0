// A well-known port that is taken must stop the start-up with a clear message: otherwise the
// process already listening there answers the readiness check, "ready" is printed, and anvil then
// dies with "Address already in use".
import { createServer } from 'node:net';

export class PortInUseError extends Error {
  override readonly name = 'PortInUseError';
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(
      `Port ${port} on ${host} is already in use: is another devnet or service running (npm run devnet / npm run service)? Stop it, or choose other ports.`,
    );
  }
}

/** Resolves when `port` can be listened on at `host`; rejects with PortInUseError when it is taken. */
export function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(host, port) : error);
    });
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
