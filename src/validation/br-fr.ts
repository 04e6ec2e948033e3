/**
 * French CTC layer (`br_fr_ctc`): the FNFE-MPE "BR-FR-Flux2" rules of the French e-invoicing reform
 * (AFNOR XP Z12-012), selectable per request by edition.
 *
 * How a caller opts in (the rules apply to invoices of sellers VAT-registered in France, and only the
 * caller knows that an invoice is in scope):
 * - POST /v1/validate with the form field `rules=br_fr_ctc` (a comma-separated list of extra rule
 *   layers), optionally `br_fr_edition=1.2.0 | 1.4 | 1.4-warning` (default {@link DEFAULT_BR_FR_EDITION});
 * - or automatically when the invoice itself declares the French CTC context: a guideline
 *   (BT-24 / CustomizationID) naming the French EXTENDED-CTC-FR profile ({@link declaresFrenchCtc}).
 * The layer never runs on Factur-X MINIMUM (FNFE applies BR-FR to BASIC WL, EN16931, EXTENDED and
 * the CII/UBL EN16931 / EXTENDED-CTC-FR profiles) nor on documents that are not CII or UBL.
 * The result reports layer `br_fr_ctc` in layers_executed and the edition that ran.
 *
 * Editions:
 * - `1.2.0`: release 2025-11-14, every assert a warning (non-blocking);
 * - `1.4` (standard edition of release 1.4.x): every assert an error; FNFE-MPE makes it mandatory
 *   for sending from 1 September 2026 — the current edition and the default;
 * - `1.4-warning`: the 1.4.x WARNING edition (transition): multi-vendor / bidirectional rules
 *   (BR-FR-MV-*, BR-FR-BD-*) errors, all others warnings.
 */
import { runRuleSet } from '../rules/engine.js';
import type { Finding, RuleContext, RuleSetId, Syntax } from '../rules/types.js';
import '../rules/br-fr/index.js'; // registers the br-fr-* rule sets
import { BR_FR_LAYER, DEFAULT_BR_FR_EDITION, type BrFrEdition } from './br-fr-edition.js';

export { BR_FR_EDITIONS, BR_FR_LAYER, DEFAULT_BR_FR_EDITION, parseBrFrEdition, type BrFrEdition } from './br-fr-edition.js';

/** The registered rule set that implements an edition for a syntax (e.g. `br-fr-1.4-cii`). */
export function brFrRuleSet(edition: BrFrEdition, syntax: Syntax): RuleSetId {
  switch (edition) {
    case '1.2.0':
      return `br-fr-1.2-${syntax}`;
    case '1.4':
      return `br-fr-1.4-${syntax}`;
    case '1.4-warning':
      return `br-fr-1.4-warning-${syntax}`;
  }
}

export interface BrFrApplicabilityInput {
  /** Syntax of the invoice XML ('cii' | 'ubl'; anything else is not applicable). */
  syntax: string | null | undefined;
  /** Profile detected by ingest() (e.g. 'minimum', 'basic_wl', 'en16931', 'extended'). */
  profile?: string | null;
  /** BT-24 / CustomizationID as in the document. */
  guideline?: string | null;
}

/** Why the layer cannot run on this invoice, or null when it can. */
export function brFrNotApplicableReason(input: BrFrApplicabilityInput): string | null {
  if (input.syntax !== 'cii' && input.syntax !== 'ubl') return 'the French CTC rules exist for CII and UBL invoices only';
  const guideline = (input.guideline ?? '').toLowerCase();
  if (input.profile === 'minimum' || (guideline.includes('minimum') && !guideline.includes('xrechnung'))) {
    return 'Factur-X MINIMUM is not subject to the French CTC rules';
  }
  return null;
}

/** Whether the BR-FR rules can run on this invoice (CII or UBL, not Factur-X MINIMUM). */
export function brFrApplies(input: BrFrApplicabilityInput): boolean {
  return brFrNotApplicableReason(input) === null;
}

/** The invoice declares the French CTC context itself: its guideline names the EXTENDED-CTC-FR profile. */
export function declaresFrenchCtc(guideline: string | null | undefined): boolean {
  const g = (guideline ?? '').toLowerCase();
  return g.includes('extended-ctc-fr') || g.includes('cpro.gouv.fr');
}

/** Was the layer asked for in a `rules` form field ("br_fr_ctc", comma- or space-separated list)? */
export function brFrRequested(rulesField: string | undefined | null): boolean {
  return (rulesField ?? '')
    .split(/[\s,]+/)
    .map((s) => s.trim().toLowerCase())
    .includes(BR_FR_LAYER);
}

export interface BrFrResult {
  layer: typeof BR_FR_LAYER;
  edition: BrFrEdition;
  ruleSet: RuleSetId;
  findings: Finding[];
}

/** Run the layer: the edition's rule set for the document's syntax. The caller checks brFrApplies first. */
export function runBrFr(ctx: RuleContext, edition: BrFrEdition = DEFAULT_BR_FR_EDITION): BrFrResult {
  const ruleSet = brFrRuleSet(edition, ctx.syntax);
  return { layer: BR_FR_LAYER, edition, ruleSet, findings: runRuleSet(ruleSet, ctx) };
}
