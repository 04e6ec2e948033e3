/**
 * Valid Peppol BIS Billing 3.0 invoices of our own, built from a few parameters: one per national rule family
 * (a Belgian default, Norway, Denmark, Sweden, Greece, Iceland, Italy, the Netherlands, Germany) and the
 * self-billing variant, as Invoice or CreditNote. Identifiers carry correct check digits (computed here), amounts
 * add up (big.js), so each base passes the Peppol and EN 16931 rules and a single edit makes one rule fire.
 */
import { Big } from '../../src/model/decimal.js';

export interface PartySpec {
  country: string;
  endpoint: [scheme: string, id: string];
  ids?: [scheme: string | null, id: string][];
  name: string;
  street?: string;
  city?: string;
  zip?: string;
  vat?: string;
  /** A second tax scheme (TaxScheme/ID other than VAT), e.g. Foretaksregisteret, Godkänd för F-skatt. */
  tax?: [scheme: string, id: string];
  legal?: [scheme: string | null, id: string];
  contact?: { name?: string; phone?: string; email?: string };
}

export interface BaseSpec {
  kind: 'billing' | 'selfbilling';
  doc: 'Invoice' | 'CreditNote';
  id?: string;
  issueDate?: string;
  dueDate?: string;
  rate: string;
  currency?: string;
  seller: PartySpec;
  buyer: PartySpec;
  taxRep?: PartySpec;
  payment: string;
  /** Extra top-level XML inserted before AccountingSupplierParty (additional document references). */
  references?: string;
  billingReference?: string;
  paymentTerms?: string;
  paymentId?: string;
  typeCode?: string;
}

const CUSTOMIZATION = {
  billing: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
  selfbilling: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:selfbilling:3.0',
};
const PROFILE = {
  billing: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
  selfbilling: 'urn:fdc:peppol.eu:2017:poacc:selfbilling:01:1.0',
};

// ---------------------------------------------------------------------------------------------
// Check digits

const digits = (s: string) => [...s].map(Number);

/** GS1 check digit appended to 12 digits. */
export function gln(body12: string): string {
  const d = digits(body12).reverse();
  const sum = d.reduce((a, x, i) => a + x * (i % 2 === 0 ? 3 : 1), 0);
  return body12 + String((10 - (sum % 10)) % 10);
}

/** Norwegian organisation number: 8 digits + mod 11 check digit (bodies whose check would be 10 are skipped by the caller). */
export function noOrg(body8: string): string {
  const d = digits(body8).reverse();
  const sum = d.reduce((a, x, i) => a + x * ((i % 6) + 2), 0);
  const check = (11 - (sum % 11)) % 11;
  if (check === 10) throw new Error(`no check digit for ${body8}`);
  return body8 + String(check);
}

/** Belgian enterprise number: 8 digits + 97 − (n mod 97). */
export const beEnterprise = (body8: string) => body8 + String(97 - (Number(body8) % 97)).padStart(2, '0');

/** Swedish organisation number: 9 digits + Luhn check digit. */
export function seOrg(body9: string): string {
  const d = digits(body9).reverse();
  const sum = d.reduce((a, x, i) => a + (i % 2 === 0 ? ((x * 2) % 10) + Math.floor((x * 2) / 10) : x), 0);
  return body9 + String((10 - (sum % 10)) % 10);
}

/** Greek TIN: 8 digits + check digit. */
export function grTin(body8: string): string {
  const d = digits(body8);
  const sum = d.reduce((a, x, i) => a + x * 2 ** (8 - i), 0);
  return body8 + String((sum % 11) % 10);
}

/** Italian partita IVA: 10 digits + check digit (alternate digits doubled). */
export function itPiva(body10: string): string {
  for (let c = 0; c < 10; c++) {
    const v = body10 + c;
    let sum = 0;
    [...v].forEach((ch, i) => {
      const x = Number(ch);
      sum += i % 2 === 0 ? x : Number('0246813579'[x]);
    });
    if (sum % 10 === 0) return v;
  }
  throw new Error('no check digit');
}

