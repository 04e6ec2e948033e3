/**
 * The document-level variables of the Peppol schematron (`$profile`, `$supplierCountry`, the national rules'
 * country tests, ...), computed once per document and variant on first use, and the element helpers the rule
 * tables share. Each getter follows its variable's XPath: which elements it reads, whether it normalises or
 * upper-cases, what it answers when the element is absent.
 */
import { child, type XmlDoc, type XmlElement } from '../../xml/dom.js';
import { NS } from '../../xml/namespaces.js';
import { childPath, firstAt, sel, someValueAt, text, values, type ChildPath } from '../xrechnung/dom.js';
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

/*
 * These run for every document, before any rule runs (the country variables of the national rules' conditions start
 * here): written with direct child steps (childPath, firstAt, someValueAt), which select what the paths in their
 * comments select, in the same order, without the path helpers' per-call parsing, caches and lists. Those were a fifth
 * of the Peppol evaluation of a typical invoice (the conditions 9–13 µs of ~50 before, 5–7 after).
 */
const COUNTRY_CODE = childPath('cac:PostalAddress/cac:Country/cbc:IdentificationCode');
const SUPPLIER_COUNTRY = childPath('cac:AccountingSupplierParty/cac:Party/cac:PostalAddress/cac:Country/cbc:IdentificationCode');
const CUSTOMER_COUNTRY = childPath('cac:AccountingCustomerParty/cac:Party/cac:PostalAddress/cac:Country/cbc:IdentificationCode');
const TAX_REPRESENTATIVE_COUNTRY = childPath('cac:TaxRepresentativeParty/cac:PostalAddress/cac:Country/cbc:IdentificationCode');
const SCHEME_ID = childPath('cac:TaxScheme/cbc:ID');

/** The string value of the first element a path selects, or undefined (XPath `string((el/a/b)[1])` of a sequence). */
const firstValueAt = (el: XmlElement, path: ChildPath): string | undefined => {
  const found = firstAt(el, path);
  return found ? text(found) : undefined;
};

/** The PartyTaxScheme children of `party` whose TaxScheme/ID equals 'VAT' (exactly, or after normalize-space when asked). */
export function vatSchemes(party: XmlElement | undefined, normalized: boolean): XmlElement[] {
  const out: XmlElement[] = [];
  if (!party) return out;
  for (const pts of party.children) {
    if (pts.local !== 'PartyTaxScheme' || pts.ns !== NS.cac) continue;
    // cac:TaxScheme/cbc:ID: normalised, the first of them in document order; exactly, any of them.
    if (normalized ? ns(firstValueAt(pts, SCHEME_ID)) === 'VAT' : someValueAt(pts, SCHEME_ID, 'VAT')) out.push(pts);
  }
  return out;
}

/** `substring(cbc:CompanyID, from, n)` of each scheme (its first CompanyID; an absent one gives ''). */
export const companyIdParts = (schemes: XmlElement[], from: number, n?: number) =>
  schemes.map((s) => {
    const id = child(s, NS.cbc, 'CompanyID');
    return substr(id ? text(id) : '', from, n);
  });

/** `cac:<role>/cac:Party` from the document element, the first (the first role element that has a Party). */
function firstParty(root: XmlElement, role: string): XmlElement | null {
  for (const r of root.children) {
    if (r.local !== role || r.ns !== NS.cac) continue;
    const party = child(r, NS.cac, 'Party');
    if (party) return party;
  }
  return null;
}

export class DocEnv {
  readonly root: XmlElement;

  constructor(
    readonly doc: XmlDoc,
    readonly variant: RuleVariant,
  ) {
    this.root = doc.root;
  }

  get isInvoiceDoc(): boolean {
    return isInvoice(this.root);
  }

  get isCreditNoteDoc(): boolean {
    return isCreditNote(this.root);
  }

