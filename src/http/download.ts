/** Content-Disposition for generated files. */

/** `attachment; filename="…"` (ASCII only after fileStem in src/lib/file-names.ts, so no filename* form is needed). */
export function attachmentDisposition(fileName: string): string {
  return `attachment; filename="${fileName.replace(/["\\]/g, '_')}"`;
}

/**
 * `inline; filename="…"` for a name taken from the input (an attachment's name in a PDF): printable ASCII in
 * `filename`, the name itself in `filename*` (RFC 6266 / 8187) when it has other characters.
 */
export function inlineDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const star = /[^\x20-\x7e]/.test(fileName) ? `; filename*=UTF-8''${encodeURIComponent(fileName)}` : '';
  return `inline; filename="${ascii}"${star}`;
}
