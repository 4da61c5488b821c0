// Renders the toolbar icons (public/icon/<size>.png) from the same geometry as assets/icon.svg:
// a rounded square with two opposing arrows. Pure Node (zlib), so no image tool is needed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIZES = [16, 32, 48, 128];
const BACKGROUND = [59, 91, 219];

type Shape = (x: number, y: number) => boolean; // unit square coordinates

const roundedSquare: Shape = (x, y) => {
  const r = 0.22;
  const cx = Math.min(Math.max(x, r), 1 - r);
  const cy = Math.min(Math.max(y, r), 1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
// Upper arrow points right, lower arrow points left: "swap".
const arrow =
  (yMid: number, dir: 1 | -1): Shape =>
  (x, y) => {
    const tip = dir === 1 ? 0.8 : 0.2;
    const base = dir === 1 ? 0.62 : 0.38;
    const shaftFrom = dir === 1 ? 0.2 : base;
    const shaftTo = dir === 1 ? base : 0.8;
    if (x >= shaftFrom && x <= shaftTo && Math.abs(y - yMid) <= 0.055) return true;
    const along = (x - base) * dir;
    const span = Math.abs(tip - base);
    return along >= 0 && along <= span && Math.abs(y - yMid) <= 0.16 * (1 - along / span);
  };
const arrows = [arrow(0.36, 1), arrow(0.64, -1)];

function crc32(bytes: Uint8Array): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function renderPng(size: number): Buffer {
  const samples = 4; // 4x4 supersampling for smooth edges
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let py = 0; py < size; py++) {
    raw[py * (size * 4 + 1)] = 0; // filter: none
    for (let px = 0; px < size; px++) {
      let bg = 0;
      let fg = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = (px + (sx + 0.5) / samples) / size;
          const y = (py + (sy + 0.5) / samples) / size;
          if (!roundedSquare(x, y)) continue;
          if (arrows.some((shape) => shape(x, y))) fg++;
          else bg++;
        }
      }
      const total = samples * samples;
      const alpha = (bg + fg) / total;
      const offset = py * (size * 4 + 1) + 1 + px * 4;
      const mix = (channel: number) =>
        bg + fg === 0 ? 0 : Math.round((channel * bg + 255 * fg) / (bg + fg));
      raw[offset] = mix(BACKGROUND[0] ?? 0);
      raw[offset + 1] = mix(BACKGROUND[1] ?? 0);
      raw[offset + 2] = mix(BACKGROUND[2] ?? 0);
      raw[offset + 3] = Math.round(alpha * 255);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

mkdirSync('public/icon', { recursive: true });
for (const size of SIZES) writeFileSync(`public/icon/${size}.png`, renderPng(size));
console.log(`wrote public/icon/{${SIZES.join(',')}}.png`);
