// personal_sign's message as the approval window shows it: UTF-8 text when it is readable text,
// else the hex the page sent (never a guess).
import { type Hex, hexToBytes, isHex } from 'viem';

export type ShownMessage = { kind: 'text'; text: string } | { kind: 'hex'; hex: Hex };

/** C0 controls except tab and line breaks, DEL, and the bidi overrides that reorder what is shown. */
function hiddenCharacter(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  if (code === 0x09 || code === 0x0a || code === 0x0d) return false;
  return (
    code < 0x20 || code === 0x7f || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)
  );
}

export function showMessage(hex: Hex): ShownMessage {
  const bytes = hexToBytes(hex);
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    // Control characters other than tab and line breaks make "text" misleading (hidden content).
    if (![...text].some(hiddenCharacter)) {
      return { kind: 'text', text };
    }
  } catch {
    // Not UTF-8: shown as hex.
  }
  return { kind: 'hex', hex };
}

/**
 * personal_sign params are [message, address]; some dapps send [address, message]. The message
 * is hex (a plain string is signed as its UTF-8 bytes, as MetaMask does).
 */
export function messageBytesHex(value: string): Hex {
  if (isHex(value) && value.length % 2 === 0) return value;
  return `0x${[...new TextEncoder().encode(value)].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
