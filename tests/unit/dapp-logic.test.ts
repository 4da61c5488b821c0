import { encodeAbiParameters, encodeEventTopics, erc20Abi, type Hex, pad } from 'viem';
import { describe, expect, it } from 'vitest';
import { NATIVE_TOKEN_ADDRESS } from '@/lib/api/schema';
import { parseChannelRequest, replyFor, TO_BRIDGE } from '@/lib/dapp/channel';
import { DappRpcError, toRpcError } from '@/lib/dapp/errors';
import { messageBytesHex, revealHidden, showMessage } from '@/lib/dapp/message';
import { classifyMethod } from '@/lib/dapp/methods';
import { originWarnings } from '@/lib/dapp/origin';
import { parseParams } from '@/lib/dapp/params';
import { enqueue, QUEUE_LIMITS } from '@/lib/dapp/queue';
import { registrableSite } from '@/lib/dapp/site-key';
import {
  connectSite,
  disconnectSite,
  originOf,
  parseHexChainId,
  permittedAccounts,
  withChain,
} from '@/lib/dapp/sites';
import { balanceChanges, chooseFees, grantedApprovals, normalizeTransaction } from '@/lib/dapp/transaction';

const ME = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TOKEN = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';

describe('the page <-> bridge channel', () => {
  it('forwards only well-formed requests addressed to the bridge', () => {
    expect(parseChannelRequest({ target: TO_BRIDGE, id: 1, method: 'eth_accounts' })).toEqual({
      target: TO_BRIDGE,
      id: 1,
      method: 'eth_accounts',
    });
    // Extra fields a page adds (an origin it claims) are dropped, not forwarded.
    expect(
      parseChannelRequest({
        target: TO_BRIDGE,
        id: 2,
        method: 'eth_chainId',
        params: [],
        origin: 'https://x',
      }),
    ).toEqual({ target: TO_BRIDGE, id: 2, method: 'eth_chainId', params: [] });
    for (const bad of [
      null,
      'eth_accounts',
      { target: 'swaplane:provider', id: 1, method: 'eth_accounts' },
      { target: TO_BRIDGE, id: -1, method: 'eth_accounts' },
      { target: TO_BRIDGE, id: 1.5, method: 'eth_accounts' },
      { target: TO_BRIDGE, id: 1, method: '' },
      { target: TO_BRIDGE, id: 1, method: 'x'.repeat(101) },
      { target: TO_BRIDGE, id: 1, method: 'eth_call', params: 'not a list' },
    ]) {
      expect(parseChannelRequest(bad)).toBeNull();
    }
  });

  it('turns the background answer into a result, an EIP-1193 error, or 4900 when unreachable', () => {
    expect(replyFor(3, { ok: true, result: { result: ['0xabc'] } })).toMatchObject({
      id: 3,
      result: ['0xabc'],
    });
    expect(replyFor(3, { ok: true, result: { error: { code: 4001, message: 'no' } } })).toMatchObject({
      id: 3,
      error: { code: 4001, message: 'no' },
    });
    expect(
      replyFor(3, { ok: false, error: { code: 'FORBIDDEN', message: 'Only http(s) pages' } }),
    ).toMatchObject({
      error: { code: -32603, message: 'Only http(s) pages' },
    });
    expect(replyFor(3, undefined)).toMatchObject({ error: { code: 4900 } });
  });
});

