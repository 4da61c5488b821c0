import fc from 'fast-check';
import { bytesToHex, type Hex, hexToBytes } from 'viem';
import { HDKey } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { childNode, derivePath, HARDENED_OFFSET, masterNode, wipeNode } from '@/lib/wallet/hd-key';

const hex = (bytes: Uint8Array) => bytesToHex(bytes).slice(2);
const seedOf = (text: string) => hexToBytes(`0x${text}` as Hex) as Uint8Array<ArrayBuffer>;

// BIP-32's published test vectors 1-3 (private key and chain code of each node; vector 3 keeps a leading zero).
const VECTORS: { seed: string; nodes: [path: string, key: string, chainCode: string][] }[] = [
  {
    seed: '000102030405060708090a0b0c0d0e0f',
    nodes: [
      [
        'm',
        'e8f32e723decf4051aefac8e2c93c9c5b214313817cdb01a1494b917c8436b35',
        '873dff81c02f525623fd1fe5167eac3a55a049de3d314bb42ee227ffed37d508',
      ],
      [
        "m/0'",
        'edb2e14f9ee77d26dd93b4ecede8d16ed408ce149b6cd80b0715a2d911a0afea',
        '47fdacbd0f1097043b78c63c20c34ef4ed9a111d980047ad16282c7ae6236141',
      ],
      [
        "m/0'/1",
        '3c6cb8d0f6a264c91ea8b5030fadaa8e538b020f0a387421a12de9319dc93368',
        '2a7857631386ba23dacac34180dd1983734e444fdbf774041578e9b6adb37c19',
      ],
      [
        "m/0'/1/2'",
        'cbce0d719ecf7431d88e6a89fa1483e02e35092af60c042b1df2ff59fa424dca',
        '04466b9cc8e161e966409ca52986c584f07e9dc81f735db683c3ff6ec7b1503f',
      ],
      [
        "m/0'/1/2'/2",
        '0f479245fb19a38a1954c5c7c0ebab2f9bdfd96a17563ef28a6a4b1a2a764ef4',
        'cfb71883f01676f587d023cc53a35bc7f88f724b1f8c2892ac1275ac822a3edd',
      ],
      [
        "m/0'/1/2'/2/1000000000",
        '471b76e389e528d6de6d816857e012c5455051cad6660850e58372a6c3e6e7c8',
        'c783e67b921d2beb8f6b389cc646d7263b4145701dadd2161548a8b078e65e9e',
      ],
    ],
  },
  {
    seed: 'fffcf9f6f3f0edeae7e4e1dedbd8d5d2cfccc9c6c3c0bdbab7b4b1aeaba8a5a29f9c999693908d8a8784817e7b7875726f6c696663605d5a5754514e4b484542',
    nodes: [
      [
        'm',
        '4b03d6fc340455b363f51020ad3ecca4f0850280cf436c70c727923f6db46c3e',
        '60499f801b896d83179a4374aeb7822aaeaceaa0db1f85ee3e904c4defbd9689',
      ],
      [
        'm/0',
        'abe74a98f6c7eabee0428f53798f0ab8aa1bd37873999041703c742f15ac7e1e',
        'f0909affaa7ee7abe5dd4e100598d4dc53cd709d5a5c2cac40e7412f232f7c9c',
      ],
      [
        "m/0/2147483647'",
        '877c779ad9687164e9c2f4f0f4ff0340814392330693ce95a58fe18fd52e6e93',
        'be17a268474a6bb9c61e1d720cf6215e2a88c5406c4aee7b38547f585c9a37d9',
      ],
      [
        "m/0/2147483647'/1",
        '704addf544a06e5ee4bea37098463c23613da32020d604506da8c0518e1da4b7',
        'f366f48f1ea9f2d1d3fe958c95ca84ea18e4c4ddb9366c336c927eb246fb38cb',
      ],
      [
        "m/0/2147483647'/1/2147483646'",
        'f1c7c871a54a804afe328b4c83a1c33b8e5ff48f5087273f04efa83b247d6a2d',
        '637807030d55d01f9a0cb3a7839515d796bd07706386a6eddf06cc29a65a0e29',
      ],
      [
        "m/0/2147483647'/1/2147483646'/2",
        'bb7d39bdb83ecf58f2fd82b6d918341cbef428661ef01ab97c28a4842125ac23',
        '9452b549be8cea3ecb7a84bec10dcfd94afe4d129ebfd3b3cb58eedf394ed271',
      ],
    ],
  },
  {
    seed: '4b381541583be4423346c643850da4b320e46a87ae3d2a4e6da11eba819cd4acba45d239319ac14f863b8d5ab5a0d0c64d2e8a1e7d1457df2e5a3c51c73235be',
    nodes: [
      [
        'm',
        '00ddb80b067e0d4993197fe10f2657a844a384589847602d56f0c629c81aae32',
        '01d28a3e53cffa419ec122c968b3259e16b65076495494d97cae10bbfec3c36f',
      ],
      [
        "m/0'",
        '491f7a2eebc7b57028e0d3faa0acda02e75c33b03c48fb288c41e2ea44e1daef',
        'e5fea12a97b927fc9dc3d2cb0d1ea1cf50aa5a1fdc1f933e8906bb38df3377bd',
      ],
    ],
  },
];

