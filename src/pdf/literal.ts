/**
 * A PDF literal string `( … )`, shared by the lazy reader (lazy.ts) and the PDF/A lexer (src/pdfa/lexer.ts).
 * Two passes over typed arrays: find the closing parenthesis (nesting and escapes), then copy, or decode the
 * escapes into one buffer of the span's size. Pushing byte by byte into a JS array took ~0.4 s per MB on the
 * event loop (a 5 MB /Lang string held /health for seconds).
 */

/** `start` is the index of the opening parenthesis. Undefined when the string is not terminated before `end`. */
export function readLiteralString(b: Uint8Array, start: number, end: number): { bytes: Uint8Array; next: number } | undefined {
  let i = start + 1;
  let depth = 1;
  let escapes = false;
  while (i < end) {
    const c = b[i];
    if (c === 0x5c) {
      escapes = true;
      i += 2;
      continue;
    }
    if (c === 0x28) depth++;
    else if (c === 0x29 && --depth === 0) break;
    i++;
  }
  if (i >= end) return undefined;
  if (!escapes) return { bytes: b.slice(start + 1, i), next: i + 1 };
  const out = new Uint8Array(i - start - 1);
  let n = 0;
  for (let p = start + 1; p < i; ) {
    const c = b[p++];
    if (c !== 0x5c) {
      out[n++] = c;
      continue;
    }
    const e = b[p++];
    if (e === 0x6e) out[n++] = 10;
    else if (e === 0x72) out[n++] = 13;
    else if (e === 0x74) out[n++] = 9;
    else if (e === 0x62) out[n++] = 8;
    else if (e === 0x66) out[n++] = 12;
    else if (e >= 0x30 && e <= 0x37) {
      let v = e - 0x30;
      for (let k = 0; k < 2 && p < i && b[p] >= 0x30 && b[p] <= 0x37; k++) v = v * 8 + (b[p++] - 0x30);
      out[n++] = v & 0xff;
    } else if (e === 0x0d) {
      if (b[p] === 0x0a) p++;
    } else if (e !== 0x0a) out[n++] = e; // \( \) \\ and an unknown escape: the byte itself
  }
  return { bytes: out.slice(0, n), next: i + 1 };
}
