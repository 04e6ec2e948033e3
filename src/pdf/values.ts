/**
 * PDF object values as our readers see them (the lazy reader, the decryption of crypt.ts, the PDF/A checker), and
 * the type tests on them: the bottom of src/pdf, imported by the reader and by what the reader uses.
 */
export type PdfValue = null | boolean | number | PdfString | PdfNameValue | PdfValue[] | PdfDictValue | PdfRefValue | PdfStreamValue;
export interface PdfString {
  kind: 'string';
  bytes: Uint8Array;
}
export interface PdfNameValue {
  kind: 'name';
  name: string;
}
export interface PdfRefValue {
  kind: 'ref';
  num: number;
  gen: number;
}
export interface PdfDictValue {
  kind: 'dict';
  map: Map<string, PdfValue>;
}
export interface PdfStreamValue {
  kind: 'stream';
  dict: PdfDictValue;
  /** Raw (still encoded) bytes. */
  raw: Uint8Array;
}

export function isDict(v: PdfValue | undefined): v is PdfDictValue {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && v.kind === 'dict';
}
export function isStream(v: PdfValue | undefined): v is PdfStreamValue {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && v.kind === 'stream';
}
export function isRef(v: PdfValue | undefined): v is PdfRefValue {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && v.kind === 'ref';
}
export function nameOf(v: PdfValue | undefined): string | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && v.kind === 'name' ? v.name : undefined;
}
