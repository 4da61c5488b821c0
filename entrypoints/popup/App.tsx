import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import { callBackground } from '@/lib/messaging/client';
import { PingResultSchema } from '@/lib/messaging/protocol';

type Connection =
  | { state: 'connecting' }
  | { state: 'ready'; version: string }
  | { state: 'error'; message: string };

export function App() {
  const [connection, setConnection] = useState<Connection>({ state: 'connecting' });
  useEffect(() => {
    callBackground({ type: 'ping' }, PingResultSchema as z.ZodType<z.infer<typeof PingResultSchema>>)
      .then((result) => setConnection({ state: 'ready', version: result.version }))
      .catch((error: unknown) =>
        setConnection({ state: 'error', message: error instanceof Error ? error.message : String(error) }),
      );
  }, []);
  return (
    <main class="shell">
      <header class="shell-header">
        <h1>Swaplane</h1>
      </header>
      <p role="status" data-testid="background-status">
        {connection.state === 'connecting' && 'Connecting to the background…'}
        {connection.state === 'ready' && `Background ready (v${connection.version})`}
        {connection.state === 'error' && `Background unavailable: ${connection.message}`}
      </p>
    </main>
  );
}
