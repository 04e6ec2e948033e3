/**
 * CII reader: the EN 16931 CII binding term by term on the CEN "maximum content" example, plus synthetic
 * documents for prefixes, empty elements, lexical decimals, BT-110/BT-111, and ZUGFeRD 1.0.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readCii } from '../src/syntax/cii/reader.js';
import { ingest } from '../src/input/ingest.js';
import { parseXml } from '../src/xml/dom.js';
import { embedInvoiceXml, hybridFlavour } from '../src/pdf/embed.js';
import { fixturePath } from './fixtures.js';
import { makeBasePdf, xmlFor } from './hybrid-fixtures.js';
import { fieldLocationOf, hasOwnLocation, locationOf } from '../src/syntax/reader-helpers.js';
import type { Located } from '../src/model/invoice.js';

const read = (xml: string | Buffer) => readCii(parseXml(xml).root);

/** Drop `$loc` for readable deep comparisons. */
function plain<T>(v: T): T {
  return JSON.parse(JSON.stringify(v, (k, x) => (k === '$loc' ? undefined : x)));
}

test('CEN example 5 (maximum EN 16931 content): header, parties, references', () => {
  const inv = read(readFileSync(fixturePath('cen/examples/cii/CII_example5.xml')));
  assert.equal(inv.kind, 'invoice');
  assert.equal(inv.specificationId, 'urn:cen.eu:en16931:2017');
  assert.equal(inv.number, 'TOSL110');
  assert.equal(inv.typeCode, '380');
  assert.equal(inv.issueDate, '2013-04-10');
  assert.deepEqual(plain(inv.notes), [{ text: 'Ordered through our website', subjectCode: 'AAI' }]);
  assert.equal(inv.buyerReference, 'qwerty');
  assert.equal(inv.salesOrderReference, '123');
  assert.equal(inv.purchaseOrderReference, 'PO4711');
  assert.equal(inv.contractReference, '2013-05');
  assert.equal(inv.projectReference, 'Project345');
  assert.equal(inv.despatchAdviceReference, '5433');
  assert.equal(inv.receivingAdviceReference, '3544');
  // AdditionalReferencedDocument without TypeCode is neither BT-17 (50), BT-18 (130) nor BG-24 (916).
  assert.equal(inv.tenderOrLotReference, undefined);
  assert.equal(inv.invoicedObjectIdentifier, undefined);
  assert.deepEqual(plain(inv.supportingDocuments), [
    {
      reference: 'sales slip',
      description: 'your sales slip',
      attachment: {
        contentBase64: 'SlZCRVJpMHhMalVOQ2lVTkNqRWdNQ0J2WW1vT3k2SlRaWDliY2dSVnhJVkcuLi50Ykxvc0NoVTJYUmY5eGIvb21zY2dUWS9sWEVoVWI=',
        mimeCode: 'application/pdf',
        filename: 'EHF.pdf',
      },
    },
  ]);

  const s = inv.seller;
  assert.equal(s.name, 'SellerCompany');
  assert.equal(s.tradingName, 'SelCo');
  assert.equal(s.additionalLegalInfo, 'Export'); // BT-33
  assert.deepEqual(s.identifiers, [{ value: '5790000436101', schemeId: '0088' }]); // BT-29 GlobalID + scheme
  assert.deepEqual(s.legalRegistrationId, { value: 'NL16356706' }); // BT-30
  assert.equal(s.vatId, 'NL16356706'); // BT-31 schemeID VA
  assert.equal(s.taxRegistrationId, 'NL16356706'); // BT-32 schemeID FC
  assert.deepEqual(s.electronicAddress, { value: 'info@selco.nl', schemeId: 'EM' });
  assert.deepEqual(plain(s.contacts), [{ name: 'Anthon Larsen', phone: '+3198989898', email: 'Anthon@Selco.nl' }]);
  assert.deepEqual(plain(s.address), {
    postcode: '54321',
    line1: 'Hoofdstraat 4',
    line2: 'Om de hoek',
    city: 'Grootstad',
    countryCode: 'NL',
    countrySubdivision: 'Overijssel',
  });
  assert.equal(inv.buyer.name, 'Buyercompany ltd');
  assert.equal(inv.buyer.vatId, 'DK16356607');
  assert.equal(inv.buyer.taxRegistrationId, undefined);
  assert.deepEqual(plain(inv.taxRepresentative), {
    name: 'Dick Panama',
    vatId: 'DK16356609',
    address: {
      postcode: '101',
      line1: 'Anystreet, Building 1',
      line2: '6th floor',
      city: 'Anytown',
      countryCode: 'DK',
      countrySubdivision: 'Jutland',
    },
  });
  assert.equal(inv.delivery?.partyName, 'Logistic service Ltd');
  assert.deepEqual(inv.delivery?.locationId, { value: '5790000436068', schemeId: '0088' });
  assert.equal(inv.delivery?.actualDeliveryDate, '2013-04-15');
  assert.equal(inv.delivery?.address?.city, 'Deliverycity');
});

