/**
 * The document-level variables of the Peppol schematron (`$profile`, `$supplierCountry`, the national rules'
 * country tests, ...), computed once per document and variant on first use, and the element helpers the rule
 * tables share. Each getter follows its variable's XPath: which elements it reads, whether it normalises or
 * upper-cases, what it answers when the element is absent.
 */
import type { XmlDoc, XmlElement } from '../../xml/dom.js';
import { NS } from '../../xml/namespaces.js';
import { has, sel, value, values } from '../xrechnung/dom.js';
import { ns, substr } from './xpath.js';
import type { RuleVariant } from './variant.js';

export const isEl = (el: XmlElement | null | undefined, nsUri: string, local: string): el is XmlElement =>
  !!el && el.local === local && el.ns === nsUri;
export const isCac = (el: XmlElement | null | undefined, local: string): el is XmlElement => isEl(el, NS.cac, local);
export const isCbc = (el: XmlElement | null | undefined, local: string): el is XmlElement => isEl(el, NS.cbc, local);
export const isInvoice = (el: XmlElement | null | undefined): el is XmlElement => isEl(el, NS.ubl, 'Invoice');
export const isCreditNote = (el: XmlElement | null | undefined): el is XmlElement => isEl(el, NS.cn, 'CreditNote');
export const isDocRoot = (el: XmlElement | null | undefined): el is XmlElement => isInvoice(el) || isCreditNote(el);
/** The element is the document element and an Invoice or CreditNote (contexts written `/ubl-invoice:Invoice`). */
export const isTopRoot = (el: XmlElement | null | undefined): el is XmlElement => !!el && el.parent === null && isDocRoot(el);

/** The PartyTaxScheme children of `party` whose TaxScheme/ID equals 'VAT' (exactly, or after normalize-space when asked). */
export function vatSchemes(party: XmlElement | undefined, normalized: boolean): XmlElement[] {
  if (!party) return [];
  return sel(party, 'cac:PartyTaxScheme').filter((pts) =>
    normalized ? ns(value(pts, 'cac:TaxScheme/cbc:ID')) === 'VAT' : values(pts, 'cac:TaxScheme/cbc:ID').includes('VAT'),
  );
}

/** `substring(cbc:CompanyID, from, n)` of each scheme (an absent CompanyID gives ''). */
export const companyIdParts = (schemes: XmlElement[], from: number, n?: number) =>
  schemes.map((s) => substr(value(s, 'cbc:CompanyID') ?? '', from, n));

export class DocEnv {
  private memo = new Map<string, unknown>();
  readonly root: XmlElement;

  constructor(
    readonly doc: XmlDoc,
    readonly variant: RuleVariant,
  ) {
    this.root = doc.root;
  }

  private once<T>(key: string, f: () => T): T {
    if (this.memo.has(key)) return this.memo.get(key) as T;
    const v = f();
    this.memo.set(key, v);
    return v;
  }

  get isInvoiceDoc(): boolean {
    return isInvoice(this.root);
  }

  get isCreditNoteDoc(): boolean {
    return isCreditNote(this.root);
  }

  /** `$profile`: '01', '02' (2026.5 billing with response), another two-digit token (older releases) or 'Unknown'. */
  get profile(): string {
    return this.once('profile', () => this.variant.profileOf(values(this.root, 'cbc:ProfileID')));
  }

  get supplierParty(): XmlElement | undefined {
    return sel(this.root, 'cac:AccountingSupplierParty/cac:Party')[0];
  }

  get customerParty(): XmlElement | undefined {
    return sel(this.root, 'cac:AccountingCustomerParty/cac:Party')[0];
  }

  /** `$supplierCountry`: the seller's VAT prefix, else the tax representative's, else the seller's country code, else 'XX'. */
  get supplierCountry(): string {
    return this.once('supplierCountry', () => {
      const own = companyIdParts(vatSchemes(this.supplierParty, false), 1, 2);
      if (own.length > 0 && own[0] !== '') return ns(own[0]).toUpperCase();
      const rep = companyIdParts(vatSchemes(sel(this.root, 'cac:TaxRepresentativeParty')[0], false), 1, 2);
      if (rep.length > 0 && rep[0] !== '') return ns(rep[0]).toUpperCase();
      return this.countryOr(this.supplierParty);
    });
  }

  /** `$customerCountry`: the buyer's VAT prefix, else the buyer's country code, else 'XX'. */
  get customerCountry(): string {
    return this.once('customerCountry', () => {
      const own = companyIdParts(vatSchemes(this.customerParty, false), 1, 2);
      if (own.length > 0 && own[0] !== '') return ns(own[0]).toUpperCase();
      return this.countryOr(this.customerParty);
    });
  }

  /** The Greek rules' `$accountingSupplierCountry`: as `$supplierCountry` without the tax representative. */
  get accountingSupplierCountry(): string {
    return this.once('accountingSupplierCountry', () => {
      const own = companyIdParts(vatSchemes(this.supplierParty, false), 1, 2);
      if (own.length > 0 && own[0] !== '') return ns(own[0]).toUpperCase();
      return this.countryOr(this.supplierParty);
    });
  }

