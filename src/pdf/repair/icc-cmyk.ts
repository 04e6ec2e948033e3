/**
 * A small CMYK ICC profile of our own, for DefaultCMYK (ISO 19005-2/3 6.2.4.3: DeviceCMYK next to an RGB output
 * intent). No CMYK characterisation is shipped: the profile encodes the conversion ISO 32000-1 §10.3.5 gives for
 * DeviceCMYK → DeviceRGB (red = 1 − min(1, cyan + black), likewise green/magenta and blue/yellow), with the RGB
 * result read as sRGB and taken to the profile connection space (CIE XYZ, D50) through the sRGB primaries adapted
 * to D50. It is what a PDF reader without colour management shows for DeviceCMYK, written down as a profile, so
 * the page keeps its colours as such a reader draws them; a colour-managed viewer that used a press profile for
 * DeviceCMYK (e.g. SWOP) shows solid inks somewhat brighter than before. Measured in docs/pdfa.md.
 *
 * Format (ICC.1:2001-04, version 2.1): input-device class ('scnr'), data colour space CMYK, PCS XYZ; tags desc,
 * cprt, wtpt and A2B0 (lut16Type: identity input and output curves, a 9×9×9×9 grid). ~39 KB, ~6 KB compressed.
 */

/** Grid points per CMYK channel of the A2B0 table. */
export const CMYK_GRID = 9;

// sRGB primaries adapted to D50 (Bradford), the matrix ICC sRGB profiles carry; D50 white.
const M = [
  [0.4360747, 0.3850649, 0.1430804],
  [0.2225045, 0.7168786, 0.0606169],
  [0.0139322, 0.0971045, 0.7141733],
];
const D50 = [0.9642, 1.0, 0.8249];

const srgbToLinear = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);

/** CMYK (0–1) → PCS XYZ (D50, 0–~1) through the ISO 32000-1 §10.3.5 conversion and sRGB. */
export function cmykToXyz(c: number, m: number, y: number, k: number): [number, number, number] {
  const rgb = [1 - Math.min(1, c + k), 1 - Math.min(1, m + k), 1 - Math.min(1, y + k)].map(srgbToLinear);
  return M.map((row) => row[0] * rgb[0] + row[1] * rgb[1] + row[2] * rgb[2]) as [number, number, number];
}

let cached: Uint8Array | undefined;

/** The profile bytes (built once). */
export function cmykProfile(): Uint8Array {
  if (cached) return cached;
  const tags: [string, Buffer][] = [
    ['desc', textDescription('einvoice-service CMYK (ISO 32000-1 10.3.5 via sRGB)')],
    ['cprt', text('No copyright, use freely')],
    ['wtpt', xyz(D50)],
    ['A2B0', lut16()],
  ];
  const tableSize = 4 + tags.length * 12;
  let offset = 128 + tableSize;
  const entries: Buffer[] = [];
  const bodies: Buffer[] = [];
  for (const [sig, body] of tags) {
    const e = Buffer.alloc(12);
    e.write(sig, 0, 'latin1');
    e.writeUInt32BE(offset, 4);
    e.writeUInt32BE(body.length, 8);
    entries.push(e);
    const padded = Buffer.concat([body, Buffer.alloc((4 - (body.length % 4)) % 4)]);
    bodies.push(padded);
    offset += padded.length;
  }
  const header = Buffer.alloc(128);
  header.writeUInt32BE(offset, 0);
  header.writeUInt32BE(0x02100000, 8); // version 2.1
  header.write('scnr', 12, 'latin1');
  header.write('CMYK', 16, 'latin1');
  header.write('XYZ ', 20, 'latin1');
  [2026, 1, 1, 0, 0, 0].forEach((v, i) => header.writeUInt16BE(v, 24 + i * 2));
  header.write('acsp', 36, 'latin1');
  header.writeUInt32BE(0, 64); // perceptual
  D50.forEach((v, i) => header.writeInt32BE(s15(v), 68 + i * 4));
  const count = Buffer.alloc(4);
  count.writeUInt32BE(tags.length, 0);
  cached = new Uint8Array(Buffer.concat([header, count, ...entries, ...bodies]));
  return cached;
}

const s15 = (v: number) => Math.round(v * 65536);

function xyz(v: number[]): Buffer {
  const b = Buffer.alloc(20);
  b.write('XYZ ', 0, 'latin1');
  v.forEach((x, i) => b.writeInt32BE(s15(x), 8 + i * 4));
  return b;
}

function text(s: string): Buffer {
  return Buffer.concat([Buffer.from('text\0\0\0\0', 'latin1'), Buffer.from(`${s}\0`, 'latin1')]);
}

function textDescription(s: string): Buffer {
  const ascii = Buffer.from(`${s}\0`, 'latin1');
  const head = Buffer.alloc(12);
  head.write('desc', 0, 'latin1');
  head.writeUInt32BE(ascii.length, 8);
  // Unicode language code and count (0), ScriptCode code, count and its 67-byte field (0).
  return Buffer.concat([head, ascii, Buffer.alloc(4 + 4 + 2 + 1 + 67)]);
}

/** lut16Type CMYK → XYZ: identity curves (2 entries), the grid in u1Fixed15 XYZ. */
function lut16(): Buffer {
  const g = CMYK_GRID;
  const head = Buffer.alloc(52);
  head.write('mft2', 0, 'latin1');
  head.writeUInt8(4, 8);
  head.writeUInt8(3, 9);
  head.writeUInt8(g, 10);
  [1, 0, 0, 0, 1, 0, 0, 0, 1].forEach((v, i) => head.writeInt32BE(s15(v), 12 + i * 4));
  head.writeUInt16BE(2, 48);
  head.writeUInt16BE(2, 50);
  const identity = (channels: number) => {
    const b = Buffer.alloc(channels * 4);
    for (let i = 0; i < channels; i++) b.writeUInt16BE(0xffff, i * 4 + 2);
    return b;
  };
  const clut = Buffer.alloc(g ** 4 * 3 * 2);
  let p = 0;
  // The first input channel (cyan) varies slowest.
  for (let c = 0; c < g; c++)
    for (let m = 0; m < g; m++)
      for (let y = 0; y < g; y++)
        for (let k = 0; k < g; k++) {
          for (const v of cmykToXyz(c / (g - 1), m / (g - 1), y / (g - 1), k / (g - 1))) {
            clut.writeUInt16BE(Math.max(0, Math.min(0xffff, Math.round(v * 32768))), p);
            p += 2;
          }
        }
  return Buffer.concat([head, identity(4), clut, identity(3)]);
}
