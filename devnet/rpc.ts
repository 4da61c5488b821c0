// A minimal JSON-RPC client with batching, for the bulk anvil_* calls of a deploy
// (thousands of setCode/setStorageAt calls go out as a few HTTP requests).

export interface RpcCall {
  method: string;
  params?: unknown[];
}

interface RpcResponse {
  id: number;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export class RpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(`${method}: ${message}`);
    this.name = 'RpcError';
  }
}

// Anvil refuses request bodies over 2 MB by default; stay well below.
const MAX_BATCH_BYTES = 1_000_000;
const MAX_BATCH_CALLS = 500;

export class RpcClient {
  private nextId = 1;

  constructor(readonly url: string) {}

  async request<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const [result] = await this.batch([{ method, params }]);
    return result as T;
  }

  /** Sends the calls in as few HTTP requests as the size limits allow; results in call order. */
  async batch(calls: readonly RpcCall[]): Promise<unknown[]> {
    const results: unknown[] = [];
    let chunk: { id: number; call: RpcCall; body: string }[] = [];
    let bytes = 0;
    const flush = async () => {
      if (chunk.length > 0) results.push(...(await this.send(chunk)));
      chunk = [];
      bytes = 0;
    };
    for (const call of calls) {
      const id = this.nextId++;
      const body = JSON.stringify({ jsonrpc: '2.0', id, method: call.method, params: call.params ?? [] });
      if (chunk.length >= MAX_BATCH_CALLS || (chunk.length > 0 && bytes + body.length > MAX_BATCH_BYTES)) {
        await flush();
      }
      chunk.push({ id, call, body });
      bytes += body.length + 1;
    }
    await flush();
    return results;
  }

  private async send(chunk: { id: number; call: RpcCall; body: string }[]): Promise<unknown[]> {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `[${chunk.map((c) => c.body).join(',')}]`,
    });
    if (!response.ok) throw new Error(`${this.url}: HTTP ${response.status} ${await response.text()}`);
    const byId = new Map(((await response.json()) as RpcResponse[]).map((r) => [r.id, r]));
    return chunk.map(({ id, call }) => {
      const reply = byId.get(id);
      if (!reply) throw new RpcError(call.method, -1, 'no response in batch');
      if (reply.error)
        throw new RpcError(call.method, reply.error.code, reply.error.message, reply.error.data);
      return reply.result;
    });
  }
}
