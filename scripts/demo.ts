// `npm run demo`: the README's main job. Starts the devnet and the reference service on their
// well-known ports (the extension's defaults), builds the extension, and says how to load it.
// Ctrl-C stops every child process.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { startEmbeddedDefault } from './embedded.ts';

function run(command: string, args: string[]): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.on('exit', (code) =>
      code === 0 ? done() : fail(new Error(`${command} ${args.join(' ')} exited with ${code}`)),
    );
    child.on('error', fail);
  });
}

async function main(): Promise<void> {
  console.log(
    'Starting the devnet (Ethereum 1 on :8545, Base 8453 on :8546) and the reference service (:8787)…',
  );
  const embedded = await startEmbeddedDefault({ log: (line) => console.log(`[devnet] ${line}`) });
  const stop = async (signal: string) => {
    console.log(`\n${signal}: stopping the service and the devnet`);
    await embedded.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  try {
    await run('npx', ['wxt', 'build']);
  } catch (error) {
    await embedded.stop();
    throw error;
  }
  const rpcs = embedded.devnet.manifest.chains
    .map((chain) => `${chain.chainName} ${chain.rpcUrl}`)
    .join(', ');
  console.log(`
Swaplane demo ready: service ${embedded.service.url} (RPC: ${rpcs})

Load the extension: open chrome://extensions, switch on Developer mode, click "Load unpacked"
and choose ${resolve('.output/chrome-mv3')}
The extension's default settings already point at this devnet and service.
Funded test accounts use anvil's mnemonic: "test test test test test test test test test test test junk".

Press Ctrl-C to stop.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
