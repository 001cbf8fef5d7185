#!/usr/bin/env node
// Draws resources/icon.png (512×512): a magnifying glass over a small node graph, in the
// app's colours. Regenerate with `node scripts/make-icon.mjs`; the PNG is committed so
// packaging needs no image tools.
import fs from 'node:fs';
import zlib from 'node:zlib';

const S = 512;
const px = new Uint8Array(S * S * 4);
const blend = (x, y, [r, g, b], a) => {
  if (x < 0 || y < 0 || x >= S || y >= S || a <= 0) return;
  const i = (y * S + x) * 4;
  const k = Math.min(1, a);
  px[i] = px[i] * (1 - k) + r * k;
  px[i + 1] = px[i + 1] * (1 - k) + g * k;
  px[i + 2] = px[i + 2] * (1 - k) + b * k;
  px[i + 3] = Math.max(px[i + 3], k * 255);
};
// Anti-aliased shapes by signed distance: coverage = clamp(0.5 - d).
const shade = (sdf, colour) => {
  for (let y = 0; y < S; y++) for (let x = 0; x < S; x++) blend(x, y, colour, 0.5 - sdf(x + 0.5, y + 0.5));
};
const roundRect = (x0, y0, x1, y1, r) => (x, y) => {
  const qx = Math.max(x0 + r - x, x - (x1 - r), 0);
  const qy = Math.max(y0 + r - y, y - (y1 - r), 0);
  return Math.hypot(qx, qy) - r;
};
const circle = (cx, cy, r) => (x, y) => Math.hypot(x - cx, y - cy) - r;
const ring = (cx, cy, r, w) => (x, y) => Math.abs(Math.hypot(x - cx, y - cy) - r) - w / 2;
const segment = (ax, ay, bx, by, w) => (x, y) => {
  const t = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
  return Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay))) - w / 2;
};

shade(roundRect(24, 24, 488, 488, 96), [24, 28, 40]);
const nodes = [
  [170, 170],
  [270, 150],
  [150, 270],
  [250, 250],
];
for (const [a, b] of [
  [0, 1],
  [0, 2],
  [1, 3],
  [2, 3],
])
  shade(segment(...nodes[a], ...nodes[b], 10), [94, 234, 212]);
for (const [x, y] of nodes) shade(circle(x, y, 24), [94, 234, 212]);
shade(ring(215, 215, 130, 30), [245, 245, 250]);
shade(segment(310, 310, 420, 420, 48), [245, 245, 250]);

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
};
const raw = Buffer.alloc(S * (S * 4 + 1));
for (let y = 0; y < S; y++) Buffer.from(px.buffer, y * S * 4, S * 4).copy(raw, y * (S * 4 + 1) + 1);
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(S, 0);
ihdr.writeUInt32BE(S, 4);
ihdr.set([8, 6, 0, 0, 0], 8);
const png = Buffer.concat([
  Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
  chunk('IHDR', ihdr),
  chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
fs.mkdirSync(new URL('../resources/', import.meta.url), { recursive: true });
fs.writeFileSync(new URL('../resources/icon.png', import.meta.url), png);
console.log(`resources/icon.png: ${png.length} bytes`);
