import { useState } from 'preact/hooks';
import { renderSVG } from 'uqr';

export interface ReceivePanelProps {
  address: string;
  accountName: string;
  /** The networks this address receives on (the same address on every EVM network). */
  networkNames: readonly string[];
  onClose: () => void;
  /** Injected in tests; the clipboard otherwise. */
  copy?: (text: string) => Promise<void>;
}

/** The QR code of an address as an SVG data URL (an <img>: no markup of ours is injected). */
export function qrDataUrl(address: string): string {
  const svg = renderSVG(address, { border: 2, pixelSize: 4, blackColor: '#000', whiteColor: '#fff' });
  return `data:image/svg+xml;utf8,${encodeURIComponent(svg)}`;
}

/** Receive: the active account's address, a QR code of it, and Copy address. */
export function ReceivePanel({ address, accountName, networkNames, onClose, copy }: ReceivePanelProps) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const doCopy = () =>
    (copy ?? ((text: string) => navigator.clipboard.writeText(text)))(address).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  return (
    <section class="stack receive" aria-labelledby="receive-heading">
      <div class="screen-head">
        <h2 id="receive-heading">Receive</h2>
        <button type="button" onClick={onClose}>
          Back to swap
        </button>
      </div>
      <p class="muted">
        Send only tokens on {networkNames.join(', ')} to this address of {accountName}.
      </p>
      <img
        class="qr"
        src={qrDataUrl(address)}
        alt={`QR code of the address ${address}`}
        width={164}
        height={164}
      />
      <p class="secret address-full" data-testid="receive-address">
        {address}
      </p>
      <button type="button" class="primary" onClick={doCopy}>
        Copy address
      </button>
      <p role="status" class={copied === 'failed' ? 'error' : 'muted'}>
        {copied === 'yes' && 'Address copied.'}
        {copied === 'failed' && 'Could not copy: select the address above and copy it by hand.'}
      </p>
    </section>
  );
}
