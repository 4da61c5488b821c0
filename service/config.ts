// The service's chain configuration file: what it needs to run on any EVM chain. Per chain: RPC,
// wrapped native coin, Multicall3, Swaplane's router and executor (written by `npm run deploy`),
// the factories to find pools in (by protocol, with their pool init code hashes), routing hubs, a
// token list (file or URL) and the block to start pool discovery from. The devnet writes one for
// itself (devnet/service-config.ts) and the service reads it through the same path as any other.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { DEFAULT_CONNECTION_LIMITS } from './connection-limits';

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address');
const hash32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex hash');

export const FactoryConfigSchema = z.discriminatedUnion('protocol', [
  z.object({
    protocol: z.literal('uniswap-v2'),
    /** The name quotes give this factory's pools (e.g. uniswap-v2, sushiswap). */
    dex: z.string().regex(/^[a-z0-9-]+$/),
    address,
    initCodeHash: hash32,
  }),
  z.object({
    protocol: z.literal('uniswap-v3'),
    dex: z.string().regex(/^[a-z0-9-]+$/),
    address,
    initCodeHash: hash32,
    /** Fee tiers to route over (hundredths of a basis point), e.g. [500, 3000, 10000]. */
    feeTiers: z.array(z.number().int().positive().max(999_999)).min(1),
  }),
]);
export type FactoryConfig = z.infer<typeof FactoryConfigSchema>;

export const ChainConfigSchema = z.object({
  chainId: z.number().int().positive(),
  /** The chain's name in the API's paths (/v1/tokens/:chain). */
  name: z.string().regex(/^[a-z0-9-]+$/, 'lowercase letters, digits and dashes'),
  nativeSymbol: z.string().min(1).max(12),
  rpcUrl: z.url(),
  weth: address,
  multicall3: address.default('0xcA11bde05977b3631167028862bE2a173976CA11'),
  /** Written by `npm run deploy`; a chain without them cannot serve quotes yet. */
  router: address.optional(),
  executor: address.optional(),
  factories: z.array(FactoryConfigSchema).min(1),
  hubs: z.array(address),
  /** A token list: a path relative to this file, or an https URL (Uniswap token-list format). */
  tokenList: z.union([z.object({ file: z.string().min(1) }), z.object({ url: z.url() })]),
  discovery: z
    .object({
      /** First block to read factory events from (the factories' deployment blocks). */
      fromBlock: z.number().int().min(0),
      /** Blocks per eth_getLogs; halved when the node refuses a range. */
      chunkBlocks: z.number().int().positive().default(10_000),
    })
    .default({ fromBlock: 0, chunkBlocks: 10_000 }),
});
export type ChainConfig = z.infer<typeof ChainConfigSchema>;

const BucketSchema = z.strictObject({
  /** Requests a client may send at once. */
  burst: z.number().int().min(1).max(1_000_000),
  /** Requests per second a client may keep sending. */
  perSecond: z.number().positive().max(1_000_000),
});

/** Socket timeouts and caps (service/connection-limits.ts); each field defaults as docs/SERVICE.md says. */
const ConnectionsSchema = z
  .strictObject({
    headersTimeoutMs: z.number().int().min(100).max(300_000).optional(),
    requestTimeoutMs: z.number().int().min(100).max(3_600_000).optional(),
    keepAliveTimeoutMs: z.number().int().min(100).max(600_000).optional(),
    stalledSocketMs: z.number().int().min(1_000).max(3_600_000).optional(),
    /** Bytes a queued answer must drain per stalledSocketMs; 1: only a wholly stalled one is closed. */
    minDrainBytes: z
      .number()
      .int()
      .min(1)
      .max(1024 * 1024 * 1024)
      .optional(),
    /** false: no per-client cap (e.g. behind a proxy that opens every connection itself). */
    maxPerClient: z.union([z.literal(false), z.number().int().min(1).max(1_000_000)]).optional(),
    maxTotal: z.number().int().min(1).max(1_000_000).optional(),
  })
  .refine(
    (c) =>
      (c.headersTimeoutMs ?? DEFAULT_CONNECTION_LIMITS.headersTimeoutMs) <=
      (c.requestTimeoutMs ?? DEFAULT_CONNECTION_LIMITS.requestTimeoutMs),
    {
      message: 'headersTimeoutMs cannot be longer than requestTimeoutMs',
    },
  );

