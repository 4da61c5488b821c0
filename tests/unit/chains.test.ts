import { readFileSync } from 'node:fs';
import { type Chain, getAddress } from 'viem';
import { arbitrum, avalanche, base, bsc, fantom, mainnet, optimism, polygon } from 'viem/chains';
import { describe, expect, it } from 'vitest';
import {
  apiChainNameFor,
  CHAINS,
  chainByApiName,
  chainForExplorerHost,
  EXPLORER_HOSTS,
  explorerAddressUrl,
  explorerTokenUrl,
  explorerTxUrl,
  getChain,
  isLocalRpcUrl,
  normalizeHostname,
  requireChain,
  SUPPORTED_CHAIN_IDS,
  UnknownChainError,
} from '@/lib/chains';
import { viemChainFor } from '@/lib/chains/viem';
import { USDC } from '../support/addresses';

const EXPECTED: ReadonlyArray<[number, string, string, Chain]> = [
  [1, 'ethereum', 'ETH', mainnet],
  [56, 'bsc', 'BNB', bsc],
  [137, 'polygon', 'POL', polygon],
  [42161, 'arbitrum', 'ETH', arbitrum],
  [10, 'optimism', 'ETH', optimism],
  [8453, 'base', 'ETH', base],
  [43114, 'avalanche', 'AVAX', avalanche],
  [250, 'fantom', 'FTM', fantom],
];

const HASH = `0x${'ab'.repeat(32)}`;

describe('registry', () => {
  it('holds exactly the eight supported chains', () => {
    expect([...SUPPORTED_CHAIN_IDS].sort((a, b) => a - b)).toEqual([1, 10, 56, 137, 250, 8453, 42161, 43114]);
    expect(CHAINS).toHaveLength(8);
  });

  it.each(EXPECTED)('chain %i resolves by id and by API name %s', (chainId, apiName, symbol, viemChain) => {
    const chain = getChain(chainId);
    expect(chain).toBeDefined();
    expect(requireChain(chainId)).toBe(chain);
    expect(chain?.apiChainName).toBe(apiName);
    expect(chainByApiName(apiName)).toBe(chain);
    expect(apiChainNameFor(chainId)).toBe(apiName);
    expect(chain?.nativeSymbol).toBe(symbol);
    expect(chain?.nativeDecimals).toBe(18);
    // Our own chain object (lib/chains/viem.ts) agrees with viem's published definition.
    const ours = viemChainFor(chainId);
    expect(ours.id).toBe(viemChain.id);
    expect(ours.nativeCurrency).toEqual(viemChain.nativeCurrency);
    expect(ours).toBe(viemChainFor(chainId));
  });

  it.each(CHAINS.map((chain) => [chain.chainId, chain] as const))(
    'chain %i is consistent with its viem chain and explorers',
    (chainId, chain) => {
      expect(viemChainFor(chain.chainId).id).toBe(chainId);
      expect(viemChainFor(chain.chainId).nativeCurrency.symbol).toBe(chain.nativeSymbol);
      expect(viemChainFor(chain.chainId).nativeCurrency.name).toBe(chain.nativeName);
      expect(viemChainFor(chain.chainId).nativeCurrency.decimals).toBe(chain.nativeDecimals);
      expect(chain.name.length).toBeGreaterThan(0);
      expect(chain.apiChainName).toMatch(/^[a-z]+$/);
      // The stored address is valid and already EIP-55 checksummed.
      expect(getAddress(chain.wrappedNative)).toBe(chain.wrappedNative);
      expect(new URL(chain.defaultRpcUrl).protocol).toBe('https:');
      expect(isLocalRpcUrl(chain.defaultRpcUrl)).toBe(false);
      expect(chain.explorers.length).toBeGreaterThan(0);
      for (const explorer of chain.explorers) {
        expect(explorer.baseUrl).toBe(`https://${explorer.host}`);
        expect(chainForExplorerHost(explorer.host)).toBe(chainId);
      }
    },
  );

  it('has the canonical wrapped native tokens', () => {
    expect(requireChain(1).wrappedNative).toBe('0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2');
    expect(requireChain(10).wrappedNative).toBe('0x4200000000000000000000000000000000000006');
    expect(requireChain(8453).wrappedNative).toBe('0x4200000000000000000000000000000000000006');
    expect(requireChain(56).wrappedNative).toBe('0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c');
    expect(requireChain(137).wrappedNative).toBe('0x0d500B1d8E8eF31E21C99d1Db9A6444d3ADf1270');
    expect(requireChain(42161).wrappedNative).toBe('0x82aF49447D8a07e3bd95BD0d56f35241523fBab1');
    expect(requireChain(43114).wrappedNative).toBe('0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7');
  });

  it('lists explorers primary first', () => {
    const hosts = (chainId: number) => requireChain(chainId).explorers.map((e) => [e.kind, e.host]);
    expect(hosts(1)).toEqual([
      ['etherscan', 'etherscan.io'],
      ['blockscout', 'eth.blockscout.com'],
    ]);
    expect(hosts(56)).toEqual([['etherscan', 'bscscan.com']]);
    expect(hosts(137)).toEqual([
      ['etherscan', 'polygonscan.com'],
      ['blockscout', 'polygon.blockscout.com'],
    ]);
    expect(hosts(42161)).toEqual([
      ['etherscan', 'arbiscan.io'],
      ['blockscout', 'arbitrum.blockscout.com'],
    ]);
    expect(hosts(10)).toEqual([
      ['etherscan', 'optimistic.etherscan.io'],
      ['blockscout', 'optimism.blockscout.com'],
    ]);
    expect(hosts(8453)).toEqual([
      ['etherscan', 'basescan.org'],
      ['blockscout', 'base.blockscout.com'],
    ]);
    expect(hosts(43114)).toEqual([
      ['etherscan', 'snowscan.xyz'],
      ['routescan', 'snowtrace.io'],
    ]);
    expect(hosts(250)).toEqual([['etherscan', 'ftmscan.com']]);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(CHAINS)).toBe(true);
    expect(Object.isFrozen(requireChain(1))).toBe(true);
    expect(Object.isFrozen(requireChain(1).explorers)).toBe(true);
    expect(Object.isFrozen(EXPLORER_HOSTS)).toBe(true);
  });
});