  private countryOr(party: XmlElement | undefined): string {
    if (party && has(party, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode'))
      return ns(value(party, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode')).toUpperCase();
    return 'XX';
  }

  /** upper-case(normalize-space(<party>/cac:PostalAddress/cac:Country/cbc:IdentificationCode)). */
  private countryCode(path: string): string {
    return ns(value(this.root, `${path}/cac:PostalAddress/cac:Country/cbc:IdentificationCode`)).toUpperCase();
  }

  get supplierIsDE(): boolean {
    return this.once('supplierIsDE', () => this.countryCode('cac:AccountingSupplierParty/cac:Party') === 'DE');
  }

  get customerIsDE(): boolean {
    return this.once('customerIsDE', () => this.countryCode('cac:AccountingCustomerParty/cac:Party') === 'DE');
  }

  get bothDE(): boolean {
    return this.supplierIsDE && this.customerIsDE;
  }

  get supplierIsNL(): boolean {
    return this.once('supplierIsNL', () => this.countryCode('cac:AccountingSupplierParty/cac:Party') === 'NL');
  }

  get customerIsNL(): boolean {
    return this.once('customerIsNL', () => this.countryCode('cac:AccountingCustomerParty/cac:Party') === 'NL');
  }

  get taxRepresentativeIsNL(): boolean {
    return this.once('taxRepIsNL', () => this.countryCode('cac:TaxRepresentativeParty') === 'NL');
  }

  /** The Danish and Icelandic rules' country: the supplier's country code as written (concat(), no normalisation). */
  get supplierCountryAsWritten(): string {
    return this.once(
      'supplierCW',
      () => value(this.root, 'cac:AccountingSupplierParty/cac:Party/cac:PostalAddress/cac:Country/cbc:IdentificationCode') ?? '',
    );
  }

  get customerCountryAsWritten(): string {
    return this.once(
      'customerCW',
      () => value(this.root, 'cac:AccountingCustomerParty/cac:Party/cac:PostalAddress/cac:Country/cbc:IdentificationCode') ?? '',
    );
  }

  get bothDK(): boolean {
    return this.supplierCountryAsWritten === 'DK' && this.customerCountryAsWritten === 'DK';
  }

  get isGreekSender(): boolean {
    return this.supplierCountry === 'GR' || this.supplierCountry === 'EL';
  }

  get isGreekReceiver(): boolean {
    return this.customerCountry === 'GR' || this.customerCountry === 'EL';
  }

  /** `$documentCurrencyCode`: the values of /*\/cbc:DocumentCurrencyCode. */
  get documentCurrency(): string[] {
    return this.once('docCurrency', () => values(this.root, 'cbc:DocumentCurrencyCode'));
  }

  /** The Swedish rules' supplier test: some supplier party with country code 'SE' (exactly). */
  get supplierCountryIsSE(): boolean {
    return this.once('seSupplier', () =>
      allSupplierParties(this.doc).some((p) => values(p, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode').includes('SE')),
    );
  }

  /** Some supplier party with country 'SE' and a VAT scheme whose CompanyID starts with 'SE' (SE-R-001 / SE-R-006). */
  get swedishVatSupplier(): boolean {
    return this.once('seVatSupplier', () => allSupplierParties(this.doc).some(isSwedishVatParty));
  }

  get customerCountryIsSE(): boolean {
    return this.once('seCustomer', () =>
      allCustomerParties(this.doc).some((p) => values(p, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode').includes('SE')),
    );
  }
}

/** `cac:AccountingSupplierParty/cac:Party[Country = 'SE' and PartyTaxScheme[TaxScheme/ID = 'VAT']/substring(CompanyID, 1, 2) = 'SE']`. */
export const isSwedishVatParty = (p: XmlElement) =>
  values(p, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode').includes('SE') &&
  companyIdParts(vatSchemes(p, false), 1, 2).includes('SE');

/** Every cac:AccountingSupplierParty/cac:Party of the document (the Swedish rules search with `//`). */
function allSupplierParties(doc: XmlDoc): XmlElement[] {
  return partiesUnder(doc, 'AccountingSupplierParty');
}

function allCustomerParties(doc: XmlDoc): XmlElement[] {
  return partiesUnder(doc, 'AccountingCustomerParty');
}

function partiesUnder(doc: XmlDoc, role: string): XmlElement[] {
  const out: XmlElement[] = [];
  const visit = (el: XmlElement) => {
    if (isCac(el, role)) for (const c of el.children) if (isCac(c, 'Party')) out.push(c);
    for (const c of el.children) visit(c);
  };
  // Roles sit at the top level in every real invoice: look there first, and only walk deeper in odd documents.
  for (const c of doc.root.children) if (isCac(c, role)) for (const p of c.children) if (isCac(p, 'Party')) out.push(p);
  if (out.length > 0) return out;
  visit(doc.root);
  return out;
}