test('CEN example 5: settlement, payment, VAT, allowances vs charges, totals with BT-110 and BT-111', () => {
  const inv = read(readFileSync(fixturePath('cen/examples/cii/CII_example5.xml')));
  assert.equal(inv.currency, 'DKK');
  assert.equal(inv.vatAccountingCurrency, 'EUR');
  assert.equal(inv.taxPointDate, '2013-04-10'); // udt:DateString
  assert.deepEqual(plain(inv.payee), {
    identifiers: [{ value: 'DK16356608' }],
    name: 'Dagobert Duck',
    legalRegistrationId: { value: 'DK16356608' },
  });
  assert.deepEqual(plain(inv.payment), {
    creditTransfers: [{ accountId: 'DK1212341234123412' }, { accountId: 'A' }],
    directDebit: { creditorId: 'DK5678', mandateReference: '123456' },
    remittanceInformation: 'Payref1',
    meansCode: '58',
    meansText: 'Half prepaid',
  });
  assert.equal(inv.paymentTerms, '50% prepaid, 50% within one month');
  assert.equal(inv.dueDate, '2013-05-10');
  assert.deepEqual(plain(inv.invoicingPeriod), { start: '2013-03-10', end: '2013-04-10' });
  assert.deepEqual(plain(inv.vatBreakdown), [
    { taxAmount: '375', taxableAmount: '1500', categoryCode: 'S', rate: '25' },
    { taxAmount: '300', taxableAmount: '2500', categoryCode: 'S', rate: '12' },
  ]);
  const ac = { percentage: '10', baseAmount: '1500', amount: '150', vatCategoryCode: 'S', vatRate: '25' };
  assert.deepEqual(plain(inv.allowances), [{ ...ac, reasonCode: '95', reason: 'Loyal customer' }]);
  assert.deepEqual(plain(inv.charges), [{ ...ac, reasonCode: 'ABL', reason: 'Packaging' }]);
  assert.deepEqual(plain(inv.totals), {
    lineNetTotal: '4000.00', // lexical form untouched
    chargeTotal: '150',
    allowanceTotal: '150',
    taxExclusiveAmount: '4000',
    taxTotal: '675.00', // currencyID DKK = BT-5
    taxTotalAccountingCurrency: '628.62', // currencyID EUR = BT-6
    taxInclusiveAmount: '4675',
    paidAmount: '2337.5',
    amountDue: '2337.5',
  });
  assert.deepEqual(plain(inv.precedingInvoices), [{ number: 'TOSL109', date: '2013-03-10' }]);
  assert.equal(inv.buyerAccountingReference, '67543');
});

test('CEN example 5: lines with item, price, line allowances/charges, period, object id', () => {
  const inv = read(readFileSync(fixturePath('cen/examples/cii/CII_example5.xml')));
  assert.equal(inv.lines.length, 3);
  const l = inv.lines[0];
  assert.deepEqual(
    plain({ ...l, allowances: undefined, charges: undefined }),
    plain({
      id: '1',
      note: 'first line',
      standardItemId: { value: '1234567890128', schemeId: '0088' },
      sellerItemId: 'JB007',
      buyerItemId: 'BUY123',
      itemName: 'Printing paper',
      itemDescription: 'Printing paper, 2mm',
      attributes: [{ name: 'Thickness', value: '2 mm' }],
      classifications: [],
      originCountryCode: 'NL',
      orderLineReference: '1',
      grossPrice: '1.1',
      priceDiscount: '10',
      netPrice: '1',
      priceBaseQuantity: '1',
      priceBaseQuantityUnitCode: 'C62',
      grossPriceBaseQuantity: '1.1', // the gross price's own BasisQuantity differs from the net price's
      grossPriceBaseQuantityUnitCode: 'C62',
      quantity: '1000',
      unitCode: 'C62',
      vatCategoryCode: 'S',
      vatRate: '25',
      period: { start: '2013-03-10', end: '2013-03-10' },
      netAmount: '1000',
      objectIdentifier: { value: 'Object2' },
      buyerAccountingReference: 'ACC7654',
    }),
  );
  assert.deepEqual(plain(l.allowances), [
    { percentage: '10', baseAmount: '1000', amount: '100', reasonCode: '95', reason: 'Loyal customer' },
  ]);
  assert.deepEqual(plain(l.charges), [{ percentage: '10', baseAmount: '1000', amount: '100', reasonCode: 'ABL', reason: 'Packaging' }]);
  assert.equal(inv.lines[2].itemName, 'American Cookies');
  assert.equal(inv.lines[2].priceBaseQuantity, undefined);
});

