// A chain reader without a node for the service's app tests: the head is whatever the test sets,
// and each block's reserves drift with its number (a stale quote really would price differently).
// `fork` changes every block's hash without changing its number (a reorg or an anvil_revert).
import type { BlockRef, ChainReader } from '../../service/chain-reader';
import { RpcUnavailableError } from '../../service/errors';
import { makeSnapshot } from '../../service/routing/reserves';

const E18 = 10n ** 18n;
const E6 = 10n ** 6n;

export interface FakeChainState {
  head: bigint;
  fork?: number;
  down?: boolean;
  broken?: boolean;
}

/** Reserves for three V2 pools in manifest order: USDC/WETH, USDC/WETH again, DAI/USDC. */
export function fakeReader(state: FakeChainState): ChainReader {
  const ref = (number: bigint): BlockRef => ({
    number,
    hash: `0x${(state.fork ?? 0).toString(16).padStart(8, '0')}${number.toString(16).padStart(56, '0')}`,
  });
  const snapshots = new Map<string, ReturnType<typeof makeSnapshot>>();
  const check = () => {
    if (state.down) throw new RpcUnavailableError('ethereum', new Error('ECONNREFUSED'));
    if (state.broken) throw new Error('a bug');
  };
  return {
    async head() {
      check();
      return ref(state.head);
    },
    async block(number) {
      check();
      return number <= state.head ? ref(number) : null;
    },
    async reserves(block) {
      check();
      const hit = snapshots.get(block.hash);
      if (hit) return hit;
      const drift = block.number * 10n ** 15n + BigInt(state.fork ?? 0) * 10n ** 17n;
      const snapshot = makeSnapshot(block.number, [
        [30_000_000n * E6, 10_000n * E18 + drift],
        [12_000_000n * E6, 4_010n * E18],
        [5_000_000n * E18, 5_000_000n * E6],
      ]);
      snapshots.set(block.hash, snapshot);
      return snapshot;
    },
  };
}
