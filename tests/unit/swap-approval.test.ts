import { decodeFunctionData, erc20Abi, maxUint256 } from 'viem';
import { describe, expect, it } from 'vitest';
import { NATIVE_TOKEN_ADDRESS } from '@/lib/api/schema';
import type { RpcClient } from '@/lib/rpc/network';
import { approvalFor, approvalTransactions, planApproval } from '@/lib/swap/approval';

const TOKEN = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
const ROUTER = '0x1111111111111111111111111111111111111111';

describe('planApproval', () => {
  it('needs nothing for native input or a sufficient allowance', () => {
    expect(
      planApproval({ token: NATIVE_TOKEN_ADDRESS, allowance: 0n, required: 5n, mode: 'exact' }).kind,
    ).toBe('none');
    expect(planApproval({ token: TOKEN, allowance: 5n, required: 5n, mode: 'exact' }).kind).toBe('none');
    expect(planApproval({ token: TOKEN, allowance: maxUint256, required: 5n, mode: 'unlimited' }).kind).toBe(
      'none',
    );
  });

  it('approves the exact amount by default, unlimited only when chosen', () => {
    expect(planApproval({ token: TOKEN, allowance: 0n, required: 7n, mode: 'exact' })).toEqual({
      kind: 'approve',
      allowance: 0n,
      required: 7n,
      amount: 7n,
      unlimited: false,
    });
    expect(planApproval({ token: TOKEN, allowance: 0n, required: 7n, mode: 'unlimited' })).toMatchObject({
      kind: 'approve',
      amount: maxUint256,
      unlimited: true,
    });
  });

  it('resets a short non-zero allowance to zero first (USDT-like tokens), whatever the token', () => {
    for (const mode of ['exact', 'unlimited'] as const) {
      const plan = planApproval({ token: TOKEN, allowance: 3n, required: 7n, mode });
      expect(plan.kind).toBe('reset-then-approve');
    }
    const dai = '0x6B175474E89094C44Da98b954EedeAC495271d0F';
    expect(planApproval({ token: dai, allowance: 1n, required: 2n, mode: 'exact' }).kind).toBe(
      'reset-then-approve',
    );
  });

  it('refuses negative amounts', () => {
    expect(() => planApproval({ token: TOKEN, allowance: 0n, required: -1n, mode: 'exact' })).toThrow(
      RangeError,
    );
  });
});

describe('approvalTransactions', () => {
  const decode = (data: `0x${string}`) => decodeFunctionData({ abi: erc20Abi, data });

  it('encodes approve(spender, amount) to the token, reset first', () => {
    const plan = planApproval({ token: TOKEN, allowance: 3n, required: 7n, mode: 'exact' });
    const txs = approvalTransactions(plan, TOKEN, ROUTER);
    expect(txs.map((tx) => [tx.step, tx.to, tx.amount])).toEqual([
      ['reset', TOKEN, 0n],
      ['approve', TOKEN, 7n],
    ]);
    expect(decode(txs[0]?.data ?? '0x')).toEqual({ functionName: 'approve', args: [ROUTER, 0n] });
    expect(decode(txs[1]?.data ?? '0x')).toEqual({ functionName: 'approve', args: [ROUTER, 7n] });
  });

  it('sends nothing for a plan of none', () => {
    const plan = planApproval({ token: TOKEN, allowance: 9n, required: 7n, mode: 'exact' });
    expect(approvalTransactions(plan, TOKEN, ROUTER)).toEqual([]);
  });
});

describe('approvalFor', () => {
  const OWNER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
  const clientWith = (allowance: bigint, asked: unknown[]) =>
    ({
      readContract: async (args: unknown) => {
        asked.push(args);
        return allowance;
      },
    }) as unknown as RpcClient;

  it('reads the allowance and plans the approvals a token needs', async () => {
    const asked: unknown[] = [];
    const approval = await approvalFor(clientWith(5n, asked), TOKEN, OWNER, ROUTER, 100n, 'exact');
    expect(asked).toEqual([
      expect.objectContaining({ address: TOKEN, functionName: 'allowance', args: [OWNER, ROUTER] }),
    ]);
    expect(approval.allowance).toBe(5n);
    expect(approval.plan.kind).toBe('reset-then-approve');
    expect(approval.calls.map((call) => call.amount)).toEqual([0n, 100n]);
  });

  it('asks the chain nothing for the native coin, which needs no approval', async () => {
    const asked: unknown[] = [];
    const approval = await approvalFor(
      clientWith(0n, asked),
      NATIVE_TOKEN_ADDRESS,
      OWNER,
      ROUTER,
      1n,
      'exact',
    );
    expect(asked).toEqual([]);
    expect(approval).toMatchObject({ allowance: 0n, plan: { kind: 'none' }, calls: [] });
  });
});
