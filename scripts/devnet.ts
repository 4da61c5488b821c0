// `npm run devnet`: Ethereum (8545) and Base (8546) replicas until Ctrl-C.
import { PortInUseError } from '../devnet/ports.ts';
import { startDevnet } from '../devnet/start.ts';

const devnet = await startDevnet({ log: (line) => console.log(line) }).catch((error: unknown) => {
  if (!(error instanceof PortInUseError)) throw error;
  console.error(`devnet not started: ${error.message}`);
  process.exit(1);
});
const urls = devnet.manifest.chains.map((c) => `${c.chainName} (chain ${c.chainId}) ${c.rpcUrl}`).join(', ');
console.log(`devnet ready: ${urls}; manifest in .devnet/manifest.json. Ctrl-C stops it.`);

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  await devnet.stop();
  console.log('devnet stopped');
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
