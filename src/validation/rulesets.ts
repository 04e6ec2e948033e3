/**
 * Which rule sets apply to an invoice, chosen the way the reference validators choose them: from
 * the guideline identifier (CII BT-24) or CustomizationID (UBL) the invoice declares. The table is
 * the one behind the corpus verdicts (../shared/corpus/README.md, "Which rule sets are official").
 *
 * The French CTC layer (BR-FR) is opt-in and chosen elsewhere; this module only names the
 * EN 16931 / XRechnung / Factur-X sets.
 */
import type { RuleSetId, Syntax } from '../rules/types.js';
import { declaresExtendedCtcFr } from '../syntax/detect.js';

export interface RuleSetSelectionInput {
  syntax: Syntax;
  /** BT-24 exactly as in the document; null when absent. */
  guideline: string | null;
}

/** The profile / CIUS a guideline names, in the order the selection tests them. */
export type Flavor = 'xrechnung' | 'xrechnung_extension' | 'minimum' | 'basic_wl' | 'basic' | 'extended' | 'en16931' | 'extended_ctc_fr';

/** Peppol BIS 3.0 specification identifiers (CustomizationID prefixes), as Peppol access points tell the document types apart. */
const PEPPOL_BILLING = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
const PEPPOL_SELFBILLING = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:selfbilling:3.0';

/**
 * The Peppol document type a UBL CustomizationID names: billing or self-billing, when it starts with the Peppol
 * specification identifier (extensions append to it, as PEPPOL-EN16931-R004 allows). The ProfileID is not part of
 * the choice: a wrong or missing one is reported by PEPPOL-EN16931-R001 / R007 instead of skipping the rules.
 */
export function peppolDocumentType(syntax: Syntax, guideline: string | null): 'peppol' | 'peppol_selfbilling' | null {
  if (syntax !== 'ubl') return null;
  const g = (guideline ?? '').trim();
  if (g.startsWith(PEPPOL_BILLING)) return 'peppol';
  if (g.startsWith(PEPPOL_SELFBILLING)) return 'peppol_selfbilling';
  return null;
}

function classify(guideline: string | null): Flavor | null {
  const g = (guideline ?? '').trim().toLowerCase();
  if (g === '') return null;
  // The French extended profile (urn.cpro.gouv.fr:1p0:extended-ctc-fr) contains "extended": named before it.
  if (declaresExtendedCtcFr(g)) return 'extended_ctc_fr';
  if (g.includes('xrechnung'))
    return g.includes('#conformant#urn:xeinkauf.de:kosit:extension:xrechnung') ? 'xrechnung_extension' : 'xrechnung';
  if (g.includes('minimum')) return 'minimum';
  if (g.includes('basicwl')) return 'basic_wl';
  // "extended" is tested before "basic": no EXTENDED guideline contains "basic", but the order
  // keeps the two unambiguous should one ever do.
  if (g.includes('extended')) return 'extended';
  if (g.includes('basic')) return 'basic';
  if (g === 'urn:cen.eu:en16931:2017' || g.startsWith('urn:cen.eu:en16931:2017#')) return 'en16931';
  return null;
}

/**
 * The rule sets the official verdicts apply to an invoice of this syntax and guideline:
 * - guideline contains "xrechnung" → en16931-<syntax> + xrechnung-<syntax>;
 * - UBL whose CustomizationID starts with the Peppol BIS Billing 3.0 (Self-Billing 3.0) identifier → en16931-ubl +
 *   peppol-bis-3 (peppol-bis-3-selfbilling); the Peppol CII binding is not bundled, so CII keeps the choice below;
 * - CII "minimum" / "basicwl" → fx-minimum / fx-basicwl only (not EN 16931 invoices);
 * - CII "extended" → fx-extended only (it carries the EN 16931 rules adapted to EXTENDED);
 * - CII "basic" → en16931-cii + fx-basic;
 * - CII urn:cen.eu:en16931:2017 (exactly, or followed by "#…" not matched above) → en16931-cii + fx-en16931;
 * - anything else → en16931-<syntax>.
 * The Factur-X sets are CII-only: a UBL document naming a Factur-X profile gets the UBL EN 16931 rules.
 */
export function selectRuleSets(input: RuleSetSelectionInput): RuleSetId[] {
  const en = input.syntax === 'cii' ? 'en16931-cii' : 'en16931-ubl';
  const flavor = classify(input.guideline);
  if (flavor === 'xrechnung' || flavor === 'xrechnung_extension') return [en, `xrechnung-${input.syntax}`];
  const peppol = peppolDocumentType(input.syntax, input.guideline);
  if (peppol) return [en, peppol === 'peppol' ? 'peppol-bis-3' : 'peppol-bis-3-selfbilling'];
  // FNFE-MPE: the EXTENDED-CTC-FR profile is checked by its own schematron instead of the EN 16931 one (it carries the
  // EN 16931 rules adapted to the profile), in CII and UBL alike; BR-FR runs after it (src/validation/br-fr.ts).
  if (flavor === 'extended_ctc_fr') return [`extended-ctc-fr-${input.syntax}`];
  if (input.syntax !== 'cii') return [en];
  switch (flavor) {
    case 'minimum':
      return ['fx-minimum'];
    case 'basic_wl':
      return ['fx-basicwl'];
    case 'extended':
      return ['fx-extended'];
    case 'basic':
      return [en, 'fx-basic'];
    case 'en16931':
      return [en, 'fx-en16931'];
    default:
      return [en];
  }
}

/**
 * The result's `flavor`: the profile or CIUS the invoice declares (xrechnung, xrechnung_extension,
 * minimum, basic_wl, basic, en16931, extended; for UBL also peppol, peppol_selfbilling), matching what selectRuleSets chose. When BT-24 names
 * none of them, `fallback` (e.g. the profile ingest read from the PDF's XMP) is returned, else null.
 */
export function flavorOf(input: RuleSetSelectionInput & { fallback?: string | null }): string | null {
  const flavor = classify(input.guideline);
  if (flavor === 'xrechnung' || flavor === 'xrechnung_extension' || flavor === 'extended_ctc_fr') return flavor;
  const peppol = peppolDocumentType(input.syntax, input.guideline);
  if (peppol) return peppol;
  if (flavor !== null && input.syntax === 'cii') return flavor;
  return input.fallback ?? null;
}