test('$loc: every value set points at its element, attributes at @name', () => {
  const inv = read(readFileSync(fixturePath('cen/examples/cii/CII_example5.xml')));
  assert.equal(inv.$loc?.self, '/rsm:CrossIndustryInvoice[1]');
  assert.equal(inv.$loc?.number, '/rsm:CrossIndustryInvoice[1]/rsm:ExchangedDocument[1]/ram:ID[1]');
  assert.equal(inv.$loc?.issueDate, '/rsm:CrossIndustryInvoice[1]/rsm:ExchangedDocument[1]/ram:IssueDateTime[1]/udt:DateTimeString[1]');
  assert.equal(
    inv.totals.$loc?.taxTotalAccountingCurrency,
    '/rsm:CrossIndustryInvoice[1]/rsm:SupplyChainTradeTransaction[1]/ram:ApplicableHeaderTradeSettlement[1]/ram:SpecifiedTradeSettlementHeaderMonetarySummation[1]/ram:TaxTotalAmount[2]',
  );
  assert.equal(
    inv.lines[1].$loc?.self,
    '/rsm:CrossIndustryInvoice[1]/rsm:SupplyChainTradeTransaction[1]/ram:IncludedSupplyChainTradeLineItem[2]',
  );
  assert.match(inv.lines[0].$loc!.unitCode!, /ram:BilledQuantity\[1\]\/@unitCode$/);
  assert.match(inv.seller.$loc!.vatId!, /ram:SpecifiedTaxRegistration\[1\]\/ram:ID\[1\]$/);
  assert.match(inv.seller.$loc!.taxRegistrationId!, /ram:SpecifiedTaxRegistration\[2\]\/ram:ID\[1\]$/);
  assert.match(inv.seller.$loc!['identifiers[0]']!, /ram:GlobalID\[1\]$/);
  // Every scalar field that is set has a location (checked on the invoice, totals and each line).
  for (const obj of [inv, inv.totals, ...inv.lines] as unknown as Record<string, unknown>[]) {
    for (const [k, v] of Object.entries(obj)) {
      if (typeof v === 'string' && k !== 'kind') assert.ok((obj.$loc as Record<string, string>)[k], `no $loc for ${k}`);
    }
  }
});

test('locationOf/fieldLocationOf/hasOwnLocation answer what $loc says, without settling the pending locations', () => {
  const bytes = readFileSync(fixturePath('cen/examples/cii/CII_example5.xml'));
  const lazy = read(bytes);
  const eager = read(bytes);
  const objects = (inv: typeof lazy) =>
    [inv, inv.totals, inv.seller, inv.buyer, inv.seller.address, ...inv.lines, ...inv.vatBreakdown] as Located[];
  const fields = ['self', 'number', 'netPrice', 'taxTotalAccountingCurrency', 'vatId', 'countryCode', 'unitCode', 'nothing-here'];
  const lazyObjects = objects(lazy);
  const eagerObjects = objects(eager);
  for (let k = 0; k < lazyObjects.length; k++) {
    for (const field of [undefined, ...fields]) {
      const settled = eagerObjects[k].$loc;
      const expected = settled ? (field && settled[field]) || settled.self : undefined;
      assert.equal(locationOf(lazyObjects[k], field), expected, `field ${field}`);
      // The field's own location only: no fallback to self.
      if (field) assert.equal(fieldLocationOf(lazyObjects[k], field), settled?.[field], `own field ${field}`);
    }
    assert.equal(hasOwnLocation(lazyObjects[k]), eagerObjects[k].$loc?.self !== undefined);
    // Still the lazy accessor: nothing was settled by the lookups above.
    assert.equal(typeof Object.getOwnPropertyDescriptor(lazyObjects[k], '$loc')?.get, 'function');
  }
  // Once settled (or set by other code), the plain $loc is what is read.
  lazy.totals.$loc = { self: '/x[1]' };
  assert.equal(locationOf(lazy.totals, 'lineNetTotal'), '/x[1]');
  assert.equal(fieldLocationOf(lazy.totals, 'lineNetTotal'), undefined);
  assert.equal(fieldLocationOf(lazy.totals, 'self'), '/x[1]');
  assert.equal(locationOf(undefined), undefined);
  assert.equal(hasOwnLocation({}), false);
});

const SYNTH = (body: string, prefixes = { rsm: 'rsm', ram: 'ram', udt: 'udt' }) => {
  const { rsm, ram, udt } = prefixes;
  const p = (x: string) => (x ? `${x}:` : '');
  return `<?xml version="1.0" encoding="UTF-8"?>
<${p(rsm)}CrossIndustryInvoice xmlns${rsm ? ':' + rsm : ''}="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
 xmlns:${ram}="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
 xmlns:${udt}="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
${body
  .replace(/\bram:/g, `${ram}:`)
  .replace(/\budt:/g, `${udt}:`)
  .replace(/\brsm:/g, p(rsm))}
</${p(rsm)}CrossIndustryInvoice>`;
};

