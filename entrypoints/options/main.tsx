import '@/lib/zod-config';
import { render } from 'preact';

function Options() {
  return (
    <main>
      <h1>Swaplane settings</h1>
      <p>Settings arrive with the background issue: service URL, RPC overrides, slippage, explorer hosts.</p>
    </main>
  );
}

render(<Options />, document.getElementById('app') as HTMLElement);