describe('unknown chains', () => {
  it.each([0, 5, 31337, 11155111, -1, 1.5, Number.NaN])('getChain(%s) is undefined', (chainId) => {
    expect(getChain(chainId)).toBeUndefined();
    expect(apiChainNameFor(chainId)).toBeUndefined();
  });

  it('requireChain throws a typed, clear error', () => {
    expect(() => requireChain(31337)).toThrow(UnknownChainError);
    try {
      requireChain(31337);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(UnknownChainError);
      const typed = error as UnknownChainError;
      expect(typed.chainId).toBe(31337);
      expect(typed.code).toBe('UNKNOWN_CHAIN');
      expect(typed.name).toBe('UnknownChainError');
      expect(typed.message).toContain('31337');
      expect(typed.message).toContain('42161');
    }
  });

  it('chainByApiName answers undefined for unknown or blank names', () => {
    expect(chainByApiName('goerli')).toBeUndefined();
    expect(chainByApiName('')).toBeUndefined();
    expect(chainByApiName('  ')).toBeUndefined();
    expect(chainByApiName('eth')).toBeUndefined();
  });
});

describe('API chain name overrides', () => {
  it('an override replaces the default name both ways', () => {
    const overrides = { 56: 'bnb', 1: 'eth' };
    expect(apiChainNameFor(56, overrides)).toBe('bnb');
    expect(apiChainNameFor(1, overrides)).toBe('eth');
    expect(apiChainNameFor(137, overrides)).toBe('polygon');
    expect(chainByApiName('bnb', overrides)?.chainId).toBe(56);
    expect(chainByApiName('eth', overrides)?.chainId).toBe(1);
    expect(chainByApiName('bsc', overrides)).toBeUndefined();
    expect(chainByApiName('polygon', overrides)?.chainId).toBe(137);
  });

  it('blank or missing overrides fall back to the default', () => {
    expect(apiChainNameFor(56, { 56: '' })).toBe('bsc');
    expect(apiChainNameFor(56, { 56: '   ' })).toBe('bsc');
    expect(apiChainNameFor(56, { 56: undefined })).toBe('bsc');
    expect(apiChainNameFor(56, {})).toBe('bsc');
    expect(apiChainNameFor(56, { 56: ' bnb ' })).toBe('bnb');
  });

  it('an override may name a chain outside the registry', () => {
    expect(apiChainNameFor(31337, { 31337: 'anvil' })).toBe('anvil');
    expect(chainByApiName('anvil', { 31337: 'anvil' })).toBeUndefined();
  });

  it('looks names up case-insensitively', () => {
    expect(chainByApiName('Ethereum')?.chainId).toBe(1);
    expect(chainByApiName(' BSC ')?.chainId).toBe(56);
    expect(chainByApiName('bnb', { 56: 'BNB' })?.chainId).toBe(56);
    expect(apiChainNameFor(56, { 56: 'BNB' })).toBe('BNB'); // sent as configured
  });
});