/** What one request may cost; each field defaults as docs/SERVICE.md says. */
export const LimitsConfigSchema = z.strictObject({
  maxBodyBytes: z
    .number()
    .int()
    .min(1024)
    .max(16 * 1024 * 1024)
    .optional(),
  maxUrlBytes: z
    .number()
    .int()
    .min(256)
    .max(64 * 1024)
    .optional(),
  routeSearchMs: z.number().int().min(1).max(10_000).optional(),
  /** Only behind a reverse proxy that sets it: the header naming the client's address. */
  clientAddressHeader: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, 'a header name')
    .optional(),
  /** Per-client token buckets by kind of request; false turns rate limiting off. */
  rateLimits: z
    .union([
      z.literal(false),
      z.strictObject({
        quote: BucketSchema.optional(),
        build: BucketSchema.optional(),
        read: BucketSchema.optional(),
        maxClients: z.number().int().min(100).max(10_000_000).optional(),
      }),
    ])
    .optional(),
  connections: ConnectionsSchema.optional(),
});
export type LimitsConfig = z.infer<typeof LimitsConfigSchema>;

export const ServiceConfigSchema = z
  .object({
    version: z.literal(1),
    chains: z.array(ChainConfigSchema).min(1),
    /** Base of the logo URLs the service hands out (its public address); default: where it listens. */
    publicBaseUrl: z.url({ protocol: /^https?$/ }).optional(),
    limits: LimitsConfigSchema.optional(),
  })
  .refine((config) => new Set(config.chains.map((c) => c.name)).size === config.chains.length, {
    message: 'two chains share a name',
  })
  .refine((config) => new Set(config.chains.map((c) => c.chainId)).size === config.chains.length, {
    message: 'two chains share a chain id',
  });
export type ServiceConfig = z.infer<typeof ServiceConfigSchema>;

/** A token list in the Uniswap token-list format (only the fields the service uses). */
export const TokenListFileSchema = z.object({
  tokens: z.array(
    z.object({
      chainId: z.number().int().positive(),
      address,
      name: z.string().min(1).max(100),
      symbol: z.string().min(1).max(40),
      decimals: z.number().int().min(0).max(255),
    }),
  ),
});
export type TokenListFile = z.infer<typeof TokenListFileSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and validates a configuration file; every problem names its place in the file. */
export function readServiceConfig(path: string): ServiceConfig {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`cannot read the service configuration ${path}: ${(error as Error).message}`);
  }
  const parsed = ServiceConfigSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`,
    );
    throw new ConfigError(`the service configuration ${path} is invalid: ${issues.join('; ')}`);
  }
  return parsed.data;
}

/** The tokens of one chain from its list (a file next to the configuration, or a URL). */
export async function loadTokenList(
  chain: ChainConfig,
  configPath: string,
  fetchImpl: typeof fetch = fetch,
): Promise<TokenListFile['tokens']> {
  let json: unknown;
  if ('file' in chain.tokenList) {
    const path = resolve(dirname(configPath), chain.tokenList.file);
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new ConfigError(`${chain.name}: cannot read the token list ${path}: ${(error as Error).message}`);
    }
  } else {
    const url = chain.tokenList.url;
    const response = await fetchImpl(url, { signal: AbortSignal.timeout(15_000) }).catch((error: Error) => {
      throw new ConfigError(`${chain.name}: cannot fetch the token list ${url}: ${error.message}`);
    });
    if (!response.ok) throw new ConfigError(`${chain.name}: the token list answered HTTP ${response.status}`);
    json = await response.json().catch(() => {
      throw new ConfigError(`${chain.name}: the token list is not JSON`);
    });
  }
  const parsed = TokenListFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(
      `${chain.name}: the token list is invalid at ${issue?.path.join('.')}: ${issue?.message}`,
    );
  }
  return parsed.data.tokens.filter((token) => token.chainId === chain.chainId);
}
