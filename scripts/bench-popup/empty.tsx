// The baseline of the popup-ready budget: an "empty" Preact popup, a trivial component rendered and
// marked ready the same way the swap screen marks itself (an effect, i.e. after the first paint).
// Built only by scripts/bench-popup.ts, with Vite and the same Preact preset as the extension.
import { render } from 'preact';
import { useEffect } from 'preact/hooks';

function Empty() {
  useEffect(() => {
    performance.mark('swaplane:popup-ready');
  }, []);
  return (
    <main>
      <h1>Swaplane</h1>
    </main>
  );
}

render(<Empty />, document.getElementById('app') as HTMLElement);
