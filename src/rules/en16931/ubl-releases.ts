/**
 * Older releases of the EN 16931 UBL artefacts (CEN/TC 434 validation artefacts), as differences from the 1.3.16
 * ones `en16931-ubl` implements: the releases OpenPeppol bundles with its older BIS Billing releases, so that a
 * Peppol invoice checked with `peppol_version=2025.11` or `2025.5` gets what the official Peppol validation of that
 * release reports (src/validation/validate.ts picks them; they never run on other invoices).
 *
 * What differs, read from the artefacts (ConnectingEurope/eInvoicing-EN16931 tags validation-1.3.14.1, -1.3.15,
 * -1.3.16, `ubl/schematron/preprocessed`, and the CEN-EN16931-UBL.sch OpenPeppol ships with 2025.5, 2025.11 and 2026.5,
 * compared assert by assert: context, test, flag):
 * - code lists: ISO 4217 (BR-CL-03/04/05), ISO 6523 ICD (BR-CL-10/11/21/26), CEF EAS (BR-CL-25), VATEX (BR-CL-22),
 *   and BR-CL-01, where 1.3.16 moved the type codes 502 and 503 from the invoice to the credit note list;
 * - rules 1.3.16 removed (BR-CO-25), added (UBL-SR-56), or restated (BR-CO-26 no longer counts a SEPA creditor
 *   identifier, BR-B-02 looks for S in the VAT breakdown, UBL-SR-23 and UBL-CR-674 name the right elements);
 * - 1.3.15 renamed BR-66 / BR-67 to UBL-SR-54 / UBL-SR-55 (same tests) and dropped UBL-CR-631 (UBL-CR-628's test).
 * OpenPeppol's 2025.11 copy of 1.3.15 adds ICD and EAS 0245 to the CEN lists; its 2025.5 copy is 1.3.14.1 exactly,
 * its 2026.5 copy 1.3.16 exactly.
 */
import { elementsNamedAnywhere, pathOf, type XmlElement } from '../../xml/dom.js';
import { NS } from '../../xml/namespaces.js';
import { ublSyntaxRules, ublTableRules } from '../../syntax/ubl/rules.js';
import { registerLazyRuleSet } from '../engine.js';
import type { Rule, RuleContext, Violation } from '../types.js';
import { bundledCodeLists, buildCodeListRules, type CodeListSource } from './codes.js';
import { EN16931_RULE_DEFS, EN16931_UBL } from './index.js';
import { forSyntax, NO_VIOLATIONS, type RuleDef } from './helpers.js';

/** The bundled EN 16931 UBL artefact releases, newest (the default, `en16931-ubl`) first. */
export const EN16931_UBL_RELEASES = ['1.3.16', '1.3.15', '1.3.14.1'] as const;
export type En16931UblRelease = (typeof EN16931_UBL_RELEASES)[number];
export const DEFAULT_EN16931_UBL_RELEASE: En16931UblRelease = '1.3.16';

type OlderRelease = Exclude<En16931UblRelease, '1.3.16'>;

/** How a list differs from 1.3.16's: codes it has that 1.3.16 has not, and the reverse. */
interface ListDelta {
  add?: readonly string[];
  remove?: readonly string[];
}

interface ReleaseDelta {
  /** Per BR-CL rule: its list's differences; `lists` per alternative list (BR-CL-01: invoice, credit note). */
  codes: Record<string, ListDelta & { lists?: readonly ListDelta[] }>;
  /** Syntax table rows as this release states them (./rules-table.ts notation), replacing the rows of their ids. */
  syntaxRows: string;
  /** Rule ids 1.3.16 has and this release has not. */
  absent: readonly string[];
  /** Rule ids this release gives asserts 1.3.16 reports under another id (same test). */
  renamed: Record<string, string>;
}

const ICD_1_3_16_ONLY = ['0246', '0247', '0248'];
const ICD_SINCE_1_3_15 = ['0241', '0242', '0243', '0244', '0245', ...ICD_1_3_16_ONLY];
/** 1.3.16 moved these from the invoice type codes to the credit note type codes (BR-CL-01). */
const TYPE_CODES_MOVED = { lists: [{ add: ['502', '503'] }, { remove: ['502', '503'] }] };
/** The rows 1.3.16 corrected: UBL-SR-23 counted Party/PartyTaxScheme under the tax representative (it has no Party). */
const ROWS_BEFORE_1_3_16 = `
ctx TAXREP
r23 <=1 Party/PartyTaxScheme/b:CompanyID
ctx ROOT
c674 //b:PrimaryAccountNumber/@schemeID
`;

