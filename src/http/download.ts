/** Content-Disposition for generated files. */

/** `attachment; filename="…"` (ASCII only after fileStem in src/lib/file-names.ts, so no filename* form is needed). */
export function attachmentDisposition(fileName: string): string {
  return `attachment; filename="${fileName.replace(/["\\]/g, '_')}"`;
}