/** IBAN with its two check digits. */
export function iban(country: string, bban: string): string {
  const rearranged = `${bban}${country}00`;
  const num = [...rearranged].map((ch) => (/[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch)).join('');
  let rest = 0;
  for (const d of num) rest = (rest * 10 + Number(d)) % 97;
  return `${country}${String(98 - rest).padStart(2, '0')}${bban}`;
}

// ---------------------------------------------------------------------------------------------
// XML

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function party(p: PartySpec): string {
  const ids = (p.ids ?? [])
    .map(([s, id]) => `<cac:PartyIdentification><cbc:ID${s ? ` schemeID="${s}"` : ''}>${esc(id)}</cbc:ID></cac:PartyIdentification>`)
    .join('');
  const address =
    '<cac:PostalAddress>' +
    (p.street ? `<cbc:StreetName>${esc(p.street)}</cbc:StreetName>` : '') +
    (p.city ? `<cbc:CityName>${esc(p.city)}</cbc:CityName>` : '') +
    (p.zip ? `<cbc:PostalZone>${esc(p.zip)}</cbc:PostalZone>` : '') +
    `<cac:Country><cbc:IdentificationCode>${p.country}</cbc:IdentificationCode></cac:Country></cac:PostalAddress>`;
  const vat = p.vat
    ? `<cac:PartyTaxScheme><cbc:CompanyID>${esc(p.vat)}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>`
    : '';
  const tax = p.tax
    ? `<cac:PartyTaxScheme><cbc:CompanyID>${esc(p.tax[1])}</cbc:CompanyID><cac:TaxScheme><cbc:ID>${p.tax[0]}</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>`
    : '';
  const legal =
    `<cac:PartyLegalEntity><cbc:RegistrationName>${esc(p.name)}</cbc:RegistrationName>` +
    (p.legal ? `<cbc:CompanyID${p.legal[0] ? ` schemeID="${p.legal[0]}"` : ''}>${esc(p.legal[1])}</cbc:CompanyID>` : '') +
    '</cac:PartyLegalEntity>';
  const c = p.contact;
  const contact = c
    ? '<cac:Contact>' +
      (c.name ? `<cbc:Name>${esc(c.name)}</cbc:Name>` : '') +
      (c.phone ? `<cbc:Telephone>${esc(c.phone)}</cbc:Telephone>` : '') +
      (c.email ? `<cbc:ElectronicMail>${esc(c.email)}</cbc:ElectronicMail>` : '') +
      '</cac:Contact>'
    : '';
  return (
    `<cac:Party><cbc:EndpointID schemeID="${p.endpoint[0]}">${esc(p.endpoint[1])}</cbc:EndpointID>${ids}` +
    `<cac:PartyName><cbc:Name>${esc(p.name)}</cbc:Name></cac:PartyName>${address}${vat}${tax}${legal}${contact}</cac:Party>`
  );
}

/** A complete invoice or credit note: two lines (a line allowance, a price discount), a document allowance and charge. */
export function buildBase(s: BaseSpec): string {
  const cur = s.currency ?? 'EUR';
  const rate = new Big(s.rate);
  const lines = [new Big('475.00'), new Big('200.00')];
  const lineTotal = lines[0].plus(lines[1]);
  const allowance = new Big('50.00');
  const charge = new Big('20.00');
  const taxable = lineTotal.minus(allowance).plus(charge);
  const tax = taxable.times(rate).div(new Big('100')).round(2, Big.roundHalfUp);
  const total = taxable.plus(tax);
  const a = (v: InstanceType<typeof Big>) => v.toFixed(2);
  const inv = s.doc === 'Invoice';
  const root = inv ? 'Invoice' : 'CreditNote';
  const ns = inv ? 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2' : 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';
  const typeCode = s.typeCode ?? (s.kind === 'selfbilling' ? (inv ? '389' : '261') : inv ? '380' : '381');
  const cat = (tag: string) =>
    `<cac:${tag}><cbc:ID>S</cbc:ID><cbc:Percent>${s.rate}</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:${tag}>`;
  const lineTag = inv ? 'InvoiceLine' : 'CreditNoteLine';
  const qtyTag = inv ? 'InvoicedQuantity' : 'CreditedQuantity';
  const line = (n: number) =>
    n === 1
      ? `<cac:${lineTag}><cbc:ID>1</cbc:ID><cbc:${qtyTag} unitCode="EA">10</cbc:${qtyTag}><cbc:LineExtensionAmount currencyID="${cur}">475.00</cbc:LineExtensionAmount>` +
        '<cac:InvoicePeriod><cbc:StartDate>2026-09-01</cbc:StartDate><cbc:EndDate>2026-09-15</cbc:EndDate></cac:InvoicePeriod>' +
        '<cac:OrderLineReference><cbc:LineID>1</cbc:LineID></cac:OrderLineReference>' +
        `<cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:AllowanceChargeReasonCode>95</cbc:AllowanceChargeReasonCode><cbc:AllowanceChargeReason>Discount</cbc:AllowanceChargeReason><cbc:MultiplierFactorNumeric>5</cbc:MultiplierFactorNumeric><cbc:Amount currencyID="${cur}">25.00</cbc:Amount><cbc:BaseAmount currencyID="${cur}">500.00</cbc:BaseAmount></cac:AllowanceCharge>` +
        `<cac:Item><cbc:Name>Paper, A4</cbc:Name><cac:SellersItemIdentification><cbc:ID>P-A4</cbc:ID></cac:SellersItemIdentification>${cat('ClassifiedTaxCategory')}</cac:Item>` +
        `<cac:Price><cbc:PriceAmount currencyID="${cur}">50.00</cbc:PriceAmount><cbc:BaseQuantity unitCode="EA">1</cbc:BaseQuantity></cac:Price></cac:${lineTag}>`
      : `<cac:${lineTag}><cbc:ID>2</cbc:ID><cbc:${qtyTag} unitCode="HUR">2</cbc:${qtyTag}><cbc:LineExtensionAmount currencyID="${cur}">200.00</cbc:LineExtensionAmount>` +
        `<cac:Item><cbc:Name>Consulting</cbc:Name>${cat('ClassifiedTaxCategory')}</cac:Item>` +
        `<cac:Price><cbc:PriceAmount currencyID="${cur}">100.00</cbc:PriceAmount><cbc:BaseQuantity unitCode="HUR">1</cbc:BaseQuantity>` +
        `<cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:Amount currencyID="${cur}">10.00</cbc:Amount><cbc:BaseAmount currencyID="${cur}">110.00</cbc:BaseAmount></cac:AllowanceCharge></cac:Price></cac:${lineTag}>`;
  const due = s.dueDate ?? '2026-10-15';
  const payment =
    `<cac:PaymentMeans><cbc:PaymentMeansCode>${s.payment.split('|')[0]}</cbc:PaymentMeansCode>` +
    (inv ? '' : `<cbc:PaymentDueDate>${due}</cbc:PaymentDueDate>`) +
    (s.paymentId ? `<cbc:PaymentID>${esc(s.paymentId)}</cbc:PaymentID>` : '') +
    (s.payment.split('|')[1] ?? '') +
    '</cac:PaymentMeans>';
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<${root} xmlns="${ns}" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">` +
    `<cbc:CustomizationID>${CUSTOMIZATION[s.kind]}</cbc:CustomizationID><cbc:ProfileID>${PROFILE[s.kind]}</cbc:ProfileID>` +
    `<cbc:ID>${esc(s.id ?? 'INV-2026-0042')}</cbc:ID><cbc:IssueDate>${s.issueDate ?? '2026-09-16'}</cbc:IssueDate>` +
    (inv
      ? `<cbc:DueDate>${due}</cbc:DueDate><cbc:InvoiceTypeCode>${typeCode}</cbc:InvoiceTypeCode>`
      : `<cbc:CreditNoteTypeCode>${typeCode}</cbc:CreditNoteTypeCode>`) +
    `<cbc:Note>Thank you for your order.</cbc:Note><cbc:DocumentCurrencyCode>${cur}</cbc:DocumentCurrencyCode>` +
    '<cbc:BuyerReference>BR-7781</cbc:BuyerReference>' +
    '<cac:InvoicePeriod><cbc:StartDate>2026-09-01</cbc:StartDate><cbc:EndDate>2026-09-30</cbc:EndDate></cac:InvoicePeriod>' +
    '<cac:OrderReference><cbc:ID>PO-5561</cbc:ID></cac:OrderReference>' +
    (s.billingReference ?? '') +
    '<cac:ContractDocumentReference><cbc:ID>C-2026-7</cbc:ID></cac:ContractDocumentReference>' +
    (s.references ?? '') +
    `<cac:AccountingSupplierParty>${party(s.seller)}</cac:AccountingSupplierParty>` +
    `<cac:AccountingCustomerParty>${party(s.buyer)}</cac:AccountingCustomerParty>` +
    (s.taxRep ? taxRepresentative(s.taxRep) : '') +
    `<cac:Delivery><cbc:ActualDeliveryDate>2026-09-15</cbc:ActualDeliveryDate><cac:DeliveryLocation><cac:Address><cbc:StreetName>${esc(s.buyer.street ?? 'Dock 4')}</cbc:StreetName><cbc:CityName>${esc(s.buyer.city ?? 'Harbour')}</cbc:CityName><cbc:PostalZone>${esc(s.buyer.zip ?? '1000')}</cbc:PostalZone><cac:Country><cbc:IdentificationCode>${s.buyer.country}</cbc:IdentificationCode></cac:Country></cac:Address></cac:DeliveryLocation></cac:Delivery>` +
    payment +
    `<cac:PaymentTerms><cbc:Note>${esc(s.paymentTerms ?? 'Net 30 days')}</cbc:Note></cac:PaymentTerms>` +
    `<cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:AllowanceChargeReasonCode>95</cbc:AllowanceChargeReasonCode><cbc:AllowanceChargeReason>Volume discount</cbc:AllowanceChargeReason><cbc:Amount currencyID="${cur}">${a(allowance)}</cbc:Amount>${cat('TaxCategory')}</cac:AllowanceCharge>` +
    `<cac:AllowanceCharge><cbc:ChargeIndicator>true</cbc:ChargeIndicator><cbc:AllowanceChargeReasonCode>FC</cbc:AllowanceChargeReasonCode><cbc:AllowanceChargeReason>Freight</cbc:AllowanceChargeReason><cbc:Amount currencyID="${cur}">${a(charge)}</cbc:Amount>${cat('TaxCategory')}</cac:AllowanceCharge>` +
    `<cac:TaxTotal><cbc:TaxAmount currencyID="${cur}">${a(tax)}</cbc:TaxAmount><cac:TaxSubtotal><cbc:TaxableAmount currencyID="${cur}">${a(taxable)}</cbc:TaxableAmount><cbc:TaxAmount currencyID="${cur}">${a(tax)}</cbc:TaxAmount>${cat('TaxCategory')}</cac:TaxSubtotal></cac:TaxTotal>` +
    `<cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="${cur}">${a(lineTotal)}</cbc:LineExtensionAmount><cbc:TaxExclusiveAmount currencyID="${cur}">${a(taxable)}</cbc:TaxExclusiveAmount><cbc:TaxInclusiveAmount currencyID="${cur}">${a(total)}</cbc:TaxInclusiveAmount><cbc:AllowanceTotalAmount currencyID="${cur}">${a(allowance)}</cbc:AllowanceTotalAmount><cbc:ChargeTotalAmount currencyID="${cur}">${a(charge)}</cbc:ChargeTotalAmount><cbc:PrepaidAmount currencyID="${cur}">0.00</cbc:PrepaidAmount><cbc:PayableAmount currencyID="${cur}">${a(total)}</cbc:PayableAmount></cac:LegalMonetaryTotal>` +
    line(1) +
    line(2) +
    `</${root}>\n`
  );
}

