// `npm run contracts:compile`: rebuilds service/contracts/artifacts/<Name>.json from service/contracts/*.sol.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { ARTIFACTS_DIR, compileContracts, serializeArtifact } from './compiler.ts';

const started = performance.now();
const { artifacts } = compileContracts();
mkdirSync(ARTIFACTS_DIR, { recursive: true });
for (const file of readdirSync(ARTIFACTS_DIR)) {
  // Drop artifacts of contracts that no longer exist.
  if (file.endsWith('.json') && !(file.slice(0, -5) in artifacts)) rmSync(ARTIFACTS_DIR + file);
}
for (const [name, artifact] of Object.entries(artifacts)) {
  writeFileSync(`${ARTIFACTS_DIR}${name}.json`, serializeArtifact(artifact));
}
const ms = Math.round(performance.now() - started);
console.log(`compiled ${Object.keys(artifacts).join(', ')} in ${ms} ms`);
