// An HTTP answer as a client receives it, for tests that compare two paths of the service answer for
// answer: status, body bytes (no decoding) and headers, without the ones Node writes on every answer.
import type { IncomingMessage } from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Reads a response whole; `date`, `connection` and `keep-alive` are left out (Node writes them whichever side answers). */
export function readAnswer(res: IncomingMessage): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('error', reject);
    res.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        if (name === 'date' || name === 'connection' || name === 'keep-alive') continue;
        headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
      }
      resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
    });
  });
}