function taxRepresentative(p: PartySpec): string {
  return (
    `<cac:TaxRepresentativeParty><cac:PartyName><cbc:Name>${esc(p.name)}</cbc:Name></cac:PartyName>` +
    `<cac:PostalAddress><cbc:StreetName>${esc(p.street ?? 'Main 1')}</cbc:StreetName><cbc:CityName>${esc(p.city ?? 'City')}</cbc:CityName><cbc:PostalZone>${esc(p.zip ?? '1000')}</cbc:PostalZone><cac:Country><cbc:IdentificationCode>${p.country}</cbc:IdentificationCode></cac:Country></cac:PostalAddress>` +
    `<cac:PartyTaxScheme><cbc:CompanyID>${esc(p.vat ?? '')}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme></cac:TaxRepresentativeParty>`
  );
}

// ---------------------------------------------------------------------------------------------
// The bases

const BE1 = beEnterprise('04031270');
const BE2 = beEnterprise('08765432');
const NO1 = noOrg('97476067');
const NO2 = noOrg('92345678');
const SE1 = seOrg('556677889');
const SE2 = seOrg('556012345');
const GR1 = grTin('09404848');
const GR2 = grTin('80002541');
const IT1 = itPiva('0123456789');
const DE_IBAN = iban('DE', '370400440532013000');
const SB_GLN = gln('540000000001');