  /** `$profile`: '01', '02' (2026.5 billing with response), another two-digit token (older releases) or 'Unknown'. */
  private _profile: string | undefined;
  get profile(): string {
    if (this._profile === undefined) this._profile = (() => this.variant.profileOf(values(this.root, 'cbc:ProfileID')))();
    return this._profile;
  }

  private _supplierParty: XmlElement | null | undefined;
  get supplierParty(): XmlElement | undefined {
    if (this._supplierParty === undefined) this._supplierParty = firstParty(this.root, 'AccountingSupplierParty');
    return this._supplierParty ?? undefined;
  }

  private _customerParty: XmlElement | null | undefined;
  get customerParty(): XmlElement | undefined {
    if (this._customerParty === undefined) this._customerParty = firstParty(this.root, 'AccountingCustomerParty');
    return this._customerParty ?? undefined;
  }

  /** `substring(CompanyID, 1, 2)` of the seller's VAT schemes (PartyTaxScheme with TaxScheme/ID 'VAT'): both country variables start there. */
  private _supplierVatPrefixes: string[] | undefined;
  private get supplierVatPrefixes(): string[] {
    if (this._supplierVatPrefixes === undefined) this._supplierVatPrefixes = companyIdParts(vatSchemes(this.supplierParty, false), 1, 2);
    return this._supplierVatPrefixes;
  }

  /** `$supplierCountry`: the seller's VAT prefix, else the tax representative's, else the seller's country code, else 'XX'. */
  private _supplierCountry: string | undefined;
  get supplierCountry(): string {
    if (this._supplierCountry === undefined)
      this._supplierCountry = (() => {
        const own = this.supplierVatPrefixes;
        if (own.length > 0 && own[0] !== '') return ns(own[0]).toUpperCase();
        const rep = companyIdParts(vatSchemes(sel(this.root, 'cac:TaxRepresentativeParty')[0], false), 1, 2);
        if (rep.length > 0 && rep[0] !== '') return ns(rep[0]).toUpperCase();
        return this.countryOr(this.supplierParty);
      })();
    return this._supplierCountry;
  }

  /** `$customerCountry`: the buyer's VAT prefix, else the buyer's country code, else 'XX'. */
  private _customerCountry: string | undefined;
  get customerCountry(): string {
    if (this._customerCountry === undefined)
      this._customerCountry = (() => {
        const own = companyIdParts(vatSchemes(this.customerParty, false), 1, 2);
        if (own.length > 0 && own[0] !== '') return ns(own[0]).toUpperCase();
        return this.countryOr(this.customerParty);
      })();
    return this._customerCountry;
  }

  /** The Greek rules' `$accountingSupplierCountry`: as `$supplierCountry` without the tax representative. */
  private _accountingSupplierCountry: string | undefined;
  get accountingSupplierCountry(): string {
    if (this._accountingSupplierCountry === undefined)
      this._accountingSupplierCountry = (() => {
        const own = this.supplierVatPrefixes;
        if (own.length > 0 && own[0] !== '') return ns(own[0]).toUpperCase();
        return this.countryOr(this.supplierParty);
      })();
    return this._accountingSupplierCountry;
  }

  private countryOr(party: XmlElement | undefined): string {
    const code = party ? firstValueAt(party, COUNTRY_CODE) : undefined;
    return code === undefined ? 'XX' : ns(code).toUpperCase();
  }

  /** upper-case(normalize-space(<party>/cac:PostalAddress/cac:Country/cbc:IdentificationCode)) of the seller, buyer, tax representative. */
  get supplierCountryCode(): string {
    return (this._supplierCountryCode ??= ns(this.supplierCountryAsWritten).toUpperCase());
  }
  private _supplierCountryCode: string | undefined;

  get customerCountryCode(): string {
    return (this._customerCountryCode ??= ns(this.customerCountryAsWritten).toUpperCase());
  }
  private _customerCountryCode: string | undefined;

