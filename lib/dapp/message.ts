// personal_sign's message as the approval window shows it: UTF-8 text when it is readable text,
// else the hex the page sent (never a guess).
import { type Hex, hexToBytes, isHex } from 'viem';

export type ShownMessage = { kind: 'text'; text: string } | { kind: 'hex'; hex: Hex };

/**
 * Characters that change what is read without being seen: C0 and C1 controls except tab and line
 * breaks, DEL, the bidi marks and overrides that reorder text, zero-width spaces and invisible
 * operators, the byte order mark, Hangul fillers, and the tag and variation-selector blocks that can
 * carry a whole hidden text ("ASCII smuggling"). The zero-width joiner and the emoji/text
 * presentation selectors (FE0E, FE0F) stay: emoji need them and they carry nothing on their own.
 */
export function hiddenCharacter(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  if (code === 0x09 || code === 0x0a || code === 0x0d) return false;
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x061c ||
    code === 0x115f ||
    code === 0x1160 ||
    code === 0x180e ||
    code === 0x200b ||
    code === 0x200c ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x2069) ||
    code === 0x3164 ||
    (code >= 0xfe00 && code <= 0xfe0d) ||
    code === 0xfeff ||
    code === 0xffa0 ||
    (code >= 0xfff9 && code <= 0xfffb) ||
    (code >= 0xe0000 && code <= 0xe007f) ||
    (code >= 0xe0100 && code <= 0xe01ef)
  );
}

/** Text with each hidden character written out as \u{…}, so the window shows it is there. */
export function revealHidden(text: string): string {
  let shown = '';
  for (const char of text) {
    shown += hiddenCharacter(char) ? `\\u{${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()}}` : char;
  }
  return shown;
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