describe('explorer URLs', () => {
  it('uses the primary explorer of each chain', () => {
    expect(explorerTxUrl(1, HASH)).toBe(`https://etherscan.io/tx/${HASH}`);
    expect(explorerTokenUrl(1, USDC)).toBe(`https://etherscan.io/token/${USDC}`);
    expect(explorerAddressUrl(1, USDC)).toBe(`https://etherscan.io/address/${USDC}`);
    expect(explorerTxUrl(10, HASH)).toBe(`https://optimistic.etherscan.io/tx/${HASH}`);
    expect(explorerTxUrl(56, HASH)).toBe(`https://bscscan.com/tx/${HASH}`);
    expect(explorerTokenUrl(137, USDC)).toBe(`https://polygonscan.com/token/${USDC}`);
    expect(explorerAddressUrl(42161, USDC)).toBe(`https://arbiscan.io/address/${USDC}`);
    expect(explorerTxUrl(8453, HASH)).toBe(`https://basescan.org/tx/${HASH}`);
    expect(explorerTokenUrl(43114, USDC)).toBe(`https://snowscan.xyz/token/${USDC}`);
  });

  it('answers undefined for an unknown chain', () => {
    expect(explorerTxUrl(31337, HASH)).toBeUndefined();
    expect(explorerTokenUrl(31337, USDC)).toBeUndefined();
    expect(explorerAddressUrl(31337, USDC)).toBeUndefined();
  });

  it.each([
    ['tx', `0x${'ab'.repeat(31)}`],
    ['tx', `${'ab'.repeat(32)}`],
    ['tx', `0x${'ab'.repeat(32)}/../../evil`],
    ['tx', USDC],
    ['address', '0x123'],
    ['address', `${USDC}?x=1`],
    ['address', `../${USDC}`],
    ['address', 'vitalik.eth'],
    ['token', ''],
    ['token', `0x${'g'.repeat(40)}`],
  ])('refuses to build a %s link from %j', (kind, value) => {
    const build = { tx: explorerTxUrl, address: explorerAddressUrl, token: explorerTokenUrl }[kind];
    expect(() => build?.(1, value)).toThrow(TypeError);
  });
});

describe('chainForExplorerHost', () => {
  it.each<[string, number]>([
    ['etherscan.io', 1],
    ['www.etherscan.io', 1],
    ['eth.blockscout.com', 1],
    ['bscscan.com', 56],
    ['www.bscscan.com', 56],
    ['polygonscan.com', 137],
    ['arbiscan.io', 42161],
    ['optimistic.etherscan.io', 10],
    ['optimism.blockscout.com', 10],
    ['basescan.org', 8453],
    ['www.basescan.org', 8453],
    ['base.blockscout.com', 8453],
    ['snowscan.xyz', 43114],
    ['snowtrace.io', 43114],
    ['arbitrum.blockscout.com', 42161],
    ['ftmscan.com', 250],
    // Normalised, not look-alikes:
    ['ETHERSCAN.IO', 1],
    ['Www.EtherScan.Io', 1],
    ['etherscan.io.', 1],
    ['BASE.BLOCKSCOUT.COM.', 8453],
  ])('%j -> %i', (host, chainId) => {
    expect(chainForExplorerHost(host)).toBe(chainId);
  });

  it.each([
    // Subdomains: testnets and other chains, or simply not ours.
    'goerli.etherscan.io',
    'sepolia.etherscan.io',
    'holesky.etherscan.io',
    'testnet.bscscan.com',
    'amoy.polygonscan.com',
    'sepolia.arbiscan.io',
    'sepolia.basescan.org',
    'www.eth.blockscout.com', // no www. for blockscout
    'eth-sepolia.blockscout.com',
    'blockscout.com',
    'api.etherscan.io',
    'www.www.etherscan.io',
    // Look-alikes
    'etherscan.io.evil.com',
    'etherscan.io.evil.com.',
    'evil-etherscan.io',
    'evil.etherscan.io.com',
    'etherscam.io',
    'xetherscan.io',
    'etherscan.co',
    'etherscan.com',
    'etherscan-io.com',
    'wwwetherscan.io',
    'www-etherscan.io',
    'basescan.org.attacker.net',
    'eth.blockscout.com.evil.com',
    'xn--therscan-2fg.io', // punycode homograph (Cyrillic е)
    'xn--etherscn-5cg.io',
    'xn--ethrscan-n4a.io',
    '\u0435therscan.io', // Cyrillic е, unencoded
    'etherscan\u3002io', // ideographic full stop
    'ｅｔｈｅｒｓｃａｎ.ｉｏ', // full-width
    'eth.bloc\u212Ascout.com', // Kelvin sign lowercases to ASCII k
    // Malformed
    '',
    '.',
    '..',
    'etherscan.io..',
    '.etherscan.io',
    'etherscan..io',
    ' etherscan.io',
    'etherscan.io ',
    'etherscan.io:443',
    'https://etherscan.io',
    'https://etherscan.io/',
    'etherscan.io/token/0x',
    '//etherscan.io',
    'user@etherscan.io',
    'etherscan.io\0',
    '127.0.0.1',
    '1.1.1.1',
    '[::1]',
    'localhost',
    '*.etherscan.io',
    `${'a'.repeat(64)}.etherscan.io`,
  ])('%j -> undefined', (host) => {
    expect(chainForExplorerHost(host)).toBeUndefined();
  });

  it('copes with non-string input from untyped callers', () => {
    expect(chainForExplorerHost(undefined as unknown as string)).toBeUndefined();
    expect(chainForExplorerHost(null as unknown as string)).toBeUndefined();
    expect(chainForExplorerHost(42 as unknown as string)).toBeUndefined();
  });

  it('matches extra hosts exactly, after the same normalisation', () => {
    const extra = { 'explorer.local.test': 1, 'Scan.Devnet.Example.': 8453, localhost: 10, '127.0.0.1': 56 };
    expect(chainForExplorerHost('explorer.local.test', extra)).toBe(1);
    expect(chainForExplorerHost('EXPLORER.LOCAL.TEST.', extra)).toBe(1);
    expect(chainForExplorerHost('scan.devnet.example', extra)).toBe(8453);
    expect(chainForExplorerHost('localhost', extra)).toBe(10);
    expect(chainForExplorerHost('127.0.0.1', extra)).toBe(56);
    expect(chainForExplorerHost('www.explorer.local.test', extra)).toBeUndefined();
    expect(chainForExplorerHost('sub.explorer.local.test', extra)).toBeUndefined();
    expect(chainForExplorerHost('explorer.local.test.evil.com', extra)).toBeUndefined();
  });

  it('lets built-in hosts win over extra hosts and ignores bad chain ids', () => {
    expect(chainForExplorerHost('etherscan.io', { 'etherscan.io': 31337 })).toBe(1);
    expect(chainForExplorerHost('bad.example', { 'bad.example': 0 })).toBeUndefined();
    expect(chainForExplorerHost('bad.example', { 'bad.example': 1.5 })).toBeUndefined();
    expect(chainForExplorerHost('bad.example', { 'https://bad.example': 1 })).toBeUndefined();
  });

  it('normalizeHostname canonicalises or refuses', () => {
    expect(normalizeHostname('WWW.Etherscan.IO.')).toBe('www.etherscan.io');
    expect(normalizeHostname('localhost')).toBe('localhost');
    expect(normalizeHostname('a-b.c')).toBe('a-b.c');
    expect(normalizeHostname('-ab.c')).toBeUndefined();
    expect(normalizeHostname('ab-.c')).toBeUndefined();
    expect(normalizeHostname('a_b.c')).toBeUndefined();
    expect(normalizeHostname(`${'a.'.repeat(130)}io`)).toBeUndefined();
  });
});