  get taxRepresentativeCountryCode(): string {
    return (this._taxRepresentativeCountryCode ??= ns(firstValueAt(this.root, TAX_REPRESENTATIVE_COUNTRY)).toUpperCase());
  }
  private _taxRepresentativeCountryCode: string | undefined;

  get supplierIsDE(): boolean {
    return this.supplierCountryCode === 'DE';
  }

  get customerIsDE(): boolean {
    return this.customerCountryCode === 'DE';
  }

  get bothDE(): boolean {
    return this.supplierIsDE && this.customerIsDE;
  }

  get supplierIsNL(): boolean {
    return this.supplierCountryCode === 'NL';
  }

  get customerIsNL(): boolean {
    return this.customerCountryCode === 'NL';
  }

  get taxRepresentativeIsNL(): boolean {
    return this.taxRepresentativeCountryCode === 'NL';
  }

  /** The Danish and Icelandic rules' country: the supplier's country code as written (concat(), no normalisation). */
  private _supplierCountryAsWritten: string | undefined;
  get supplierCountryAsWritten(): string {
    if (this._supplierCountryAsWritten === undefined)
      this._supplierCountryAsWritten = (() => firstValueAt(this.root, SUPPLIER_COUNTRY) ?? '')();
    return this._supplierCountryAsWritten;
  }

  private _customerCountryAsWritten: string | undefined;
  get customerCountryAsWritten(): string {
    if (this._customerCountryAsWritten === undefined)
      this._customerCountryAsWritten = (() => firstValueAt(this.root, CUSTOMER_COUNTRY) ?? '')();
    return this._customerCountryAsWritten;
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
  private _documentCurrency: string[] | undefined;
  get documentCurrency(): string[] {
    if (this._documentCurrency === undefined) this._documentCurrency = (() => values(this.root, 'cbc:DocumentCurrencyCode'))();
    return this._documentCurrency;
  }

  /** Every cac:AccountingSupplierParty/cac:Party of the document (the Swedish rules search with `//`). */
  get allSupplierParties(): XmlElement[] {
    return (this._allSupplierParties ??= partiesUnder(this.doc, 'AccountingSupplierParty'));
  }
  private _allSupplierParties: XmlElement[] | undefined;

  /** The Swedish rules' supplier test: some supplier party with country code 'SE' (exactly). */
  private _supplierCountryIsSE: boolean | undefined;
  get supplierCountryIsSE(): boolean {
    if (this._supplierCountryIsSE === undefined)
      this._supplierCountryIsSE = (() => this.allSupplierParties.some((p) => someValueAt(p, COUNTRY_CODE, 'SE')))();
    return this._supplierCountryIsSE;
  }

  /** Some supplier party with country 'SE' and a VAT scheme whose CompanyID starts with 'SE' (SE-R-001 / SE-R-006). */
  private _swedishVatSupplier: boolean | undefined;
  get swedishVatSupplier(): boolean {
    if (this._swedishVatSupplier === undefined) this._swedishVatSupplier = (() => this.allSupplierParties.some(isSwedishVatParty))();
    return this._swedishVatSupplier;
  }

  private _customerCountryIsSE: boolean | undefined;
  get customerCountryIsSE(): boolean {
    if (this._customerCountryIsSE === undefined)
      this._customerCountryIsSE = (() =>
        partiesUnder(this.doc, 'AccountingCustomerParty').some((p) => someValueAt(p, COUNTRY_CODE, 'SE')))();
    return this._customerCountryIsSE;
  }
}

/** `cac:AccountingSupplierParty/cac:Party[Country = 'SE' and PartyTaxScheme[TaxScheme/ID = 'VAT']/substring(CompanyID, 1, 2) = 'SE']`. */
export const isSwedishVatParty = (p: XmlElement) =>
  someValueAt(p, COUNTRY_CODE, 'SE') && companyIdParts(vatSchemes(p, false), 1, 2).includes('SE');

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
