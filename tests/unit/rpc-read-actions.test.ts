// The slim eth_call / eth_estimateGas / fee suggestion / readContract / getBalance against viem's own actions over the same fake
// node: same requests, same answers, and errors that read the same to the wallet (revertOf,
// isRpcUnavailable, viem's error classes).
import {
  type Address,
  type BaseError,
  CallExecutionError,
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  createClient,
  custom,
  Eip1559FeesNotSupportedError,
  EstimateGasExecutionError,
  encodeAbiParameters,
  encodeErrorResult,
  erc20Abi,
  type Hex,
  HttpRequestError,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import * as viem from 'viem/actions';
import { mainnet } from 'viem/chains';
import { describe, expect, it } from 'vitest';
import { isRpcUnavailable } from '@/lib/rpc/network';
import { estimateFeesPerGas, estimateGas, ethCall, getBalance, readContract } from '@/lib/rpc/read-actions';
import { revertOf } from '@/lib/swap/simulate';

const FROM: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const TOKEN: Address = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const ACCOUNT = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcb5efcb5efcb5efc0');

type Answer = (method: string, params: unknown[]) => unknown;

/** A client whose node answers with `answer`, and the requests it saw. */
function fakeNode(answer: Answer) {
  const seen: { method: string; params: unknown[] }[] = [];
  const client = createClient({
    chain: mainnet,
    transport: custom(
      {
        async request({ method, params }: { method: string; params: unknown[] }) {
          seen.push({ method, params });
          return answer(method, params);
        },
      },
      { retryCount: 0 },
    ),
  });
  return { client, seen };
}

function rpcError(code: number, message: string, data?: Hex) {
  return Object.assign(new Error(message), { code, ...(data ? { data } : {}) });
}

const revertData = encodeErrorResult({
  abi: [{ type: 'error', name: 'Error', inputs: [{ name: 'message', type: 'string' }] }],
  errorName: 'Error',
  args: ['too little received'],
});

describe('ethCall', () => {
  it('sends the same eth_call as viem, from an address or an account', async () => {
    const ours = fakeNode(() => '0x01');
    const theirs = fakeNode(() => '0x01');
    for (const account of [FROM, ACCOUNT] as const) {
      const args = { account, to: TOKEN, data: '0x1234' as Hex, value: 5n, blockNumber: 16n } as const;
      expect(await ethCall(ours.client, args)).toEqual(await viem.call(theirs.client, args));
      const tagged = { account, to: TOKEN, data: '0x1234' as Hex, blockTag: 'pending' } as const;
      expect(await ethCall(ours.client, tagged)).toEqual(await viem.call(theirs.client, tagged));
    }
    expect(ours.seen).toEqual(theirs.seen);
    expect(ours.seen[0]).toEqual({
      method: 'eth_call',
      params: [{ from: FROM, to: TOKEN, data: '0x1234', value: '0x5' }, '0x10'],
    });
  });

  it('an OffchainLookup revert stays a revert: nothing is fetched from the URL the contract names', async () => {
    const lookup = encodeErrorResult({
      abi: [
        {
          type: 'error',
          name: 'OffchainLookup',
          inputs: [
            { name: 'sender', type: 'address' },
            { name: 'urls', type: 'string[]' },
            { name: 'callData', type: 'bytes' },
            { name: 'callbackFunction', type: 'bytes4' },
            { name: 'extraData', type: 'bytes' },
          ],
        },
      ],
      errorName: 'OffchainLookup',
      args: [TOKEN, ['https://attacker.example/{sender}/{data}'], '0x', '0x12345678', '0x'],
    });
    const fetched: unknown[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (...args: unknown[]) => {
      fetched.push(args);
      throw new Error('no fetch in this test');
    }) as typeof fetch;
    try {
      const { client, seen } = fakeNode(() => {
        throw rpcError(3, 'execution reverted', lookup);
      });
      await expect(ethCall(client, { to: TOKEN, data: '0x1234' })).rejects.toBeInstanceOf(CallExecutionError);
      expect(seen).toHaveLength(1);
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(fetched).toEqual([]);
  });

  it('reads an empty answer as no data, as viem does', async () => {
    const { client } = fakeNode(() => '0x');
    expect(await ethCall(client, { to: TOKEN, data: '0x' })).toEqual({ data: undefined });
  });

  it('turns a revert into the same error as viem (revertOf reads it)', async () => {
    const node = () => {
      throw rpcError(3, 'execution reverted: too little received', revertData);
    };
    const args = { account: FROM, to: TOKEN, data: '0x1234' as Hex };
    const ours = await ethCall(fakeNode(node).client, args).catch((e: unknown) => e);
    const theirs = await viem.call(fakeNode(node).client, args).catch((e: unknown) => e);
    expect(ours).toBeInstanceOf(CallExecutionError);
    expect((ours as BaseError).shortMessage).toBe((theirs as BaseError).shortMessage);
    expect(revertOf(ours)).toEqual(revertOf(theirs));
    expect(revertOf(ours)).toMatchObject({ kind: 'error', text: 'too little received' });
  });

  it('keeps a revert without data a revert', async () => {
    const node = () => {
      throw rpcError(-32000, 'execution reverted');
    };
    const ours = await ethCall(fakeNode(node).client, { to: TOKEN, data: '0x' }).catch((e: unknown) => e);
    expect(revertOf(ours)).toMatchObject({ kind: 'unknown', text: 'reverted without a reason' });
  });

  it('keeps an unreachable node unreachable (not a revert)', async () => {
    const node = () => {
      throw new HttpRequestError({ url: 'http://127.0.0.1:1', status: 502, details: 'bad gateway' });
    };
    const ours = await ethCall(fakeNode(node).client, { to: TOKEN, data: '0x' }).catch((e: unknown) => e);
    expect(isRpcUnavailable(ours)).toBe(true);
    expect(revertOf(ours)).toBeNull();
  });
});

describe('readContract', () => {
  const args = { address: TOKEN, abi: erc20Abi, functionName: 'allowance', args: [FROM, TOKEN] } as const;

  it('encodes, calls and decodes as viem', async () => {
    const answer = () => encodeAbiParameters([{ type: 'uint256' }], [42n]);
    const ours = fakeNode(answer);
    const theirs = fakeNode(answer);
    expect(await readContract(ours.client, args)).toBe(42n);
    expect(await viem.readContract(theirs.client, args)).toBe(42n);
    expect(ours.seen).toEqual(theirs.seen);
  });

  it('throws viem’s contract errors: no code at the address, a revert', async () => {
    const empty = await readContract(fakeNode(() => '0x').client, args).catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(ContractFunctionExecutionError);
    expect((empty as BaseError).walk((e) => e instanceof ContractFunctionZeroDataError)).toBeTruthy();
    const node = () => {
      throw rpcError(3, 'execution reverted', revertData);
    };
    const reverted = await readContract(fakeNode(node).client, args).catch((e: unknown) => e);
    const viemReverted = await viem.readContract(fakeNode(node).client, args).catch((e: unknown) => e);
    expect((reverted as BaseError).walk((e) => e instanceof ContractFunctionRevertedError)).toBeTruthy();
    expect((reverted as BaseError).message).toBe((viemReverted as BaseError).message);
    expect(revertOf(reverted)).toEqual(revertOf(viemReverted));
  });
});

describe('getBalance', () => {
  it('sends the same eth_getBalance as viem', async () => {
    const ours = fakeNode(() => '0x64');
    const theirs = fakeNode(() => '0x64');
    expect(await getBalance(ours.client, { address: FROM })).toBe(100n);
    expect(await getBalance(ours.client, { address: FROM, blockNumber: 3n })).toBe(100n);
    await viem.getBalance(theirs.client, { address: FROM });
    await viem.getBalance(theirs.client, { address: FROM, blockNumber: 3n });
    expect(ours.seen).toEqual(theirs.seen);
  });
});

describe('estimateGas', () => {
  it('sends the same eth_estimateGas as viem for an address, with and without a block', async () => {
    const ours = fakeNode(() => '0x5208');
    const theirs = fakeNode(() => '0x5208');
    const args = { account: FROM, to: TOKEN, data: '0x1234' as Hex, value: 5n } as const;
    expect(await estimateGas(ours.client, args)).toBe(21_000n);
    expect(await viem.estimateGas(theirs.client, args)).toBe(21_000n);
    expect(await estimateGas(ours.client, { ...args, blockNumber: 16n })).toBe(21_000n);
    await viem.estimateGas(theirs.client, { ...args, blockNumber: 16n });
    expect(ours.seen).toEqual(theirs.seen);
    expect(ours.seen[0]).toEqual({
      method: 'eth_estimateGas',
      params: [{ from: FROM, to: TOKEN, data: '0x1234', value: '0x5' }],
    });
  });

  it('turns a revert into the same error as viem (revertOf reads it)', async () => {
    const node = () => {
      throw rpcError(3, 'execution reverted: too little received', revertData);
    };
    const args = { account: FROM, to: TOKEN, data: '0x1234' as Hex };
    const ours = await estimateGas(fakeNode(node).client, args).catch((e: unknown) => e);
    const theirs = await viem.estimateGas(fakeNode(node).client, args).catch((e: unknown) => e);
    expect(ours).toBeInstanceOf(EstimateGasExecutionError);
    expect((ours as BaseError).shortMessage).toBe((theirs as BaseError).shortMessage);
    expect(revertOf(ours)).toEqual(revertOf(theirs));
  });

  it('keeps an unreachable node unreachable (not a revert)', async () => {
    const node = () => {
      throw new HttpRequestError({ url: 'http://127.0.0.1:1', status: 502, details: 'bad gateway' });
    };
    const ours = await estimateGas(fakeNode(node).client, { account: FROM, to: TOKEN }).catch(
      (e: unknown) => e,
    );
    expect(isRpcUnavailable(ours)).toBe(true);
  });
});

describe('estimateFeesPerGas', () => {
  const block = {
    number: '0x10',
    hash: `0x${'11'.repeat(32)}`,
    baseFeePerGas: '0x3b9aca00',
    transactions: [],
  };

  it('suggests what viem suggests, from the latest block and eth_maxPriorityFeePerGas', async () => {
    const answer: Answer = (method) =>
      method === 'eth_getBlockByNumber' ? block : method === 'eth_maxPriorityFeePerGas' ? '0x77359400' : null;
    const ours = fakeNode(answer);
    const theirs = fakeNode(answer);
    const fees = await estimateFeesPerGas(ours.client);
    expect(fees).toEqual(await viem.estimateFeesPerGas(theirs.client));
    expect(fees).toEqual({
      maxFeePerGas: 1_200_000_000n + 2_000_000_000n,
      maxPriorityFeePerGas: 2_000_000_000n,
    });
    expect(ours.seen.map((r) => r.method)).toEqual(theirs.seen.map((r) => r.method));
  });

  it('falls back to the gas price above the base fee when the node lacks eth_maxPriorityFeePerGas', async () => {
    for (const gasPrice of ['0x4a817c800', '0x1']) {
      const answer: Answer = (method) => {
        if (method === 'eth_maxPriorityFeePerGas') throw rpcError(-32601, 'method not found');
        return method === 'eth_gasPrice' ? gasPrice : block;
      };
      expect(await estimateFeesPerGas(fakeNode(answer).client)).toEqual(
        await viem.estimateFeesPerGas(fakeNode(answer).client),
      );
    }
  });

  it('refuses a chain without a base fee, as viem does', async () => {
    const answer: Answer = (method) =>
      method === 'eth_getBlockByNumber' ? { ...block, baseFeePerGas: null } : '0x1';
    await expect(estimateFeesPerGas(fakeNode(answer).client)).rejects.toBeInstanceOf(
      Eip1559FeesNotSupportedError,
    );
  });
});