describe('hosts.ts stays tiny', () => {
  it('imports nothing (the content script bundles it)', () => {
    const source = readFileSync(new URL('../../lib/chains/hosts.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/^\s*import\s/m);
    expect(source).not.toMatch(/\bfrom\s+['"]/);
    expect(source).not.toMatch(/\brequire\(/);
  });
});

describe('isLocalRpcUrl', () => {
  it.each([
    'http://127.0.0.1:8545',
    'http://127.0.0.1:8545/',
    'https://127.0.0.1',
    'http://127.1.2.3:8545',
    'http://127.255.255.255',
    'http://127.1:8545', // URL parser canonicalises to 127.0.0.1
    'http://0x7f.0.0.1:8545',
    'http://localhost:8545',
    'http://LOCALHOST:8545',
    'http://localhost.:8545',
    'http://anvil.localhost:8545',
    'ws://localhost:8546',
    'wss://127.0.0.1:8546',
    'http://[::1]:8545',
    'http://[0:0:0:0:0:0:0:1]:8545',
    'http://user:pass@localhost:8545',
  ])('%j is local', (url) => {
    expect(isLocalRpcUrl(url)).toBe(true);
  });

  it.each([
    'https://eth.llamarpc.com',
    'http://128.0.0.1:8545',
    'http://126.255.255.255',
    'http://10.0.0.1:8545',
    'http://192.168.1.10:8545',
    'http://0.0.0.0:8545',
    'http://[::]:8545',
    'http://[::2]:8545',
    'http://localhost@evil.com:8545',
    'http://127.0.0.1.evil.com',
    'http://localhost.evil.com',
    'http://evil-localhost:8545',
    'http://mylocalhost:8545',
    'file:///127.0.0.1',
    'ftp://localhost',
    'javascript:alert(1)',
    'localhost:8545',
    '127.0.0.1:8545',
    '',
    'not a url',
  ])('%j is not local', (url) => {
    expect(isLocalRpcUrl(url)).toBe(false);
  });
});

describe('viem chain objects', () => {
  it('are only reachable through viemChainFor, which refuses unknown chains', () => {
    expect(viemChainFor(8453).id).toBe(8453);
    expect(() => viemChainFor(31337)).toThrow(UnknownChainError);
  });
});
