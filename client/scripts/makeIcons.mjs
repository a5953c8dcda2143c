// Draws the app icon (a dark gift box on the primary green) as PNGs for the web app manifest.
// Run: node client/scripts/makeIcons.mjs  (writes client/public/icon-192.png and icon-512.png)
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PRIMARY = [0x86, 0xe5, 0x4b];
const DARK = [0x19, 0x19, 0x19];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** Colour of pixel (x, y) in a unit square: box body, lid, ribbon and bow, all inside the maskable safe zone. */
function colourAt(u, v) {
  const inBody = u >= 0.28 && u <= 0.72 && v >= 0.46 && v <= 0.74;
  const inLid = u >= 0.24 && u <= 0.76 && v >= 0.36 && v <= 0.46;
  const inRibbon = u >= 0.46 && u <= 0.54 && v >= 0.36 && v <= 0.74;
  const bowLeft = (u - 0.42) ** 2 / 0.006 + (v - 0.3) ** 2 / 0.0025 <= 1;
  const bowRight = (u - 0.58) ** 2 / 0.006 + (v - 0.3) ** 2 / 0.0025 <= 1;
  if (inRibbon) return PRIMARY;
  if (inBody || inLid || bowLeft || bowRight) return DARK;
  return PRIMARY;
}

function png(size) {
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) row.set(colourAt((x + 0.5) / size, (y + 0.5) / size), 1 + x * 3);
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const publicDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'public');
for (const size of [192, 512]) writeFileSync(path.join(publicDir, `icon-${size}.png`), png(size));
console.log('icons written to', publicDir);
