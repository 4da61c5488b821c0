// `npm run deploy -- --config <file> --chain <name> [--rpc <url>] [--key <0x…> | env SWAPLANE_DEPLOYER_KEY]`
// Deploys Swaplane's router and executor on the chain a configuration names (its WETH, and its
// Uniswap V3 factory if it lists one) and writes their addresses back into that file. The service
// then runs from it: `npm run service -- --config <file>`.
import { pathToFileURL } from 'node:url';
import type { Hex } from 'viem';
import { ConfigError } from '../service/config';
import { chainOf, deployRouter, v3FactoryOf, writeChainConfig } from '../service/deploy';

export interface DeployArgs {
  config: string;
  chain: string;
  rpc?: string;
  key: Hex;
}

export function parseDeployArgs(argv: readonly string[], env: NodeJS.ProcessEnv): DeployArgs {
  const value = (name: string): string | undefined => {
    const index = argv.findIndex((arg) => arg === name || arg.startsWith(`${name}=`));
    if (index < 0) return undefined;
    const arg = argv[index] as string;
    return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[index + 1];
  };
  const config = value('--config');
  const chain = value('--chain');
  const key = value('--key') ?? env.SWAPLANE_DEPLOYER_KEY;
  const rpc = value('--rpc');
  if (!config) throw new ConfigError('--config <file> is required (the service configuration to deploy for)');
  if (!chain) throw new ConfigError('--chain <name> is required (a chain of that configuration)');
  if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key)) {
    throw new ConfigError('a deployer key is required: --key 0x<64 hex digits> or SWAPLANE_DEPLOYER_KEY');
  }
  return { config, chain, key: key as Hex, ...(rpc ? { rpc } : {}) };
}

export async function deployFromConfig(args: DeployArgs, log: (line: string) => void = console.log) {
  const chain = chainOf(args.config, args.chain);
  const rpcUrl = args.rpc ?? chain.rpcUrl;
  const v3 = v3FactoryOf(chain);
  log(
    `deploying the router on ${chain.name} (chain ${chain.chainId}) via ${rpcUrl}${v3 ? `, V3 factory ${v3.address}` : ''}`,
  );
  const deployed = await deployRouter({
    rpcUrl,
    privateKey: args.key,
    weth: chain.weth as Hex,
    ...(v3 ? { v3Factory: v3.address, v3PoolInitCodeHash: v3.initCodeHash } : {}),
  });
  writeChainConfig(args.config, { ...chain, router: deployed.router, executor: deployed.executor });
  log(
    `router ${deployed.router}, executor ${deployed.executor} (block ${deployed.block}); written to ${args.config}`,
  );
  return deployed;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    await deployFromConfig(parseDeployArgs(process.argv.slice(2), process.env));
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }
}