describe('BIP-32 derivation (lib/wallet/hd-key.ts)', () => {
  it('derives the published test vectors', async () => {
    for (const { seed, nodes } of VECTORS) {
      const master = await masterNode(seedOf(seed));
      for (const [path, key, chainCode] of nodes) {
        const node = await derivePath(master, path);
        expect({ path, key: hex(node.privateKey), chainCode: hex(node.chainCode) }).toEqual({
          path,
          key,
          chainCode,
        });
      }
    }
  });

  it('derives what viem’s HDKey derives, for random seeds and paths', async () => {
    const step = fc.tuple(fc.nat({ max: HARDENED_OFFSET - 1 }), fc.boolean());
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 16, maxLength: 64 }),
        fc.array(step, { maxLength: 5 }),
        async (seed, steps) => {
          const path = ['m', ...steps.map(([index, hardened]) => `${index}${hardened ? "'" : ''}`)].join('/');
          const expected = HDKey.fromMasterSeed(seed).derive(path);
          const node = await derivePath(await masterNode(new Uint8Array(seed)), path);
          expect(hex(node.privateKey)).toBe(hex(expected.privateKey as Uint8Array));
          expect(hex(node.chainCode)).toBe(hex(expected.chainCode as Uint8Array));
        },
      ),
      { numRuns: 30 },
    );
  });

  it('hands out children one at a time and zeroes a node when told', async () => {
    const master = await masterNode(seedOf(VECTORS[0]?.seed as string));
    const child = await childNode(master, HARDENED_OFFSET);
    expect(hex(child.privateKey)).toBe('edb2e14f9ee77d26dd93b4ecede8d16ed408ce149b6cd80b0715a2d911a0afea');
    wipeNode(child);
    expect(child.privateKey.every((byte) => byte === 0)).toBe(true);
    expect(child.chainCode.every((byte) => byte === 0)).toBe(true);
    // derivePath copies the master rather than handing it back, so wiping a result never wipes the master.
    const same = await derivePath(master, 'm');
    wipeNode(same);
    expect(hex(master.privateKey)).toBe('e8f32e723decf4051aefac8e2c93c9c5b214313817cdb01a1494b917c8436b35');
  });

  it('refuses bad seeds, indices and paths with a clear error', async () => {
    const master = await masterNode(seedOf(VECTORS[0]?.seed as string));
    await expect(masterNode(new Uint8Array(15))).rejects.toThrow('a BIP-32 seed is 16 to 64 bytes');
    await expect(masterNode(new Uint8Array(65))).rejects.toThrow('a BIP-32 seed is 16 to 64 bytes');
    await expect(childNode(master, -1)).rejects.toThrow('a BIP-32 index is a uint32');
    await expect(childNode(master, 2 ** 32)).rejects.toThrow('a BIP-32 index is a uint32');
    await expect(childNode(master, 1.5)).rejects.toThrow('a BIP-32 index is a uint32');
    await expect(derivePath(master, "44'/60'")).rejects.toThrow('a derivation path starts with m');
    await expect(derivePath(master, 'm/x')).rejects.toThrow('not a derivation step: x');
    await expect(derivePath(master, 'm/2147483648')).rejects.toThrow('not a derivation step: 2147483648');
    await expect(derivePath(master, 'm/1//2')).rejects.toThrow('not a derivation step: ');
  });
});