const BODY = `<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:factur-x.eu:1p0:minimum</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
<rsm:ExchangedDocument><ram:ID> INV 1 </ram:ID><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">2024013</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>
<rsm:SupplyChainTradeTransaction>
<ram:ApplicableHeaderTradeAgreement><ram:BuyerReference></ram:BuyerReference>
<ram:SellerTradeParty><ram:ID>S-1</ram:ID><ram:ID>S-2</ram:ID><ram:GlobalID schemeID="0088">4000001123452</ram:GlobalID><ram:Name>Seller &amp; Co</ram:Name>
<ram:SpecifiedLegalOrganization><ram:ID schemeID="0002">HRB 1</ram:ID></ram:SpecifiedLegalOrganization>
<ram:SpecifiedTaxRegistration><ram:ID schemeID="FC">201/113/40209</ram:ID></ram:SpecifiedTaxRegistration>
<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE123456789</ram:ID></ram:SpecifiedTaxRegistration></ram:SellerTradeParty>
<ram:BuyerTradeParty><ram:Name>Buyer</ram:Name></ram:BuyerTradeParty></ram:ApplicableHeaderTradeAgreement>
<ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
<ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:TaxBasisTotalAmount> 100.50 </ram:TaxBasisTotalAmount>
<ram:TaxTotalAmount currencyID="EUR">19.095</ram:TaxTotalAmount><ram:GrandTotalAmount>+119.60</ram:GrandTotalAmount><ram:DuePayableAmount>1,5</ram:DuePayableAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation>
</ram:ApplicableHeaderTradeSettlement></rsm:SupplyChainTradeTransaction>`;

test('values are kept as written: empty elements "", lexical decimals, unreadable dates, escaped text', () => {
  const inv = read(SYNTH(BODY));
  assert.equal(inv.number, ' INV 1 ');
  assert.equal(inv.buyerReference, ''); // present but empty
  assert.equal(inv.issueDate, '2024013'); // not a 102 date: kept as found
  assert.equal(inv.seller.name, 'Seller & Co');
  assert.equal(inv.totals.taxExclusiveAmount, '100.50'); // surrounding whitespace only is dropped
  assert.equal(inv.totals.taxTotal, '19.095');
  assert.equal(inv.totals.taxInclusiveAmount, '+119.60');
  assert.equal(inv.totals.amountDue, '1,5'); // not a decimal: kept for the rules to report
  assert.deepEqual(inv.seller.identifiers, [{ value: 'S-1' }, { value: 'S-2' }, { value: '4000001123452', schemeId: '0088' }]);
  assert.deepEqual(inv.seller.legalRegistrationId, { value: 'HRB 1', schemeId: '0002' });
  assert.equal(inv.seller.vatId, 'DE123456789'); // VA wherever it comes among the registrations
  assert.equal(inv.seller.taxRegistrationId, '201/113/40209');
  assert.equal(inv.totals.taxTotalAccountingCurrency, undefined);
  assert.equal(inv.lines.length, 0);
});

test('prefixes do not matter: default namespace and unusual prefixes read the same', () => {
  const reference = JSON.stringify(read(SYNTH(BODY)), (k, v) => (k === '$loc' ? undefined : v));
  for (const prefixes of [
    { rsm: '', ram: 'a', udt: 'b' },
    { rsm: 'x', ram: 'y', udt: 'z' },
  ]) {
    const inv = read(SYNTH(BODY, prefixes));
    assert.equal(
      JSON.stringify(inv, (k, v) => (k === '$loc' ? undefined : v)),
      reference,
    );
    assert.ok(inv.$loc!.number!.includes(`${prefixes.ram}:ID[1]`));
  }
});

test('elements in a wrong namespace are not read', () => {
  const wrong = SYNTH(BODY).replace('ReusableAggregateBusinessInformationEntity:100', 'ReusableAggregateBusinessInformationEntity:999');
  const inv = read(wrong);
  assert.equal(inv.number, undefined);
  assert.equal(inv.seller.name, undefined);
});

test('every Factur-X profile (MINIMUM … EXTENDED) embedded in a PDF reads to a model with its profile', async () => {
  const base = await makeBasePdf();
  for (const profile of ['minimum', 'basic_wl', 'basic', 'en16931', 'extended'] as const) {
    const { pdf } = await embedInvoiceXml(base, { xml: xmlFor(profile), flavour: hybridFlavour(profile) });
    const r = await ingest(pdf);
    assert.equal(r.profile, profile);
    assert.ok(r.invoice?.number && r.invoice.totals.amountDue, profile);
    if (profile !== 'minimum' && profile !== 'basic_wl') assert.ok(r.invoice.lines.length > 0, profile);
  }
});
