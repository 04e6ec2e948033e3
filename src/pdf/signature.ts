/**
 * Is the PDF digitally signed? Embedding an invoice XML rewrites the file (pdf-lib saves it whole, not as an
 * incremental update), which silently breaks every signature in it: /v1/convert and /v1/merge refuse a signed
 * PDF unless the caller says the signature may go (allow_signature_invalidation).
 *
 * What counts (ISO 32000-1 §12.7.4.5, §12.8): a signature field (/FT /Sig) with a value (/V), a /Perms dictionary
 * (/DocMDP certification, /UR3 usage rights). The AcroForm's /SigFlags does not: forms with an empty signature
 * field to be signed later set SignaturesExist too, and such a PDF has no signature to lose (it was refused before). When the structure
 * cannot be followed, a signature dictionary in the raw bytes (/Type /Sig with a /ByteRange) decides (when it can,
 * an orphan signature dictionary, e.g. left behind in an older revision, does not count: the document is not signed).
 * Bounded: the field walk has a node and depth cap and a visited set; the raw test is two linear searches.
 */
import { isDict, isRef, nameOf, textOfString, type LazyPdf, type PdfDictValue, type PdfValue } from './lazy.js';

const MAX_FIELD_NODES = 5_000;
const MAX_FIELD_DEPTH = 32;

/** Why the PDF counts as signed (for the answer), or undefined. `pdf` is the file opened by the lazy reader, when it could be. */
export function signatureIn(bytes: Uint8Array, pdf: LazyPdf | undefined): string | undefined {
  if (pdf) {
    try {
      return structuralSignature(pdf);
    } catch {
      // A structure too big or too broken to follow here (a limit, a bad object): the raw test decides.
    }
  }
  return rawSignature(bytes);
}

function structuralSignature(pdf: LazyPdf): string | undefined {
  const catalog = pdf.resolve(pdf.trailer.map.get('Root'));
  if (!isDict(catalog)) return undefined;
  const perms = pdf.resolve(catalog.map.get('Perms'));
  if (isDict(perms)) {
    if (perms.map.has('DocMDP')) return 'it carries a certification signature (/Perms /DocMDP)';
    if (perms.map.has('UR3')) return 'it carries a usage-rights signature (/Perms /UR3)';
  }
  const form = pdf.resolve(catalog.map.get('AcroForm'));
  if (!isDict(form)) return undefined;
  const fields = pdf.resolve(form.map.get('Fields'));
  if (Array.isArray(fields)) {
    const seen = new Set<PdfDictValue>();
    const stack: { v: PdfValue; depth: number; name: string }[] = fields.map((v) => ({ v, depth: 0, name: '' }));
    while (stack.length > 0) {
      const { v, depth, name: parentName } = stack.pop()!;
      const field = pdf.resolve(v);
      if (!isDict(field) || seen.has(field) || depth > MAX_FIELD_DEPTH) continue;
      seen.add(field);
      if (seen.size > MAX_FIELD_NODES) break;
      const partial = textOfString(pdf.resolve(field.map.get('T')));
      const name = partial === undefined ? parentName : parentName ? `${parentName}.${partial}` : partial;
      if (nameOf(pdf.resolve(field.map.get('FT'))) === 'Sig') {
        const value = field.map.get('V');
        if (isDict(pdf.resolve(value)) || isRef(value))
          return name ? `its signature field "${name}" is signed` : 'one of its signature fields is signed';
      }
      const kids = pdf.resolve(field.map.get('Kids'));
      if (Array.isArray(kids)) for (const k of kids) stack.push({ v: k, depth: depth + 1, name });
    }
  }
  return undefined;
}

/** A signature dictionary in the bytes: "/Type /Sig" (or /DocTimeStamp) and a "/ByteRange [" both present. */
function rawSignature(bytes: Uint8Array): string | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const at = buf.indexOf('/ByteRange', 0, 'latin1');
  if (at < 0) return undefined;
  const text = buf.toString('latin1');
  if (/\/ByteRange\s*\[/.test(text) && /\/Type\s*\/(Sig|DocTimeStamp)\b/.test(text))
    return 'it contains a signature dictionary (/ByteRange)';
  return undefined;
}
