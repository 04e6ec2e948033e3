/**
 * A small CMYK ICC profile of our own, for DefaultCMYK (ISO 19005-2/3 6.2.4.3: DeviceCMYK next to an RGB output
 * intent). The profile reproduces how PDF viewers draw DeviceCMYK today, so that giving the page a Default colour
 * space does not change its colours: the printing model of Neugebauer, a multilinear interpolation between the 16
 * colours of the ink combinations (each of C, M, Y, K at 0 or 100 %), with those 16 colours as poppler 22.12
 * (pdftoppm, the renderer the tests compare with) draws them. They are the familiar sRGB renderings of SWOP-like
 * process inks (cyan 0/173/239, magenta 236/0/140, yellow 255/242/0, black 35/31/32), which Acrobat and pdf.js show
 * as well. The interpolation is done on the sRGB values, as the viewer does, and the result is taken to the profile
 * connection space (CIE L*a*b*, D50) through the sRGB primaries adapted to D50. test/pdf-repair-render.test.ts measures
 * the render difference with pdftoppm (docs/pdfa.md has the figures).
 *
 * Format (ICC.1:2001-04, version 2.1): input-device class ('scnr'), data colour space CMYK, PCS L*a*b*; tags desc,
 * cprt, wtpt and A2B0 (lut16Type: identity input and output curves, a 7×7×7×7 grid: a finer grid costs more bytes
 * than it gains, see docs/pdfa.md). ~15 KB.
 */

/** Grid points per CMYK channel of the A2B0 table. */
export const CMYK_GRID = 7;

/**
 * sRGB (0–255) of the 16 ink combinations, indexed c·8 + m·4 + y·2 + k: measured by rendering each combination of
 * DeviceCMYK at 0 and 100 % with pdftoppm 22.12 at 72 dpi and reading the pixel.
 */
export const CMYK_CORNERS: readonly (readonly [number, number, number])[] = [
  [255, 255, 255], // paper
  [35, 31, 32], // K
  [255, 242, 0], // Y
  [28, 26, 0], // Y K
  [236, 0, 140], // M
  [36, 0, 0], // M K
  [237, 28, 36], // M Y
  [34, 0, 0], // M Y K
  [0, 173, 239], // C
  [0, 15, 36], // C K
  [0, 166, 80], // C Y
  [0, 19, 0], // C Y K
  [46, 49, 146], // C M
  [0, 0, 2], // C M K
  [54, 54, 57], // C M Y
  [0, 0, 0], // C M Y K
];

// sRGB primaries adapted to D50 (Bradford), the matrix ICC sRGB profiles carry; D50 white.
const M = [
  [0.4360747, 0.3850649, 0.1430804],
  [0.2225045, 0.7168786, 0.0606169],
  [0.0139322, 0.0971045, 0.7141733],
];
export const D50 = [0.9642, 1.0, 0.8249];

const srgbToLinear = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);

/** CMYK (0–1) → sRGB (0–1): the 16 ink combinations weighted by the area each covers (Neugebauer). */
export function cmykToRgb(c: number, m: number, y: number, k: number): [number, number, number] {
  const rgb: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < 16; i++) {
    const w = (i & 8 ? c : 1 - c) * (i & 4 ? m : 1 - m) * (i & 2 ? y : 1 - y) * (i & 1 ? k : 1 - k);
    if (w === 0) continue;
    for (let ch = 0; ch < 3; ch++) rgb[ch] += (w * CMYK_CORNERS[i][ch]) / 255;
  }
  return rgb;
}

/** CMYK (0–1) → CIE XYZ (D50, 0–~1). */
export function cmykToXyz(c: number, m: number, y: number, k: number): [number, number, number] {
  const rgb = cmykToRgb(c, m, y, k).map(srgbToLinear);
  return M.map((row) => row[0] * rgb[0] + row[1] * rgb[1] + row[2] * rgb[2]) as [number, number, number];
}

/** CMYK (0–1) → CIE L*a*b* (D50), the profile connection space of the table (interpolating in L*a*b* stays close to the viewer's interpolation in sRGB). */
export function cmykToLab(c: number, m: number, y: number, k: number): [number, number, number] {
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const [fx, fy, fz] = cmykToXyz(c, m, y, k).map((v, i) => f(v / D50[i]));
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

let cached: Uint8Array | undefined;

/** The profile bytes (built once). */
export function cmykProfile(): Uint8Array {
  cached ??= iccProfile({ cls: 'scnr', space: 'CMYK', pcs: 'Lab ' }, [
    ['desc', textDescription('einvoice-service CMYK (Neugebauer, process inks as PDF viewers draw them)')],
    ['cprt', text('No copyright, use freely')],
    ['wtpt', xyz(D50)],
    ['A2B0', lut16()],
  ]);
  return cached;
}

/** An ICC version 2.1 profile: the 128-byte header, the tag table and the tags (each padded to 4 bytes). */
export function iccProfile(head: { cls: string; space: string; pcs: string }, tags: [string, Buffer][]): Uint8Array {
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
  header.write(head.cls, 12, 'latin1');
  header.write(head.space, 16, 'latin1');
  header.write(head.pcs, 20, 'latin1');
  [2026, 1, 1, 0, 0, 0].forEach((v, i) => header.writeUInt16BE(v, 24 + i * 2));
  header.write('acsp', 36, 'latin1');
  header.writeUInt32BE(0, 64); // perceptual
  D50.forEach((v, i) => header.writeInt32BE(s15(v), 68 + i * 4));
  const count = Buffer.alloc(4);
  count.writeUInt32BE(tags.length, 0);
  return new Uint8Array(Buffer.concat([header, count, ...entries, ...bodies]));
}

const s15 = (v: number) => Math.round(v * 65536);

export function xyz(v: number[]): Buffer {
  const b = Buffer.alloc(20);
  b.write('XYZ ', 0, 'latin1');
  v.forEach((x, i) => b.writeInt32BE(s15(x), 8 + i * 4));
  return b;
}

export function text(s: string): Buffer {
  return Buffer.concat([Buffer.from('text\0\0\0\0', 'latin1'), Buffer.from(`${s}\0`, 'latin1')]);
}

export function textDescription(s: string): Buffer {
  const ascii = Buffer.from(`${s}\0`, 'latin1');
  const head = Buffer.alloc(12);
  head.write('desc', 0, 'latin1');
  head.writeUInt32BE(ascii.length, 8);
  // Unicode language code and count (0), ScriptCode code, count and its 67-byte field (0).
  return Buffer.concat([head, ascii, Buffer.alloc(4 + 4 + 2 + 1 + 67)]);
}

/** lut16Type CMYK → L*a*b*: identity curves (2 entries), the grid in the version 2 16-bit L*a*b* encoding. */
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
          const [L, a, b] = cmykToLab(c / (g - 1), m / (g - 1), y / (g - 1), k / (g - 1));
          // L* 0–100 → 0–0xFF00, a* and b* −128–127.996 → 0–0xFFFF.
          for (const v of [L * 652.8, (a + 128) * 256, (b + 128) * 256]) {
            clut.writeUInt16BE(Math.max(0, Math.min(0xffff, Math.round(v))), p);
            p += 2;
          }
        }
  return Buffer.concat([head, identity(4), clut, identity(3)]);
}
