/**
 * ToUnicode CMaps (ISO 32000-1 9.10.3): what text each character code stands for, from `bfchar` and `bfrange`
 * sections. Writing one for codes → text. Read only as far as the repairs need: codes of one or two bytes, at most
 * MAX_ENTRIES mappings, ranges clipped to that count, so a hostile CMap costs bounded time and memory.
 */

export const MAX_ENTRIES = 65_536;

/** Code → text, for the codes the CMap maps. */
export function parseToUnicode(data: Uint8Array): Map<number, string> {
  const out = new Map<number, string>();
  const text = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1');
  const section = /begin(bfchar|bfrange)([\s\S]*?)end\1/g;
  for (let m = section.exec(text); m && out.size < MAX_ENTRIES; m = section.exec(text)) {
    const tokens = m[2].match(/<[0-9A-Fa-f\s]*>|\[|\]/g) ?? [];
    if (m[1] === 'bfchar') {
      for (let i = 0; i + 1 < tokens.length && out.size < MAX_ENTRIES; i += 2) {
        const code = hexNumber(tokens[i]);
        const dst = hexText(tokens[i + 1]);
        if (code !== undefined && dst !== undefined) out.set(code, dst);
      }
      continue;
    }
    for (let i = 0; i + 2 < tokens.length && out.size < MAX_ENTRIES; ) {
      const lo = hexNumber(tokens[i]);
      const hi = hexNumber(tokens[i + 1]);
      if (lo === undefined || hi === undefined) break;
      if (tokens[i + 2] === '[') {
        let k = i + 3;
        for (let code = lo; k < tokens.length && tokens[k] !== ']'; k++, code++) {
          const dst = hexText(tokens[k]);
          if (dst !== undefined && code <= hi && out.size < MAX_ENTRIES) out.set(code, dst);
        }
        i = k + 1;
        continue;
      }
      const start = hexText(tokens[i + 2]);
      i += 3;
      if (start === undefined || hi < lo) continue;
      // The last UTF-16 unit counts up over the range (9.10.3).
      const units = [...start].map((c) => c.charCodeAt(0));
      const head = String.fromCharCode(...units.slice(0, -1));
      const last = start.charCodeAt(start.length - 1);
      for (let code = lo; code <= hi && out.size < MAX_ENTRIES; code++) {
        const unit = last + (code - lo);
        if (unit > 0xffff) break;
        out.set(code, head + String.fromCharCode(unit));
      }
    }
  }
  return out;
}

function hexNumber(token: string): number | undefined {
  const hex = token.replace(/[<>\s]/g, '');
  if (hex.length === 0 || hex.length > 8 || token[0] !== '<') return undefined;
  return Number.parseInt(hex, 16);
}

/** A destination string: UTF-16BE in hex. */
function hexText(token: string): string | undefined {
  if (token[0] !== '<') return undefined;
  let hex = token.replace(/[<>\s]/g, '');
  if (hex.length === 0 || hex.length > 512) return undefined;
  if (hex.length % 4 === 2) hex = `00${hex}`; // one-byte destination: a Latin-1 code
  if (hex.length % 4 !== 0) return undefined;
  let s = '';
  for (let i = 0; i < hex.length; i += 4) s += String.fromCharCode(Number.parseInt(hex.slice(i, i + 4), 16));
  return s;
}

/** A ToUnicode CMap for codes of `bytes` bytes (1 for simple fonts, 2 for Identity-H/V). */
export function writeToUnicode(map: Map<number, string>, bytes: 1 | 2): Uint8Array {
  const hex = (n: number, digits: number) => n.toString(16).toUpperCase().padStart(digits, '0');
  const utf16 = (s: string) =>
    [...s]
      .map((c) => {
        const cp = c.codePointAt(0)!;
        if (cp <= 0xffff) return hex(cp, 4);
        const v = cp - 0x10000;
        return hex(0xd800 + (v >> 10), 4) + hex(0xdc00 + (v & 0x3ff), 4);
      })
      .join('');
  const entries = [...map].filter(([, s]) => s.length > 0).sort((a, b) => a[0] - b[0]);
  const lines = [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    bytes === 1 ? '<00> <FF>' : '<0000> <FFFF>',
    'endcodespacerange',
  ];
  for (let i = 0; i < entries.length; i += 100) {
    const chunk = entries.slice(i, i + 100);
    lines.push(`${chunk.length} beginbfchar`);
    for (const [code, s] of chunk) lines.push(`<${hex(code, bytes * 2)}> <${utf16(s)}>`);
    lines.push('endbfchar');
  }
  lines.push('endcmap', 'CMapName currentdict /CMap defineresource pop', 'end', 'end');
  return new TextEncoder().encode(lines.join('\n'));
}