const DELTAS: Record<OlderRelease, ReleaseDelta> = {
  // As OpenPeppol 2025.11 ships it: CEN 1.3.15 with ICD / EAS 0245 added.
  '1.3.15': {
    codes: {
      'BR-CL-01': TYPE_CODES_MOVED,
      'BR-CL-03': { add: ['ANG', 'BGN'], remove: ['XCG'] },
      'BR-CL-04': { add: ['ANG', 'BGN'], remove: ['XCG'] },
      'BR-CL-05': { add: ['ANG', 'BGN'], remove: ['XCG'] },
      'BR-CL-10': { remove: ICD_1_3_16_ONLY, lists: [{ remove: ICD_1_3_16_ONLY }] },
      'BR-CL-11': { remove: ICD_1_3_16_ONLY },
      'BR-CL-21': { remove: ICD_1_3_16_ONLY },
      'BR-CL-26': { remove: ICD_1_3_16_ONLY },
      'BR-CL-25': { remove: ['0242', '0246', '0248'] },
    },
    syntaxRows: ROWS_BEFORE_1_3_16,
    absent: ['UBL-SR-56'],
    renamed: {},
  },
  '1.3.14.1': {
    codes: {
      'BR-CL-01': TYPE_CODES_MOVED,
      'BR-CL-03': { add: ['ANG', 'BGN', 'CUC', 'MRO'], remove: ['CNH', 'MRU', 'UYW', 'XCG'] },
      'BR-CL-04': { add: ['ANG', 'BGN', 'CUC', 'MRO'], remove: ['CNH', 'MRU', 'UYW', 'XCG'] },
      'BR-CL-05': { add: ['ANG', 'BGN', 'CUC', 'MRO'], remove: ['CNH', 'MRU', 'UYW', 'XCG'] },
      'BR-CL-10': { remove: ICD_SINCE_1_3_15, lists: [{ remove: ICD_SINCE_1_3_15 }] },
      'BR-CL-11': { remove: ICD_SINCE_1_3_15 },
      'BR-CL-21': { remove: ICD_SINCE_1_3_15 },
      'BR-CL-26': { remove: ICD_SINCE_1_3_15 },
      'BR-CL-22': { remove: ['VATEX-EU-135-1'] },
      'BR-CL-25': { remove: ['0242', '0244', '0245', '0246', '0248'] },
    },
    syntaxRows: `${ROWS_BEFORE_1_3_16}
ctx ROOT
in LINE
c631 Price/b:OrderableUnitFactorRate
`,
    absent: ['UBL-SR-56'],
    renamed: { 'UBL-SR-54': 'BR-66', 'UBL-SR-55': 'BR-67' },
  },
};

function applyDelta(base: ReadonlySet<string>, delta: ListDelta | undefined): ReadonlySet<string> {
  if (!delta) return base;
  const out = new Set(base);
  for (const c of delta.remove ?? []) out.delete(c);
  for (const c of delta.add ?? []) out.add(c);
  return out;
}

/** The code lists of a release: 1.3.16's with the release's differences (UBL only: no CII release is bundled here). */
function codeListsOf(release: OlderRelease): CodeListSource {
  const { codes } = DELTAS[release];
  const cache = new Map<string, ReadonlySet<string> | undefined>();
  return (syntax, id, listIndex) => {
    const key = `${syntax} ${id} ${listIndex ?? ''}`;
    if (cache.has(key)) return cache.get(key);
    const base = bundledCodeLists(syntax, id, listIndex);
    const delta = syntax !== 'ubl' ? undefined : listIndex === undefined ? codes[id] : codes[id]?.lists?.[listIndex];
    const set = base && applyDelta(base, delta);
    cache.set(key, set);
    return set;
  };
}

// ---------------------------------------------------------------------------------------------
// The business rules 1.3.16 removed or restated, as the older artefacts state them.

const cbcNamed = (ctx: RuleContext, local: string) => elementsNamedAnywhere(ctx.doc, local).filter((e) => e.ns === NS.cbc);
const cacChildren = (el: XmlElement | undefined, local: string) =>
  el ? el.children.filter((c) => c.local === local && c.ns === NS.cac) : [];
const cbcChildren = (el: XmlElement | undefined, local: string) =>
  el ? el.children.filter((c) => c.local === local && c.ns === NS.cbc) : [];
const isInvoiceRoot = (el: XmlElement) => el.parent === null && el.local === 'Invoice' && el.ns === NS.ubl;

/** XPath's cast of a value to xs:double for `. > 0` (undefined: not castable, a dynamic error stops the official XSLT). */
function asDouble(text: string): number | undefined {
  const t = text.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
  if (t === 'NaN') return Number.NaN;
  if (t === 'INF') return Number.POSITIVE_INFINITY;
  if (t === '-INF') return Number.NEGATIVE_INFINITY;
  return /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(t) ? Number(t) : undefined;
}

/**
 * BR-CO-25 (before 1.3.16), context `/ubl:Invoice/cac:LegalMonetaryTotal/cbc:PayableAmount`: a positive amount due
 * needs a payment due date or payment terms, `((. > 0) and (exists(//cbc:DueDate) or exists(//cac:PaymentTerms/cbc:Note)))
 * or (. <= 0)`; a NaN amount fails both comparisons. Credit notes are not in its context.
 */
