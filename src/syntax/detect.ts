/**
 * What kind of invoice is this: syntax from the root element's namespace, profile from the guideline
 * identifier (BT-24: CII GuidelineSpecifiedDocumentContextParameter, UBL CustomizationID), format from
 * the guideline and, for PDFs, from the XMP extension schema and the attachment's file name.
 */
import type { ProfileId } from '../model/profiles.js';
import type { XmpInfo } from '../pdf/xmp.js';
import { child, type XmlElement } from '../xml/dom.js';
import { textOf } from './reader-helpers.js';
import { CII_NS, ZUGFERD1_NS, isCiiRoot, isZugferd1Root } from './cii/reader.js';
import { UBL_NS, isUblRoot } from './ubl/reader.js';

/** Invoice syntax. `zugferd1` is the pre-EN 16931 CrossIndustryDocument (ZUGFeRD 1.0): read best-effort only. */
export type InvoiceSyntax = 'cii' | 'ubl' | 'zugferd1';

/** Format names used in API answers. */
export type InvoiceFormat = 'factur-x' | 'zugferd' | 'xrechnung' | 'ubl';

/** Syntax of a document by its root element (namespace URI + local name); undefined for anything else. */
export function detectSyntax(root: XmlElement): InvoiceSyntax | undefined {
  if (isCiiRoot(root)) return 'cii';
  if (isUblRoot(root)) return 'ubl';
  if (isZugferd1Root(root)) return 'zugferd1';
  return undefined;
}

/** BT-24 as written, read straight from the document (no model needed); null when absent. */
export function readGuideline(root: XmlElement, syntax: InvoiceSyntax): string | null {
  if (syntax === 'ubl') {
    const el = child(root, UBL_NS.cbc, 'CustomizationID');
    return el ? textOf(el).trim() : null;
  }
  const ns = syntax === 'cii' ? CII_NS : ZUGFERD1_NS;
  const context = child(root, ns.rsm, syntax === 'cii' ? 'ExchangedDocumentContext' : 'SpecifiedExchangedDocumentContext');
  const id = child(child(context, ns.ram, 'GuidelineSpecifiedDocumentContextParameter'), ns.ram, 'ID');
  return id ? textOf(id).trim() : null;
}

/**
 * Profile from a guideline identifier, by the same reading the reference validators use (see the corpus
 * README): EXTENDED-CTC-FR, xrechnung, then minimum / basicwl / extended / basic, then plain EN 16931. ZUGFeRD 1.0 guideline
 * ids ("urn:ferd:…") name no EN 16931 profile, so they give null.
 */
export function profileFromGuideline(guideline: string | null | undefined): ProfileId | null {
  if (!guideline) return null;
  const g = guideline.trim().toLowerCase();
  if (g.startsWith('urn:ferd:')) return null;
  // The French EXTENDED-CTC-FR profile (CII or UBL) contains "extended" but is not Factur-X EXTENDED: named first.
  if (declaresExtendedCtcFr(g)) return 'extended_ctc_fr';
  if (g.includes('xrechnung')) return 'xrechnung';
  if (g.includes('minimum')) return 'minimum';
  if (g.includes('basicwl')) return 'basic_wl';
  if (g.includes('extended')) return 'extended';
  if (g.includes('basic')) return 'basic';
  if (g.startsWith('urn:cen.eu:en16931:2017')) return 'en16931';
  return null;
}

/** The (lower-cased) guideline names the French EXTENDED-CTC-FR profile (`urn.cpro.gouv.fr:1p0:extended-ctc-fr`). */
export function declaresExtendedCtcFr(g: string): boolean {
  return g.includes('extended-ctc-fr') || g.includes('cpro.gouv.fr');
}

/** Profile from the XMP fx:ConformanceLevel ("MINIMUM", "BASIC WL", "BASIC", "EN 16931", "EXTENDED", "XRECHNUNG"). */
export function profileFromConformanceLevel(level: string | undefined): ProfileId | null {
  if (!level) return null;
  const l = level
    .trim()
    .toUpperCase()
    .replace(/[\s_-]+/g, '');
  switch (l) {
    case 'MINIMUM':
      return 'minimum';
    case 'BASICWL':
      return 'basic_wl';
    case 'BASIC':
      return 'basic';
    case 'EN16931':
    case 'COMFORT': // ZUGFeRD 2.0's name for EN 16931
      return 'en16931';
    case 'EXTENDED':
      return 'extended';
    case 'XRECHNUNG':
      return 'xrechnung';
    default:
      return null;
  }
}

export interface FormatClues {
  syntax?: InvoiceSyntax;
  guideline?: string | null;
  /** PDF only: the attachment the XML came from. */
  attachmentName?: string;
  /**
   * PDF only: the XMP metadata, asked for only when the name does not decide (parsing it costs). A function,
   * not a getter in an object literal: V8 gives every literal with its own getter closure a hidden class of
   * its own in the old generation, which kept each request's document alive through young-generation GCs.
   */
  readonly xmp?: () => XmpInfo | undefined;
}

/**
 * Format name. For a PDF the container's own declaration decides (the attachment's standard name, else
 * the XMP extension namespace); for bare XML the guideline: XRechnung, ZUGFeRD (its own URNs), Factur-X for other CII
 * (Factur-X 1.0x and ZUGFeRD 2.1+ share one CII), and "ubl" for UBL that is not XRechnung.
 */
export function detectFormat(clues: FormatClues): InvoiceFormat | null {
  const { syntax, attachmentName } = clues;
  const guideline = (clues.guideline ?? '').toLowerCase();
  if (syntax === 'zugferd1') return 'zugferd';
  if (attachmentName !== undefined) {
    // The standard file names say it; XMP (read only when needed: parsing it costs) decides for other names.
    const name = attachmentName.toLowerCase();
    if (name === 'factur-x.xml') return 'factur-x';
    if (name === 'zugferd-invoice.xml') return 'zugferd';
    if (name === 'xrechnung.xml') return 'xrechnung';
  }
  if (attachmentName !== undefined || clues.xmp) {
    const ns = (clues.xmp?.()?.invoiceNamespace ?? '').toLowerCase();
    if (ns.includes('factur-x')) return 'factur-x';
    if (ns.includes('xrechnung')) return 'xrechnung';
    if (ns.includes('zugferd') || ns.includes('ferd')) return 'zugferd';
  }
  if (!syntax) return null;
  if (guideline.includes('xrechnung')) return 'xrechnung';
  if (syntax === 'ubl') return 'ubl';
  if (guideline.includes('zugferd') || guideline.startsWith('urn:ferd:')) return 'zugferd';
  return 'factur-x';
}
