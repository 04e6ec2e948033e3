/**
 * UBL reader: the EN 16931 UBL binding term by term on the CEN "maximum content" example, a credit note,
 * and synthetic documents (SEPA creditor id, CreditNote due date, BT-6 tax total, prefixes).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readUbl } from '../src/syntax/ubl/reader.js';
import { ingest } from '../src/input/ingest.js';
import { parseXml } from '../src/xml/dom.js';
import { fixturePath } from './fixtures.js';

const read = (xml: string | Buffer) => readUbl(parseXml(xml).root);
const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v, (k, x) => (k === '$loc' ? undefined : x)));
const example5 = () => read(readFileSync(fixturePath('cen/examples/ubl/ubl-tc434-example5.xml')));

test('CEN UBL example 5: header and references', () => {
  const inv = example5();
  assert.equal(inv.kind, 'invoice');
  assert.equal(inv.specificationId, 'urn:cen.eu:en16931:2017');
  assert.equal(inv.businessProcess, '1');
  assert.equal(inv.number, 'TOSL110');
  assert.equal(inv.issueDate, '2013-04-10');
  assert.equal(inv.dueDate, '2013-05-10');
  assert.equal(inv.typeCode, '380');
  assert.deepEqual(plain(inv.notes), [{ text: 'Ordered through our website#Ordering information' }]);
  assert.equal(inv.currency, 'DKK');
  assert.equal(inv.vatAccountingCurrency, 'EUR');
  assert.equal(inv.buyerAccountingReference, '67543');
  assert.equal(inv.buyerReference, 'qwerty');
  assert.deepEqual(plain(inv.invoicingPeriod), { start: '2013-03-10', end: '2013-04-10' });
  assert.equal(inv.purchaseOrderReference, 'PO4711');
  assert.equal(inv.salesOrderReference, '123');
  assert.deepEqual(plain(inv.precedingInvoices), [{ number: 'TOSL109', date: '2013-03-10' }]);
  assert.equal(inv.despatchAdviceReference, '5433');
  assert.equal(inv.receivingAdviceReference, '3544');
  assert.equal(inv.tenderOrLotReference, 'Lot567');
  assert.equal(inv.contractReference, '2013-05');
  assert.equal(inv.projectReference, 'Project345');
  assert.deepEqual(plain(inv.supportingDocuments), [
    { reference: 'OBJ999', description: 'ATS' },
    {
      reference: 'sales slip',
      description: 'your sales slip',
      attachment: { contentBase64: 'VGVzdGluZyBCYXNlNjQgZW5jb2Rpbmc=', mimeCode: 'application/pdf', filename: 'EHF.pdf' },
    },
  ]);
});

test('CEN UBL example 5: parties (BT-27 from PartyLegalEntity, BT-28 PartyName, BT-31/BT-32 by tax scheme)', () => {
  const inv = example5();
  const s = inv.seller;
  assert.equal(s.name, 'SellerCompany');
  assert.equal(s.tradingName, 'SelCo');
  assert.deepEqual(s.electronicAddress, { value: 'info@selco.nl', schemeId: 'EM' });
  assert.deepEqual(s.identifiers, [{ value: '5790000436101', schemeId: '0088' }]);
  assert.equal(s.vatId, 'NL16356706');
  assert.equal(s.taxRegistrationId, 'NL16356706'); // TaxScheme LOC
  assert.deepEqual(s.legalRegistrationId, { value: 'NL16356706' });
  assert.equal(s.additionalLegalInfo, 'Export');
  assert.deepEqual(plain(s.contacts), [{ name: 'Anthon Larsen', phone: '+3198989898', email: 'Anthon@Selco.nl' }]);
  assert.deepEqual(plain(s.address), {
    line1: 'Hoofdstraat 4',
    line2: 'Om de hoek',
    city: 'Grootstad',
    postcode: '54321',
    countrySubdivision: 'Overijssel',
    countryCode: 'NL',
  });
  assert.equal(inv.buyer.name, 'Buyercompany ltd');
  assert.equal(inv.buyer.vatId, 'DK16356607');
  assert.deepEqual(plain(inv.payee), {
    identifiers: [{ value: 'DK16356608' }],
    name: 'Dagobert Duck',
    legalRegistrationId: { value: 'DK16356608' },
  });
  assert.equal(inv.taxRepresentative?.name, 'Dick Panama');
  assert.equal(inv.taxRepresentative?.vatId, 'DK16356609');
  assert.equal(inv.taxRepresentative?.address?.line2, '6th floor');
  assert.deepEqual(plain(inv.delivery), {
    actualDeliveryDate: '2013-04-15',
    locationId: { value: '5790000436068' },
    address: {
      line1: 'Deliverystreet',
      line2: 'Gate 15',
      city: 'Deliverycity',
      postcode: '9000',
      countrySubdivision: 'Jutland',
      countryCode: 'DK',
    },
    partyName: 'Logistic service Ltd',
  });
});

test('CEN UBL example 5: payment, allowances/charges, VAT, totals (BT-110 vs BT-111 by currencyID)', () => {
  const inv = example5();
  assert.deepEqual(plain(inv.payment), {
    creditTransfers: [],
    meansCode: '49',
    remittanceInformation: 'Payref1',
    directDebit: { mandateReference: '123456', debitedAccountId: 'DK1212341234123412' },
  });
  assert.equal(inv.paymentTerms, '50% prepaid, 50% within one month');
  const ac = { percentage: '10', amount: '150.00', baseAmount: '1500.00', vatCategoryCode: 'S', vatRate: '25' };
  assert.deepEqual(plain(inv.allowances), [{ reasonCode: '100', reason: 'Loyal customer', ...ac }]);
  assert.deepEqual(plain(inv.charges), [{ reasonCode: 'ABL', reason: 'Packaging', ...ac }]);
  assert.deepEqual(plain(inv.vatBreakdown), [
    { taxableAmount: '1500.00', taxAmount: '375.00', categoryCode: 'S', rate: '25' },
    { taxableAmount: '2500.00', taxAmount: '300.00', categoryCode: 'S', rate: '12' },
  ]);
  assert.deepEqual(plain(inv.totals), {
    taxTotal: '675.00',
    taxTotalAccountingCurrency: '628.62',
    lineNetTotal: '4000.00',
    taxExclusiveAmount: '4000.00',
    taxInclusiveAmount: '4675.00',
    allowanceTotal: '150.00',
    chargeTotal: '150.00',
    paidAmount: '2337.50',
    amountDue: '2337.50',
  });
});

test('CEN UBL example 5: lines, item, price with gross price and discount', () => {
  const inv = example5();
  assert.equal(inv.lines.length, 3);
  const l = inv.lines[0];
  assert.deepEqual(
    plain({ ...l, allowances: undefined, charges: undefined }),
    plain({
      id: '1',
      note: 'first line',
      quantity: '1000',
      unitCode: 'EA',
      netAmount: '1000.00',
      buyerAccountingReference: 'ACC7654',
      period: { start: '2013-03-10', end: '2013-04-10' },
      orderLineReference: '1',
      objectIdentifier: { value: 'Object2' },
      itemDescription: 'Printing paper, 2mm',
      itemName: 'Printing paper',
      buyerItemId: 'BUY123',
      sellerItemId: 'JB007',
      standardItemId: { value: '1234567890128', schemeId: '0088' },
      originCountryCode: 'NL',
      classifications: [{ value: '12344321', schemeId: 'ZZZ' }],
      vatCategoryCode: 'S',
      vatRate: '25',
      attributes: [{ name: 'Thickness', value: '2 mm' }],
      netPrice: '1.00',
      priceBaseQuantity: '1',
      priceBaseQuantityUnitCode: 'EA',
      priceDiscount: '0.10',
      grossPrice: '1.10',
    }),
  );
  assert.deepEqual(plain(l.allowances), [
    { reasonCode: '100', reason: 'Loyal customer', percentage: '10', amount: '100.00', baseAmount: '1000.00' },
  ]);
  assert.deepEqual(plain(l.charges), [
    { reasonCode: 'ABL', reason: 'Packaging', percentage: '10', amount: '100.00', baseAmount: '1000.00' },
  ]);
  assert.match(l.$loc!.quantity!, /^\/Invoice\[1\]\/cac:InvoiceLine\[1\]\/cbc:InvoicedQuantity\[1\]$/);
  assert.match(l.$loc!.unitCode!, /cbc:InvoicedQuantity\[1\]\/@unitCode$/);
  assert.equal(inv.lines[2].$loc?.self, '/Invoice[1]/cac:InvoiceLine[3]');
});

test('credit note: kind, type code, CreditedQuantity, CreditNoteLine', () => {
  const inv = read(readFileSync(fixturePath('cen/examples/ubl/ubl-tc434-creditnote1.xml')));
  assert.equal(inv.kind, 'credit-note');
  assert.equal(inv.typeCode, '381');
  assert.equal(inv.number, '018304 / 28865');
  assert.equal(inv.seller.name, 'My Supplier Company');
  assert.equal(inv.lines.length, 1);
  assert.equal(inv.lines[0].quantity, '1.00');
  assert.equal(inv.lines[0].unitCode, 'C62');
  assert.equal(inv.totals.amountDue, '100.11');
});

const CN = (prefix: string) => {
  const p = prefix ? `${prefix}:` : '';
  return `<?xml version="1.0"?>
<${p}CreditNote xmlns${prefix ? ':' + prefix : ''}="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"
  xmlns:q="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
  xmlns:r="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <r:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</r:CustomizationID>
  <r:ID>CN-1</r:ID><r:IssueDate>2024-02-29</r:IssueDate><r:CreditNoteTypeCode>381</r:CreditNoteTypeCode>
  <r:DocumentCurrencyCode>EUR</r:DocumentCurrencyCode><r:TaxCurrencyCode>SEK</r:TaxCurrencyCode><r:BuyerReference/>
  <q:AccountingSupplierParty><q:Party>
    <q:PartyIdentification><r:ID schemeID="SEPA">DE98ZZZ09999999999</r:ID></q:PartyIdentification>
    <q:PartyIdentification><r:ID>SUP-7</r:ID></q:PartyIdentification>
    <q:PartyLegalEntity><r:RegistrationName>Supplier</r:RegistrationName></q:PartyLegalEntity>
  </q:Party></q:AccountingSupplierParty>
  <q:PaymentMeans><r:PaymentMeansCode name="SEPA direct debit">59</r:PaymentMeansCode><r:PaymentDueDate>2024-03-31</r:PaymentDueDate>
    <q:PayeeFinancialAccount><r:ID>DE02120300000000202051</r:ID><r:Name>Acct</r:Name><q:FinancialInstitutionBranch><r:ID>BYLADEM1001</r:ID></q:FinancialInstitutionBranch></q:PayeeFinancialAccount>
  </q:PaymentMeans>
  <q:TaxTotal><r:TaxAmount currencyID="SEK">220.00</r:TaxAmount></q:TaxTotal>
  <q:TaxTotal><r:TaxAmount currencyID="EUR">19.00</r:TaxAmount>
    <q:TaxSubtotal><r:TaxableAmount currencyID="EUR">100.00</r:TaxableAmount><r:TaxAmount currencyID="EUR">19.00</r:TaxAmount>
      <q:TaxCategory><r:ID>S</r:ID><r:Percent>19</r:Percent><q:TaxScheme><r:ID>VAT</r:ID></q:TaxScheme></q:TaxCategory></q:TaxSubtotal></q:TaxTotal>
  <q:LegalMonetaryTotal><r:PayableAmount currencyID="EUR"> 119.00 </r:PayableAmount></q:LegalMonetaryTotal>
</${p}CreditNote>`;
};

test('synthetic credit note: SEPA creditor id is BT-90, due date from PaymentMeans, BT-111 in either order', () => {
  for (const prefix of ['', 'cn']) {
    const inv = read(CN(prefix));
    assert.equal(inv.kind, 'credit-note');
    assert.equal(inv.number, 'CN-1');
    assert.equal(inv.buyerReference, '');
    assert.deepEqual(inv.seller.identifiers, [{ value: 'SUP-7' }]); // the SEPA id is not a seller identifier
    assert.equal(inv.payment?.directDebit?.creditorId, 'DE98ZZZ09999999999');
    assert.equal(inv.payment?.meansCode, '59');
    assert.equal(inv.payment?.meansText, 'SEPA direct debit');
    assert.deepEqual(plain(inv.payment?.creditTransfers), [
      { accountId: 'DE02120300000000202051', accountName: 'Acct', serviceProviderId: 'BYLADEM1001' },
    ]);
    assert.equal(inv.dueDate, '2024-03-31');
    assert.equal(inv.totals.taxTotal, '19.00');
    assert.equal(inv.totals.taxTotalAccountingCurrency, '220.00');
    assert.equal(inv.totals.amountDue, '119.00');
    assert.equal(inv.vatBreakdown.length, 1);
  }
});

test('ingest: XRechnung UBL and Peppol BIS are detected by CustomizationID', async () => {
  const xr = await ingest(Buffer.from(CN('')));
  assert.deepEqual([xr.syntax, xr.format, xr.profile], ['ubl', 'xrechnung', 'xrechnung']);
  const peppol = await ingest(readFileSync(fixturePath('cen/examples/ubl/BIS3_Invoice_positive.XML')));
  assert.equal(peppol.syntax, 'ubl');
  assert.equal(peppol.format, 'ubl');
  assert.match(peppol.guideline ?? '', /peppol/);
  assert.equal(peppol.profile, 'en16931');
});

test('lines and type code are read under either root, as the official rules read them (cac:InvoiceLine | cac:CreditNoteLine)', () => {
  const inv = read(readFileSync(fixturePath('cen/unit/CreditNote-unit-UBL/BR-CL-18.test1.xml')));
  assert.equal(inv.kind, 'credit-note');
  assert.equal(inv.lines.length, 1); // a cac:InvoiceLine inside a CreditNote
  assert.equal(inv.lines[0].vatCategoryCode, 'AE');
  const mixed = read(
    CN('').replace(
      '<q:LegalMonetaryTotal>',
      '<q:CreditNoteLine><r:ID>1</r:ID><r:CreditedQuantity unitCode="C62">2</r:CreditedQuantity></q:CreditNoteLine><q:InvoiceLine><r:ID>2</r:ID><r:InvoicedQuantity unitCode="H87">3</r:InvoicedQuantity></q:InvoiceLine><q:LegalMonetaryTotal>',
    ),
  );
  assert.deepEqual(
    mixed.lines.map((l) => [l.id, l.quantity, l.unitCode]),
    [
      ['1', '2', 'C62'],
      ['2', '3', 'H87'],
    ],
  );
});

test('tax representative: BT-63 is the identifier of the VAT tax scheme, whatever comes before it', () => {
  const xml = readFileSync(fixturePath('cen/examples/ubl/ubl-tc434-example5.xml'), 'utf8');
  const rep = /<cac:TaxRepresentativeParty>[\s\S]*?<\/cac:TaxRepresentativeParty>/.exec(xml)![0];
  const other =
    '<cac:PartyTaxScheme><cbc:CompanyID>LOC-1</cbc:CompanyID><cac:TaxScheme><cbc:ID>LOC</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>';
  const first = rep.replace(/<cac:PartyTaxScheme>/, `${other}<cac:PartyTaxScheme>`);
  assert.equal(read(xml.replace(rep, first)).taxRepresentative?.vatId, 'DK16356609');
  // Only a non-VAT scheme: no BT-63 (the official BR-56 and BR-S-02 then find none either).
  const only = rep.replace(/<cac:PartyTaxScheme>[\s\S]*?<\/cac:PartyTaxScheme>/, other);
  assert.equal(read(xml.replace(rep, only)).taxRepresentative?.vatId, undefined);
});
