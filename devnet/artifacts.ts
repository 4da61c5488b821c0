// Loads the committed contract artifacts and the @uniswap/v2-core builds.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Abi, Hex } from 'viem';
import { ARTIFACTS_DIR, type Artifact } from './compiler.ts';

export type ContractName =
  | 'Token'
  | 'TetherToken'
  | 'WETH9'
  | 'Multicall3'
  | 'SwapExecutor'
  | 'SwapRouter'
  | 'SafetyTestToken'
  | 'SafetyProbe'
  | 'V3Liquidity'
  | 'GasPriceRefund'
  | 'GasPriceRouter';
export const CONTRACT_NAMES: readonly ContractName[] = [
  'Token',
  'TetherToken',
  'WETH9',
  'Multicall3',
  'SwapExecutor',
  'SwapRouter',
  'SafetyTestToken',
  // Not deployed: the extension's safety check simulates it (lib/safety/probe-code.ts).
  'SafetyProbe',
  'V3Liquidity',
  // Not deployed by the devnet: the dapp tests deploy it (a contract that refunds at gas price 0).
  'GasPriceRefund',
  // Not deployed by the devnet: a hostile router that pays in full only at gas price 0 (tests deploy it).
  'GasPriceRouter',
];

export function artifactPath(name: string): string {
  return `${ARTIFACTS_DIR}${name}.json`;
}

export function loadArtifact(name: ContractName): Artifact {
  return JSON.parse(readFileSync(artifactPath(name), 'utf8')) as Artifact;
}

export interface UniswapBuild {
  abi: Abi;
  bytecode: Hex;
}

/** UniswapV2Factory and UniswapV2Pair exactly as published in @uniswap/v2-core. */
export function loadUniswapV2(): { factory: UniswapBuild; pair: UniswapBuild } {
  const require = createRequire(import.meta.url);
  const load = (name: string): UniswapBuild => {
    const json = require(`@uniswap/v2-core/build/${name}.json`) as { abi: Abi; bytecode: string };
    return {
      abi: json.abi,
      bytecode: (json.bytecode.startsWith('0x') ? json.bytecode : `0x${json.bytecode}`) as Hex,
    };
  };
  return { factory: load('UniswapV2Factory'), pair: load('UniswapV2Pair') };
}

/** UniswapV3Factory (which carries the pool's creation code) and the pool ABI, as published in @uniswap/v3-core. */
export function loadUniswapV3(): { factory: UniswapBuild; pool: UniswapBuild } {
  const require = createRequire(import.meta.url);
  const load = (name: string): UniswapBuild => {
    const json = require(`@uniswap/v3-core/artifacts/contracts/${name}.sol/${name}.json`) as {
      abi: Abi;
      bytecode: Hex;
    };
    return { abi: json.abi, bytecode: json.bytecode };
  };
  return { factory: load('UniswapV3Factory'), pool: load('UniswapV3Pool') };
}
