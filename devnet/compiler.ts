// Compiles service/contracts/*.sol with the npm solc (no downloads) into artifacts.
// Shared by `npm run contracts:compile` and the test that checks committed artifacts.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Abi, Hex } from 'viem';

export const CONTRACTS_DIR = fileURLToPath(new URL('../service/contracts/', import.meta.url));
export const ARTIFACTS_DIR = fileURLToPath(new URL('../service/contracts/artifacts/', import.meta.url));

export interface Artifact {
  abi: Abi;
  bytecode: Hex;
  deployedBytecode: Hex;
  /** sha256 of the compiler version, settings and every source the contract is built from. */
  sourceHash: Hex;
  compiler: string;
}

// Fixed settings: changing any of them changes every artifact (and sourceHash).
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  // No metadata hash in the bytecode: the bytecode then depends on code, not on comments.
  metadata: { bytecodeHash: 'none' },
} as const;

/** One state variable as solc lays it out. */
export interface StorageEntry {
  label: string;
  slot: string;
  offset: number;
}

export interface CompileResult {
  artifacts: Record<string, Artifact>;
  /** Not committed: only the test needs it, to check devnet/token-storage.ts. */
  storageLayouts: Record<string, StorageEntry[]>;
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<
    string,
    Record<
      string,
      {
        abi: Abi;
        metadata: string;
        storageLayout: { storage: StorageEntry[] };
        evm: { bytecode: { object: string }; deployedBytecode: { object: string } };
      }
    >
  >;
}

interface Solc {
  version(): string;
  compile(input: string): string;
}

function loadSolc(): Solc {
  return createRequire(import.meta.url)('solc') as Solc;
}

export function readSources(): Record<string, string> {
  const sources: Record<string, string> = {};
  for (const file of readdirSync(CONTRACTS_DIR).sort()) {
    // Source unit names stay `contracts/X.sol`: they are in the metadata hashed into the bytecode.
    if (file.endsWith('.sol')) sources[`contracts/${file}`] = readFileSync(CONTRACTS_DIR + file, 'utf8');
  }
  return sources;
}

/** One artifact per `X.sol` that defines a contract named `X` (interfaces and shared files have none). */
export function compileContracts(sources = readSources()): CompileResult {
  const solc = loadSolc();
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([path, content]) => [path, { content }])),
    settings: {
      ...SETTINGS,
      outputSelection: {
        '*': {
          '*': ['abi', 'metadata', 'storageLayout', 'evm.bytecode.object', 'evm.deployedBytecode.object'],
        },
      },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));

  const artifacts: Record<string, Artifact> = {};
  const storageLayouts: Record<string, StorageEntry[]> = {};
  for (const path of Object.keys(sources)) {
    const name = path.slice('contracts/'.length, -'.sol'.length);
    const contract = output.contracts[path]?.[name];
    if (!contract) continue;
    const used = Object.keys(JSON.parse(contract.metadata).sources as Record<string, unknown>).sort();
    artifacts[name] = {
      abi: contract.abi,
      bytecode: `0x${contract.evm.bytecode.object}`,
      deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
      sourceHash: sourceHash(
        solc.version(),
        used.map((p) => [p, sources[p] ?? '']),
      ),
      compiler: solc.version(),
    };
    storageLayouts[name] = contract.storageLayout.storage.map(({ label, slot, offset }) => ({
      label,
      slot,
      offset,
    }));
  }
  return { artifacts, storageLayouts };
}

function sourceHash(version: string, files: [string, string][]): Hex {
  const hash = createHash('sha256').update(`${version}\n${JSON.stringify(SETTINGS)}\n`);
  for (const [path, content] of files) hash.update(`${path}\n${content.length}\n${content}`);
  return `0x${hash.digest('hex')}`;
}

export function serializeArtifact(artifact: Artifact): string {
  return `${JSON.stringify(artifact, null, 2)}\n`;
}