const brCo25: RuleDef = {
  id: 'BR-CO-25',
  message: 'A positive amount due for payment (BT-115) needs a payment due date (BT-9) or payment terms (BT-20).',
  check: (ctx) => {
    const root = ctx.doc.root;
    if (!isInvoiceRoot(root)) return NO_VIOLATIONS;
    const amounts = cacChildren(root, 'LegalMonetaryTotal').flatMap((t) => cbcChildren(t, 'PayableAmount'));
    if (amounts.length === 0) return NO_VIOLATIONS;
    const termsGiven =
      cbcNamed(ctx, 'DueDate').length > 0 ||
      elementsNamedAnywhere(ctx.doc, 'PaymentTerms').some((t) => t.ns === NS.cac && cbcChildren(t, 'Note').length > 0);
    let out: Violation[] | undefined;
    for (const a of amounts) {
      const v = asDouble(a.text);
      if (v === undefined) continue;
      if (!((v > 0 && termsGiven) || v <= 0)) (out ??= []).push({ location: pathOf(a) });
    }
    return out ?? NO_VIOLATIONS;
  },
};

/** The seller's party identifiers, SEPA creditor identifiers included (BR-CO-26 before 1.3.16 counted them). */
const sellerPartyIds = (ctx: RuleContext) =>
  cacChildren(ctx.doc.root, 'AccountingSupplierParty')
    .flatMap((s) => cacChildren(s, 'Party'))
    .flatMap((p) => cacChildren(p, 'PartyIdentification'))
    .flatMap((pi) => cbcChildren(pi, 'ID'));

/** `cbc:ID = 'X'` of the tax categories a path reaches (general comparison: exact text). */
const categoryIs = (categories: XmlElement[], code: string) => categories.some((c) => cbcChildren(c, 'ID').some((id) => id.text === code));

/**
 * BR-B-02 before 1.3.16: its test for a standard rated breakdown read `cac:TaxTotal/cac:TaxSubtotal/cbc:ID = 'S'`
 * (an element UBL does not have), so only document level allowances and charges and invoice lines counted as S.
 */
function brB02Before1316(ctx: RuleContext): readonly Violation[] {
  const root = ctx.doc.root;
  const docAcCategories = cacChildren(root, 'AllowanceCharge').flatMap((a) => cacChildren(a, 'TaxCategory'));
  const lineCategories = elementsNamedAnywhere(ctx.doc, 'ClassifiedTaxCategory').filter((c) => c.ns === NS.cac);
  const subtotals = cacChildren(root, 'TaxTotal').flatMap((t) => cacChildren(t, 'TaxSubtotal'));
  const b =
    categoryIs(
      subtotals.flatMap((s) => cacChildren(s, 'TaxCategory')),
      'B',
    ) ||
    categoryIs(docAcCategories, 'B') ||
    categoryIs(lineCategories, 'B');
  const s =
    subtotals.some((st) => cbcChildren(st, 'ID').some((id) => id.text === 'S')) ||
    categoryIs(docAcCategories, 'S') ||
    categoryIs(lineCategories, 'S');
  return b && s ? [{ location: pathOf(root) }] : NO_VIOLATIONS;
}

/** The business rule definitions of a release. */
function businessDefs(release: OlderRelease): RuleDef[] {
  const codeRules = new Map(buildCodeListRules(codeListsOf(release)).map((d) => [d.id, d]));
  const defs: RuleDef[] = [];
  for (const d of EN16931_RULE_DEFS) {
    const own = codeRules.get(d.id);
    if (own) defs.push(own);
    else if (d.id === 'BR-CO-26')
      // Before 1.3.16 any party identifier of the seller counted, a SEPA creditor identifier too.
      defs.push({ ...d, check: (ctx) => (ctx.syntax === 'ubl' && sellerPartyIds(ctx).length > 0 ? NO_VIOLATIONS : d.check(ctx)) });
    else if (d.id === 'BR-B-02') defs.push({ ...d, check: brB02Before1316 });
    else defs.push(d);
    if (d.id === 'BR-CO-24') defs.push(brCo25); // where the older artefacts list it
  }
  return defs;
}

/** The `en16931-ubl` rule table of an older release. */
export function buildEn16931UblRules(release: OlderRelease): Rule[] {
  const delta = DELTAS[release];
  const restated = ublTableRules(delta.syntaxRows);
  const replaced = new Set([...restated.map((r) => r.id), ...delta.absent]);
  const syntax: Rule[] = [];
  for (const r of ublSyntaxRules) {
    if (replaced.has(r.id)) continue;
    syntax.push(delta.renamed[r.id] ? { ...r, reportId: delta.renamed[r.id] } : r);
  }
  return [...syntax, ...restated, ...forSyntax(businessDefs(release), 'ubl')];
}

/** The registry key of the `en16931-ubl` set of a release (the plain id for the default). */
export function en16931UblRegistryId(release: En16931UblRelease): string {
  return release === DEFAULT_EN16931_UBL_RELEASE ? EN16931_UBL : `${EN16931_UBL}@${release}`;
}

for (const r of EN16931_UBL_RELEASES)
  if (r !== DEFAULT_EN16931_UBL_RELEASE) registerLazyRuleSet(en16931UblRegistryId(r), () => buildEn16931UblRules(r));