describe('methods, errors, params', () => {
  it('classifies by allowlist; blind signing and raw sends are unsupported', () => {
    expect(classifyMethod('eth_call')).toBe('read');
    expect(classifyMethod('eth_chainId')).toBe('wallet');
    expect(classifyMethod('personal_sign')).toEqual({ approval: 'sign' });
    expect(classifyMethod('eth_sendTransaction')).toEqual({ approval: 'transaction' });
    for (const method of ['eth_sign', 'eth_sendRawTransaction', 'eth_subscribe', 'toString', '__proto__']) {
      expect(classifyMethod(method)).toBe('unsupported');
    }
  });

  it('pages see coded errors only, never internals', () => {
    expect(toRpcError(new DappRpcError(4001, 'The user rejected the request.'))).toEqual({
      code: 4001,
      message: 'The user rejected the request.',
    });
    expect(toRpcError(new Error('vault key at 0x1234 failed'))).toEqual({
      code: -32603,
      message: 'Swaplane could not complete the request.',
    });
  });

  it('params are parsed per method, with the failing field named (-32602)', () => {
    expect(parseParams('wallet_switchEthereumChain', [{ chainId: '0x1' }])).toEqual([{ chainId: '0x1' }]);
    expect(() => parseParams('eth_sendTransaction', [{ from: 'me', to: OTHER }])).toThrow(
      /Invalid params: from: expected an address/,
    );
    try {
      parseParams('eth_signTypedData_v4', [ME]);
    } catch (error) {
      expect(error).toBeInstanceOf(DappRpcError);
      expect((error as DappRpcError).code).toBe(-32602);
    }
    expect(() => parseParams('eth_signTypedData_v4', [ME])).toThrow('Invalid params');
  });
});

