// Entry of a forked service worker (service/cluster.ts points cluster at this file, so a worker
// never re-runs whatever script started the primary).
import { runServiceWorker } from './cluster';

runServiceWorker().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
