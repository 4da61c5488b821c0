// The committed artifacts are what the sources compile to, and the hand-written ABIs and storage
// slots the devnet relies on match the compiler's view of the contracts.
import { readdirSync, readFileSync } from 'node:fs';
import type { Abi } from 'viem';
import { formatAbiItem, formatAbiParams } from 'viem/utils';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  multicall3Abi,
  swapExecutorAbi,
  swapRouterAbi,
  tetherTokenAbi,
  tokenAbi,
  weth9Abi,
} from '../../devnet/abi.ts';
import { CONTRACT_NAMES, loadArtifact } from '../../devnet/artifacts.ts';
import {
  ARTIFACTS_DIR,
  type CompileResult,
  compileContracts,
  serializeArtifact,
} from '../../devnet/compiler.ts';
import { TETHER_SLOTS, TOKEN_SLOTS, WETH_SLOTS } from '../../devnet/token-storage.ts';

let compiled: CompileResult;

beforeAll(() => {
  compiled = compileContracts();
}, 120_000);

describe('devnet artifacts', () => {
  it('has one committed artifact per contract, nothing stale', () => {
    const committed = readdirSync(ARTIFACTS_DIR)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -5))
      .sort();
    expect(committed).toEqual(Object.keys(compiled.artifacts).sort());
    expect(committed).toEqual([...CONTRACT_NAMES].sort());
  });

  it.each(CONTRACT_NAMES)('%s matches its source (run `npm run contracts:compile` if not)', (name) => {
    const fresh = compiled.artifacts[name];
    const committed = loadArtifact(name);
    expect(committed.sourceHash).toBe(fresh?.sourceHash);
    expect(committed.bytecode).toBe(fresh?.bytecode);
    expect(committed.deployedBytecode).toBe(fresh?.deployedBytecode);
    expect(committed.abi).toEqual(fresh?.abi);
    // Byte for byte, so a hand edit of an artifact is caught too.
    expect(readFileSync(`${ARTIFACTS_DIR}${name}.json`, 'utf8')).toBe(serializeArtifact(fresh as never));
  });
});

describe('devnet ABIs in devnet/abi.ts', () => {
  it.each([
    ['SwapRouter', swapRouterAbi],
    ['SwapExecutor', swapExecutorAbi],
    ['Token', tokenAbi],
    ['TetherToken', tetherTokenAbi],
    ['WETH9', weth9Abi],
    ['Multicall3', multicall3Abi],
  ] as const)('%s matches the compiled ABI', (name, abi) => {
    expect(signatures(abi as Abi)).toEqual(signatures(loadArtifact(name).abi));
  });

  it('keeps the fixed router entry point', () => {
    const swap = swapRouterAbi.find((item) => item.type === 'function' && item.name === 'swap');
    expect(formatAbiItem(swap as never)).toBe(
      'swap(address,address,uint256,uint256,(uint16,(address,address,address)[])[],address,uint256)',
    );
  });
});

describe('token storage slots', () => {
  const slotOf = (contract: string, label: string) => {
    const entry = compiled.storageLayouts[contract]?.find((e) => e.label === label);
    return entry && { slot: BigInt(entry.slot), offset: entry.offset };
  };

  it('match the compiler layout of Token, TetherToken and WETH9', () => {
    expect(slotOf('Token', 'name')).toEqual({ slot: TOKEN_SLOTS.name, offset: 0 });
    expect(slotOf('Token', 'symbol')).toEqual({ slot: TOKEN_SLOTS.symbol, offset: 0 });
    expect(slotOf('Token', 'decimals')).toEqual({ slot: TOKEN_SLOTS.decimalsAndMinter, offset: 0 });
    expect(slotOf('Token', 'minter')).toEqual({ slot: TOKEN_SLOTS.decimalsAndMinter, offset: 1 });
    expect(slotOf('Token', 'totalSupply')).toEqual({ slot: TOKEN_SLOTS.totalSupply, offset: 0 });
    expect(slotOf('Token', 'balanceOf')).toEqual({ slot: TOKEN_SLOTS.balanceOf, offset: 0 });
    expect(slotOf('Token', 'allowance')).toEqual({ slot: TOKEN_SLOTS.allowance, offset: 0 });
    expect(slotOf('TetherToken', 'minter')).toEqual({ slot: TETHER_SLOTS.minter, offset: 0 });
    expect(slotOf('TetherToken', 'totalSupply')).toEqual({ slot: TETHER_SLOTS.totalSupply, offset: 0 });
    expect(slotOf('TetherToken', 'balances')).toEqual({ slot: TETHER_SLOTS.balances, offset: 0 });
    expect(slotOf('TetherToken', 'allowed')).toEqual({ slot: TETHER_SLOTS.allowed, offset: 0 });
    expect(slotOf('WETH9', 'balanceOf')).toEqual({ slot: WETH_SLOTS.balanceOf, offset: 0 });
    expect(slotOf('WETH9', 'allowance')).toEqual({ slot: WETH_SLOTS.allowance, offset: 0 });
  });
});

/** Every entry as a comparable string: kind, signature, mutability, outputs. */
function signatures(abi: Abi): string[] {
  return abi
    .map((item) => {
      switch (item.type) {
        case 'function':
          return `function ${formatAbiItem(item)} ${item.stateMutability} -> (${formatAbiParams(item.outputs)})`;
        case 'event':
          return `event ${formatAbiItem(item)} [${item.inputs.map((i) => (i.indexed ? 1 : 0)).join('')}]`;
        case 'error':
          return `error ${formatAbiItem(item)}`;
        case 'constructor':
          return `constructor(${formatAbiParams(item.inputs)})`;
        default:
          return item.type;
      }
    })
    .sort();
}