describe('connected sites', () => {
  it('an origin sees its accounts only while connected and unlocked', () => {
    const sites = connectSite([], 'https://app.example', [ME], 1, 10);
    expect(permittedAccounts(sites, 'https://app.example', true)).toEqual([ME]);
    expect(permittedAccounts(sites, 'https://app.example', false)).toEqual([]);
    expect(permittedAccounts(sites, 'https://evil.example', true)).toEqual([]);
    expect(permittedAccounts(sites, 'https://app.example.evil.example', true)).toEqual([]);
    const moved = withChain(sites, 'https://app.example', 8453);
    expect(moved[0]?.chainId).toBe(8453);
    // Reconnecting keeps the site's chain and first connection time.
    expect(connectSite(moved, 'https://app.example', [OTHER], 1, 99)[0]).toMatchObject({
      chainId: 8453,
      connectedAt: 10,
      accounts: [OTHER],
    });
    expect(disconnectSite(moved, 'https://app.example')).toEqual([]);
  });

  it('origins and chain ids as the browser and EIP-695 write them', () => {
    expect(originOf('https://app.example/path?q=1')).toBe('https://app.example');
    expect(originOf('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080');
    expect(originOf('chrome-extension://abc/popup.html')).toBeNull();
    expect(originOf('file:///etc/passwd')).toBeNull();
    expect(originOf(undefined)).toBeNull();
    expect(parseHexChainId('0x2105')).toBe(8453);
    for (const bad of ['0x01', '8453', '0x', 1, '0xzz']) expect(parseHexChainId(bad)).toBeNull();
  });
});

describe('the approval queue', () => {
  it('bounds each origin and the whole queue', () => {
    let queue: { id: string; origin: string }[] = [];
    for (let i = 0; i < QUEUE_LIMITS.perOrigin; i++) {
      const added = enqueue(queue, { id: `a${i}`, origin: 'https://a' });
      if (!added.ok) throw new Error('refused too early');
      queue = added.queue;
    }
    expect(enqueue(queue, { id: 'a-more', origin: 'https://a' })).toEqual({
      ok: false,
      reason: 'origin-full',
    });
    expect(enqueue(queue, { id: 'b', origin: 'https://b' }).ok).toBe(true);
    const full = Array.from({ length: QUEUE_LIMITS.total }, (_, i) => ({
      id: `${i}`,
      origin: `https://${i}`,
    }));
    expect(enqueue(full, { id: 'x', origin: 'https://x' })).toEqual({ ok: false, reason: 'queue-full' });
  });
});

describe('the approval queue per registrable site', () => {
  it("bounds a site's subdomains together, so they cannot fill the queue for other sites", () => {
    let queue: { id: string; origin: string }[] = [];
    // Each subdomain stays under its own origin bound; together they reach the site's.
    for (let i = 0; i < QUEUE_LIMITS.perSite; i++) {
      const added = enqueue(queue, { id: `e${i}`, origin: `https://s${Math.floor(i / 2)}.evil.example` });
      if (!added.ok) throw new Error(`refused too early: ${added.reason}`);
      queue = added.queue;
    }
    for (const origin of [
      'https://s9.evil.example',
      'https://evil.example',
      'http://deep.er.evil.example:8080',
    ]) {
      expect(enqueue(queue, { id: 'more', origin })).toEqual({ ok: false, reason: 'site-full' });
    }
    // Other sites still get in, however the names resemble it.
    for (const origin of [
      'https://evil.example.org',
      'https://app.example',
      'https://a.evil.example.co.uk',
    ]) {
      expect(enqueue(queue, { id: 'other', origin }).ok).toBe(true);
    }
    // 20 requests from one site's 20 subdomains never fill the queue: the 7th is refused.
    const flood = Array.from({ length: QUEUE_LIMITS.total }, (_, i) => `https://x${i}.spam.example`);
    let all: { id: string; origin: string }[] = [];
    const refused = flood.filter((origin, i) => {
      const added = enqueue(all, { id: `${i}`, origin });
      if (added.ok) all = added.queue;
      return !added.ok;
    });
    expect(all).toHaveLength(QUEUE_LIMITS.perSite);
    expect(refused).toHaveLength(QUEUE_LIMITS.total - QUEUE_LIMITS.perSite);
  });

  it('reads the registrable site without the Public Suffix List: country registries, shared hosts, IPs', () => {
    const cases: [string, string][] = [
      ['https://app.uniswap.org', 'uniswap.org'],
      ['https://uniswap.org', 'uniswap.org'],
      ['https://a.b.example.co.uk', 'example.co.uk'],
      ['https://shop.example.com.br', 'example.com.br'],
      ['https://app.example.de', 'example.de'],
      ['https://vitalik.eth.limo', 'vitalik.eth.limo'],
      ['https://app.vitalik.eth.limo', 'vitalik.eth.limo'],
      ['https://someone.github.io', 'someone.github.io'],
      ['https://bafy.ipfs.dweb.link', 'bafy.ipfs.dweb.link'],
      ['http://127.0.0.1:5173', '127.0.0.1'],
      ['http://localhost:3000', 'localhost'],
      ['http://[::1]:8080', '[::1]'],
      ['https://App.Example.ORG.', 'example.org'],
    ];
    for (const [origin, site] of cases) expect(registrableSite(origin), origin).toBe(site);
  });
});

describe('who asks: origin warnings', () => {
  it('flags plain http, look-alikes and punycode; the real host and loopback pass without a look-alike warning', () => {
    expect(originWarnings('https://app.uniswap.org')).toEqual([]);
    expect(originWarnings('http://app.uniswap.org').map((w) => w.code)).toEqual(['NOT_HTTPS']);
    expect(originWarnings('https://app.unisvvap.org').map((w) => w.code)).toEqual(['LOOKALIKE']);
    expect(originWarnings('https://uniswap.org.claim-rewards.io').map((w) => w.code)).toEqual(['LOOKALIKE']);
    expect(originWarnings('https://xn--uniswp-3ya.org').map((w) => w.code)).toContain('PUNYCODE');
    expect(originWarnings('http://127.0.0.1:5173')).toEqual([
      { code: 'NOT_HTTPS', message: 'This page runs on this computer and is not served over https.' },
    ]);
  });
});

describe('personal_sign messages', () => {
  it('readable UTF-8 is shown as text; binary and hidden characters as hex', () => {
    expect(showMessage(messageBytesHex('Sign in to Example\nNonce: 42'))).toEqual({
      kind: 'text',
      text: 'Sign in to Example\nNonce: 42',
    });
    expect(showMessage('0xdeadbeef')).toEqual({ kind: 'hex', hex: '0xdeadbeef' });
    // A right-to-left override reorders what the user reads: not shown as text.
    expect(showMessage(messageBytesHex('pay \u202Egnp.exe')).kind).toBe('hex');
    // Invisible characters that carry a text or reorder it: a tag-block "ASCII smuggling" payload,
    // a zero-width space, a right-to-left mark, a C1 control, a Hangul filler.
    const smuggled = [...'approve all']
      .map((c) => String.fromCodePoint(0xe0000 + (c.codePointAt(0) ?? 0)))
      .join('');
    for (const hidden of [smuggled, '\u200B', '\u200F', '\u0085', '\u3164', '\uFE01', '\u{E0101}']) {
      expect(showMessage(messageBytesHex(`Sign in${hidden} to Example`)).kind).toBe('hex');
    }
    // Emoji keep their joiner and presentation selector: still text.
    expect(showMessage(messageBytesHex('gm \u2764\uFE0F \u{1F468}\u200D\u{1F469}')).kind).toBe('text');
    expect(revealHidden('pay \u202Egnp.exe\u200B')).toBe('pay \\u{202E}gnp.exe\\u{200B}');
    expect(messageBytesHex('0x48656c6c6f')).toBe('0x48656c6c6f');
    expect(messageBytesHex('Hi')).toBe('0x4869');
  });
});

describe('eth_sendTransaction', () => {
  it('is normalized from the connected account on the site chain; anything else is refused', () => {
    const call = normalizeTransaction(
      { from: ME.toLowerCase(), to: OTHER, value: '0x10', gas: '0x5208' },
      ME,
      1,
    );
    expect(call).toEqual({
      from: ME.toLowerCase(),
      to: OTHER,
      value: 16n,
      data: '0x',
      gas: 21000n,
      fees: null,
    });
    expect(() => normalizeTransaction({ from: OTHER, to: ME }, ME, 1)).toThrow(
      'not from the connected account',
    );
    expect(() => normalizeTransaction({ from: ME, to: OTHER, chainId: '0x2105' }, ME, 1)).toThrow('chainId');
    expect(() => normalizeTransaction({ from: ME, to: OTHER, data: '0x12', input: '0x34' }, ME, 1)).toThrow(
      'data and input differ',
    );
    expect(() => normalizeTransaction({ from: ME, to: OTHER, type: '0x4' }, ME, 1)).toThrow(
      'transaction type',
    );
    expect(() =>
      normalizeTransaction({ from: ME, to: OTHER, maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' }, ME, 1),
    ).toThrow('maxPriorityFeePerGas');
  });

  it('refuses fields that contradict each other, naming them, rather than picking one', () => {
    const base = { from: ME, to: OTHER };
    const refused: [Parameters<typeof normalizeTransaction>[0], string][] = [
      [{ ...base, gasPrice: '0x64', maxFeePerGas: '0x1' }, 'gasPrice cannot be mixed'],
      [{ ...base, gasPrice: '0x1', maxPriorityFeePerGas: '0x1' }, 'gasPrice cannot be mixed'],
      [
        { ...base, type: '0x0', maxFeePerGas: '0x2', maxPriorityFeePerGas: '0x1' },
        'type 0x0 has no maxFeePerGas',
      ],
      [{ ...base, gas: '0x5208', gasLimit: '0x989680' }, 'gas and gasLimit differ'],
      [{ ...base, chainId: '1' }, 'chainId 1 is not a hex chain id'],
      [{ ...base, chainId: '0x01' }, 'chainId 0x01 is not a hex chain id'],
      // An EIP-7702 delegation or a blob, silently dropped, would be sent as a plain call.
      [{ ...base, authorizationList: [{ address: OTHER }] }, 'authorizationList: Swaplane does not send'],
      [{ ...base, blobVersionedHashes: ['0x01'], maxFeePerBlobGas: '0x1' }, 'blobVersionedHashes: Swaplane'],
    ];
    for (const [params, reason] of refused) expect(() => normalizeTransaction(params, ME, 1)).toThrow(reason);
    // The same value under both names, and a legacy gas price alone, are fine.
    expect(normalizeTransaction({ ...base, gas: '0x5208', gasLimit: '0x5208' }, ME, 1).gas).toBe(21000n);
    expect(normalizeTransaction({ ...base, nonce: '0x7' }, ME, 1).nonce).toBe(7n);
    expect(normalizeTransaction({ ...base, type: '0x0', gasPrice: '0x7' }, ME, 1).fees).toEqual({
      maxFeePerGas: 7n,
      maxPriorityFeePerGas: 7n,
    });
  });

  it('an access list is carried as given (never dropped); an empty one is none; one too big or malformed is -32602', () => {
    const slot = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
    const accessList = [
      { address: OTHER, storageKeys: [slot(1), slot(2)] },
      { address: ME, storageKeys: [] },
    ];
    const [params] = parseParams('eth_sendTransaction', [
      { from: ME, to: OTHER, type: '0x1', gasPrice: '0x7', accessList },
    ]);
    expect(normalizeTransaction(params, ME, 1).accessList).toEqual(accessList);
    expect(normalizeTransaction({ from: ME, to: OTHER, accessList: [] }, ME, 1)).not.toHaveProperty(
      'accessList',
    );
    const huge = Array.from({ length: 2 }, () => ({
      address: OTHER,
      storageKeys: Array.from({ length: 600 }, (_, i) => slot(i)),
    }));
    expect(() => normalizeTransaction({ from: ME, to: OTHER, accessList: huge }, ME, 1)).toThrow(
      'accessList names more than 1000 storage slots',
    );
    for (const bad of [
      [{ address: OTHER, storageKeys: ['0x01'] }],
      [{ address: '0x12', storageKeys: [] }],
      'all',
    ]) {
      expect(() => parseParams('eth_sendTransaction', [{ from: ME, to: OTHER, accessList: bad }])).toThrow(
        /Invalid params: .*accessList/,
      );
    }
  });

  it('site and wallet fees are held to the same caps as a swap', () => {
    const caps = { maxFeePerGas: 10n, maxPriorityFeePerGas: 2n, baseFee: 4n };
    const wallet = { maxFeePerGas: 9n, maxPriorityFeePerGas: 1n };
    expect(chooseFees(null, wallet, caps)).toEqual({ ...wallet, source: 'wallet', capped: false });
    expect(chooseFees({ maxFeePerGas: 8n, maxPriorityFeePerGas: 2n }, wallet, caps)).toEqual({
      maxFeePerGas: 8n,
      maxPriorityFeePerGas: 2n,
      source: 'site',
      capped: false,
    });
    // A page asking for a huge priority fee gets the cap, not its number.
    expect(chooseFees({ maxFeePerGas: 10n ** 12n, maxPriorityFeePerGas: 10n ** 11n }, wallet, caps)).toEqual({
      maxFeePerGas: 10n,
      maxPriorityFeePerGas: 2n,
      source: 'site',
      capped: true,
    });
    // An RPC inflating the wallet's own suggestion is capped the same way.
    expect(
      chooseFees(null, { maxFeePerGas: 10n ** 12n, maxPriorityFeePerGas: 10n ** 11n }, caps),
    ).toMatchObject({
      maxFeePerGas: 10n,
      capped: true,
    });
  });

  it('reads the sender balance changes and granted approvals from the simulated logs', () => {
    const transfer = (address: string, from: string, to: string, value: bigint) => ({
      address,
      topics: encodeEventTopics({
        abi: erc20Abi,
        eventName: 'Transfer',
        args: { from: from as Hex, to: to as Hex },
      }) as Hex[],
      data: encodeAbiParameters([{ type: 'uint256' }], [value]),
    });
    const logs = [
      transfer(NATIVE_TOKEN_ADDRESS, ME, OTHER, 5n),
      transfer(TOKEN, OTHER, ME, 7n),
      transfer(TOKEN, ME, OTHER, 2n),
      transfer(TOKEN, OTHER, OTHER, 100n),
      {
        address: TOKEN,
        topics: encodeEventTopics({
          abi: erc20Abi,
          eventName: 'Approval',
          args: { owner: ME, spender: OTHER },
        }) as Hex[],
        data: pad('0xff'),
      },
    ];
    expect(balanceChanges(logs, ME)).toEqual([
      { token: NATIVE_TOKEN_ADDRESS, delta: -5n },
      { token: TOKEN, delta: 5n },
    ]);
    expect(grantedApprovals(logs, ME)).toEqual([{ token: TOKEN, spender: OTHER, amount: 255n }]);
  });
});
