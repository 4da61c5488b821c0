// A dapp transaction reviewed against a real anvil: simulated with the fees it will be signed with
// (a contract that refunds at gas price 0 cannot make a 10 ETH send look like 0.01 ETH), checked
// again at Confirm, then signed and mined.
import { createPublicClient, createWalletClient, type Hex, http, parseEther } from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NATIVE_TOKEN_ADDRESS, sameAddress } from '@/lib/api/schema';
import { checkOutcomeUnchanged, prepareTransaction, sendPrepared } from '@/lib/background/dapp-actions';
import type { RpcClient } from '@/lib/rpc/network';
import { DEPLOYER_KEY, TEST_MNEMONIC } from '../../devnet/accounts.ts';
import { type AnvilProcess, startAnvil } from '../../devnet/anvil.ts';
import { loadArtifact } from '../../devnet/artifacts.ts';

const CHAIN_ID = 31337;
const user = mnemonicToAccount(TEST_MNEMONIC);
let anvil: AnvilProcess;
let client: RpcClient;
let refund: Hex;

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID, host: '127.0.0.1', port: 0 });
  client = createPublicClient({ transport: http(anvil.url) }) as unknown as RpcClient;
  const deployer = createWalletClient({
    account: privateKeyToAccount(DEPLOYER_KEY),
    transport: http(anvil.url),
  });
  const artifact = loadArtifact('GasPriceRefund');
  const hash = await deployer.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    chain: null,
  });
  const receipt = await (
    client as unknown as ReturnType<typeof createPublicClient>
  ).waitForTransactionReceipt({
    hash,
  });
  refund = receipt.contractAddress as Hex;
}, 60_000);
afterAll(async () => anvil?.stop());

const tenEth = parseEther('10');
const sendToRefund = () => ({
  from: user.address,
  to: refund,
  value: tenEth,
  data: '0x' as Hex,
  gas: null,
  fees: null,
});

describe('a dapp transaction on the devnet', () => {
  it('the contract does refund at gas price 0 (so the test below can fail)', async () => {
    const [block] = await client.simulateBlocks({
      blocks: [{ calls: [{ account: user.address, to: refund, value: tenEth }] }],
      traceTransfers: true,
      validation: false,
    });
    const native = block?.calls[0]?.logs?.filter((log) => sameAddress(log.address, NATIVE_TOKEN_ADDRESS));
    // Out 10 ETH, back 9.99 ETH: traced as two transfers.
    expect(native?.length).toBe(2);
  });

  it('shows the full 10 ETH leaving, a contract recipient, and asks for a tick', async () => {
    const prepared = await prepareTransaction(client, CHAIN_ID, sendToRefund());
    const { detail } = prepared;
    expect(detail.value).toBe(tenEth.toString());
    expect(detail.recipientKind).toBe('contract');
    expect(detail.simulation).toBe('ok');
    const native = detail.changes.find((change) => sameAddress(change.token, NATIVE_TOKEN_ADDRESS));
    expect(native?.amount).toBe((-tenEth).toString());
    expect(detail.warnings.find((w) => w.code === 'VALUE_TO_UNKNOWN_CALL')?.tick).toBe(true);
    expect(BigInt(detail.maxFeePerGas)).toBeGreaterThan(0n);
  });

  it('re-simulates at Confirm: unchanged passes and is mined; a changed outcome is refused', async () => {
    const prepared = await prepareTransaction(client, CHAIN_ID, sendToRefund());
    await expect(checkOutcomeUnchanged(client, CHAIN_ID, prepared)).resolves.toBeUndefined();
    // What the user saw differs from what would happen now: nothing is signed.
    const altered = {
      ...prepared,
      detail: {
        ...prepared.detail,
        changes: prepared.detail.changes.map((change) => ({ ...change, amount: '-1' })),
      },
    };
    await expect(sendPrepared(client, CHAIN_ID, user, altered)).rejects.toMatchObject({ code: -32003 });
    const before = await client.getBalance({ address: refund });
    const hash = await sendPrepared(client, CHAIN_ID, user, prepared);
    await (client as unknown as ReturnType<typeof createPublicClient>).waitForTransactionReceipt({ hash });
    expect(await client.getBalance({ address: refund })).toBe(before + tenEth);
  });
});