const credit = (id: string) => `<cac:PayeeFinancialAccount><cbc:ID>${id}</cbc:ID></cac:PayeeFinancialAccount>`;

export const BASES: Record<string, BaseSpec> = {
  be: {
    kind: 'billing',
    doc: 'Invoice',
    rate: '21',
    seller: {
      country: 'BE',
      endpoint: ['0208', BE1],
      ids: [[null, 'SUP-001']],
      name: 'Atelier Lumière SA',
      street: 'Rue Royale 12',
      city: 'Bruxelles',
      zip: '1000',
      vat: `BE${BE1}`,
      legal: ['0208', BE1],
      contact: { name: 'Anne Peeters', phone: '+32 2 555 01 02', email: 'billing@lumiere.example' },
    },
    buyer: {
      country: 'BE',
      endpoint: ['0088', SB_GLN],
      ids: [['0088', SB_GLN]],
      name: 'Brasserie du Parc SRL',
      street: 'Avenue Louise 200',
      city: 'Bruxelles',
      zip: '1050',
      vat: `BE${BE2}`,
      legal: ['0208', BE2],
    },
    payment: `30|${credit('BE68539007547034')}`,
    references:
      '<cac:AdditionalDocumentReference><cbc:ID>TS-1</cbc:ID><cbc:DocumentDescription>Timesheet</cbc:DocumentDescription><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="timesheet.pdf">JVBERi0xLjQK</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference>',
  },
  no: {
    kind: 'billing',
    doc: 'Invoice',
    rate: '25',
    currency: 'NOK',
    seller: {
      country: 'NO',
      endpoint: ['0192', NO1],
      name: 'Fjordtre AS',
      street: 'Strandgata 5',
      city: 'Bergen',
      zip: '5013',
      vat: `NO${NO1}MVA`,
      tax: ['TAX', 'Foretaksregisteret'],
      legal: ['0192', NO1],
    },
    buyer: {
      country: 'NO',
      endpoint: ['0192', NO2],
      name: 'Nordlys Kafé AS',
      street: 'Torget 1',
      city: 'Oslo',
      zip: '0150',
      legal: ['0192', NO2],
    },
    payment: `30|${credit('86011117947')}`,
  },
  dk: {
    kind: 'billing',
    doc: 'Invoice',
    rate: '25',
    currency: 'DKK',
    seller: {
      country: 'DK',
      endpoint: ['0184', '12345678'],
      ids: [['0184', '12345678']],
      name: 'Havnens Bageri ApS',
      street: 'Havnegade 3',
      city: 'København',
      zip: '1058',
      vat: 'DK12345678',
      legal: ['0184', '12345678'],
    },
    buyer: {
      country: 'DK',
      endpoint: ['0184', '87654321'],
      ids: [['0184', '87654321']],
      name: 'Kommune Syd',
      street: 'Rådhuspladsen 1',
      city: 'Aarhus',
      zip: '8000',
      legal: ['0184', '87654321'],
    },
    payment: `31|<cac:PayeeFinancialAccount><cbc:ID>1234567890</cbc:ID><cac:FinancialInstitutionBranch><cbc:ID>1234</cbc:ID></cac:FinancialInstitutionBranch></cac:PayeeFinancialAccount>`,
  },
  se: {
    kind: 'billing',
    doc: 'Invoice',
    rate: '25',
    currency: 'SEK',
    seller: {
      country: 'SE',
      endpoint: ['0007', SE1],
      name: 'Skärgårdens Trä AB',
      street: 'Storgatan 8',
      city: 'Stockholm',
      zip: '11122',
      vat: `SE${SE1}01`,
      tax: ['TAX', 'Godkänd för F-skatt'],
      legal: [null, SE1],
    },
    buyer: {
      country: 'SE',
      endpoint: ['0007', SE2],
      name: 'Lunds Kommun',
      street: 'Kyrkogatan 2',
      city: 'Lund',
      zip: '22222',
      legal: [null, SE2],
    },
    payment: `30|<cac:PayeeFinancialAccount><cbc:ID>56781234</cbc:ID><cac:FinancialInstitutionBranch><cbc:ID>SE:BANKGIRO</cbc:ID></cac:FinancialInstitutionBranch></cac:PayeeFinancialAccount>`,
  },
  gr: {
    kind: 'billing',
    doc: 'Invoice',
    rate: '24',
    id: `${GR1}|16/09/2026|42|1.1|A|0001`,
    seller: {
      country: 'GR',
      endpoint: ['9933', GR1],
      name: 'Elaiones Kritis AE',
      street: 'Odos Ermou 10',
      city: 'Athina',
      zip: '10563',
      vat: `EL${GR1}`,
    },
    buyer: {
      country: 'GR',
      endpoint: ['9933', GR2],
      name: 'Dimos Patron',
      street: 'Plateia Georgiou 1',
      city: 'Patra',
      zip: '26221',
      vat: `EL${GR2}`,
    },
    payment: `30|${credit('GR1601101250000000012300695')}`,
    references:
      '<cac:AdditionalDocumentReference><cbc:ID>400001234567890</cbc:ID><cbc:DocumentDescription>##M.AR.K##</cbc:DocumentDescription></cac:AdditionalDocumentReference>' +
      '<cac:AdditionalDocumentReference><cbc:ID>URL-1</cbc:ID><cbc:DocumentDescription>##INVOICE|URL##</cbc:DocumentDescription><cac:Attachment><cac:ExternalReference><cbc:URI>https://invoices.example.gr/42</cbc:URI></cac:ExternalReference></cac:Attachment></cac:AdditionalDocumentReference>',
  },
  is: {
    kind: 'billing',
    doc: 'Invoice',
    rate: '24',
    currency: 'ISK',
    seller: {
      country: 'IS',
      endpoint: ['0196', '5101692359'],
      name: 'Jökull ehf',
      street: 'Laugavegur 20',
      city: 'Reykjavík',
      zip: '101',
      legal: ['0196', '5101692359'],
    },
    buyer: {
      country: 'IS',
      endpoint: ['0196', '6203871299'],
      name: 'Akureyrarbær',
      street: 'Geislagata 9',
      city: 'Akureyri',
      zip: '600',
      legal: ['0196', '6203871299'],
    },
    payment: `42|${credit('011626001234')}`,
    references:
      '<cac:AdditionalDocumentReference><cbc:ID>2026-10-20</cbc:ID><cbc:DocumentDescription>EINDAGI</cbc:DocumentDescription></cac:AdditionalDocumentReference>',
  },
  it: {
    kind: 'billing',
    doc: 'Invoice',
    rate: '22',
    seller: {
      country: 'IT',
      endpoint: ['0211', `IT${IT1}`],
      name: 'Ceramiche Toscane Srl',
      street: 'Via Roma 1',
      city: 'Firenze',
      zip: '50123',
      vat: `IT${IT1}`,
      tax: ['TAX', 'RSSMRA80A01H501U'],
      legal: ['0210', 'RSSMRA80A01H501U'],
    },
    buyer: {
      country: 'IT',
      endpoint: ['0201', 'UFABC1'],
      name: 'Comune di Siena',
      street: 'Piazza del Campo 1',
      city: 'Siena',
      zip: '53100',
      legal: ['0201', 'UFABC1'],
    },
    payment: `30|${credit('IT60X0542811101000000123456')}`,
  },
  nl: {
    kind: 'billing',
    doc: 'Invoice',
    rate: '21',
    seller: {
      country: 'NL',
      endpoint: ['0106', '12345678'],
      name: 'Grachtenhuis BV',
      street: 'Herengracht 100',
      city: 'Amsterdam',
      zip: '1015 BS',
      vat: 'NL123456789B01',
      legal: ['0106', '12345678'],
    },
    buyer: {
      country: 'NL',
      endpoint: ['0190', '00000001234567890000'],
      name: 'Gemeente Utrecht',
      street: 'Stadsplateau 1',
      city: 'Utrecht',
      zip: '3521 AZ',
      legal: ['0190', '00000001234567890000'],
    },
    payment: `30|${credit('NL91ABNA0417164300')}`,
  },
  de: {
    kind: 'billing',
    doc: 'Invoice',
    rate: '19',
    seller: {
      country: 'DE',
      endpoint: ['9930', 'DE123456789'],
      name: 'Holzwerk Schwarzwald GmbH',
      street: 'Hauptstraße 7',
      city: 'Freiburg',
      zip: '79098',
      vat: 'DE123456789',
      contact: { name: 'Jana Vogel', phone: '+49 761 555 0100', email: 'jana.vogel@holzwerk.example' },
    },
    buyer: {
      country: 'DE',
      endpoint: ['0204', '991-12345-67'],
      name: 'Stadt Karlsruhe',
      street: 'Marktplatz 1',
      city: 'Karlsruhe',
      zip: '76133',
    },
    payment: `58|${credit(DE_IBAN)}`,
    paymentTerms: '#SKONTO#TAGE=14#PROZENT=2.00#\n',
  },
  sb: {
    kind: 'selfbilling',
    doc: 'Invoice',
    rate: '21',
    seller: {
      country: 'BE',
      endpoint: ['0208', BE1],
      name: 'Atelier Lumière SA',
      street: 'Rue Royale 12',
      city: 'Bruxelles',
      zip: '1000',
      vat: `BE${BE1}`,
      legal: ['0208', BE1],
    },
    buyer: {
      country: 'BE',
      endpoint: ['0088', SB_GLN],
      name: 'Brasserie du Parc SRL',
      street: 'Avenue Louise 200',
      city: 'Bruxelles',
      zip: '1050',
      vat: `BE${BE2}`,
    },
    payment: `30|${credit('BE68539007547034')}`,
  },
};

/** The same bases as credit notes (where a national family needs one). */
export function creditNoteOf(key: string): BaseSpec {
  return {
    ...BASES[key],
    doc: 'CreditNote',
    billingReference:
      '<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>INV-2026-0041</cbc:ID></cac:InvoiceDocumentReference></cac:BillingReference>',
  };
}
