/**
 * UBL 2.1 writer (src/syntax/ubl/writer.ts) and the metadata's syntax / peppol profile: every writer scenario as
 * EN 16931, XRechnung and Peppol BIS UBL passes the UBL 2.1 schema layer and fires no error in the rule sets its
 * CustomizationID selects, and says the same as the CII of the same metadata (every business term, totals and VAT
 * breakdown included); the binding's particular places (credit notes, notes' subject codes, price discount, card,
 * mandate, attachments, BT-8, project reference of a credit note) checked element by element; the combinations the
 * metadata refuses.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildInvoiceXml } from '../src/metadata/build.js';
import { SUPPORTING_DOCUMENTS_EXAMPLE } from '../src/metadata/examples.js';
import type { InvoiceMetadata } from '../src/metadata/schema.js';
import { PEPPOL_CUSTOMIZATION_ID, UBL_CUSTOMIZATION_ID, type UblProfileId } from '../src/model/profiles.js';
import { readCii } from '../src/syntax/cii/reader.js';
import { readUbl } from '../src/syntax/ubl/reader.js';
import { diffInvoices } from '../src/transform/model-diff.js';
import { selectRuleSets } from '../src/validation/rulesets.js';
import { validateBytes } from '../src/validation/validate.js';
import { child, childrenNamed, parseXml, type XmlElement } from '../src/xml/dom.js';
import { SCENARIOS } from './invoice-scenarios.js';

const NS = {
  inv: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  cn: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

const TARGETS: UblProfileId[] = ['en16931', 'xrechnung', 'peppol'];

/** Electronic addresses Peppol accepts (its EAS list has no EM): a GLN with a valid check digit, a German VAT id. */
const PEPPOL_SELLER_ADDRESS = { id: '4000001123452', scheme: '0088' };
const PEPPOL_BUYER_ADDRESS = { id: 'DE987654321', scheme: '9930' };

/** A scenario's metadata for a UBL target: what XRechnung and Peppol require beyond EN 16931 filled in. */
function forTarget(meta: InvoiceMetadata, target: UblProfileId, syntax: 'cii' | 'ubl' = 'ubl'): InvoiceMetadata {
  const m: InvoiceMetadata = { ...structuredClone(meta), profile: target, syntax: target === 'peppol' ? undefined : syntax };
  if (target === 'peppol' && syntax === 'cii') m.profile = 'en16931';
  if (target !== 'en16931') {
    m.buyer_reference ??= '04011000-12345-34';
    m.seller.electronic_address ??= { id: 'billing@muster-software.de', scheme: 'EM' };
    m.buyer.electronic_address ??= { id: 'ap@example.com', scheme: 'EM' };
  }
  if (target === 'peppol') {
    if (m.seller.electronic_address?.scheme === 'EM') m.seller.electronic_address = PEPPOL_SELLER_ADDRESS;
    if (m.buyer.electronic_address?.scheme === 'EM') m.buyer.electronic_address = PEPPOL_BUYER_ADDRESS;
  }
  return m;
}

/** The UBL XML of a scenario for a target, parsed; `root` is the Invoice or CreditNote element. */
function ubl(meta: InvoiceMetadata, target: UblProfileId = 'en16931') {
  const built = buildInvoiceXml(forTarget(meta, target));
  return { ...built, root: parseXml(built.xml).root };
}

/** Path of cac/cbc children below `el`, e.g. q(root, 'cac:AccountingSupplierParty/cac:Party/cbc:EndpointID'). */
function all(el: XmlElement, path: string): XmlElement[] {
  let level = [el];
  for (const step of path.split('/')) {
    const [prefix, local] = step.split(':');
    const ns = NS[prefix as 'cac' | 'cbc'];
    level = level.flatMap((e) => childrenNamed(e, ns, local));
  }
  return level;
}
const q = (el: XmlElement, path: string): XmlElement | undefined => all(el, path)[0];
const text = (el: XmlElement, path: string): string | undefined => q(el, path)?.text;

const peppolRuleSetThere = selectRuleSets({ syntax: 'ubl', guideline: PEPPOL_CUSTOMIZATION_ID }).some((s) => s.includes('peppol'));

describe('every scenario as EN 16931, XRechnung and Peppol UBL', () => {
  for (const [name, meta] of Object.entries(SCENARIOS)) {
    for (const target of TARGETS) {
      test(`${name} as ${target}: UBL 2.1 schema, no rule error, the same business terms as the CII`, async () => {
        const built = buildInvoiceXml(forTarget(meta, target));
        assert.equal(built.syntax, 'ubl');
        assert.equal(built.target, target);
        const result = await validateBytes(new Uint8Array(Buffer.from(built.xml)), `${name}.xml`);
        assert.ok(result.layers_executed.includes('xsd'));
        assert.equal(result.rule_set_versions.xsd, 'UBL 2.1');
        assert.deepEqual(
          result.errors.filter((e) => e.severity === 'error'),
          [],
          `${name}/${target}`,
        );
        assert.ok(result.rule_sets.includes('en16931-ubl'), result.rule_sets.join());
        if (target === 'xrechnung') assert.ok(result.rule_sets.includes('xrechnung-ubl'), result.rule_sets.join());
        if (target === 'peppol' && peppolRuleSetThere)
          assert.ok(
            result.rule_sets.some((s) => s.includes('peppol')),
            result.rule_sets.join(),
          );
        const root = parseXml(built.xml).root;
        assert.equal(text(root, 'cbc:CustomizationID'), UBL_CUSTOMIZATION_ID[target]);
        // The CII of the same metadata says the same: totals, VAT breakdown, every other term (BT-24/23 aside).
        const cii = buildInvoiceXml(forTarget(meta, target, 'cii'));
        assert.equal(cii.syntax, 'cii');
        // Between German parties Peppol wants a rate in a category O breakdown (DE-R-014): 0, which EN 16931 CII leaves out.
        const rateForO = (d: { term: string; a?: string; b?: string }) => d.term === 'BT-119' && d.a === undefined && d.b === '0';
        assert.deepEqual(
          diffInvoices(readCii(parseXml(cii.xml).root), readUbl(root)).filter((d) => !(target === 'peppol' && rateForO(d))),
          [],
        );
      });
    }
  }
});

describe('the UBL binding, element by element', () => {
  test('identifiers per target: CustomizationID, ProfileID; Peppol electronic addresses with schemeID', () => {
    const en = ubl(SCENARIOS.domestic).root;
    assert.equal(en.local, 'Invoice');
    assert.equal(en.ns, NS.inv);
    assert.equal(text(en, 'cbc:CustomizationID'), 'urn:cen.eu:en16931:2017');
    assert.equal(q(en, 'cbc:ProfileID'), undefined);
    const xr = ubl(SCENARIOS.domestic, 'xrechnung').root;
    assert.equal(text(xr, 'cbc:CustomizationID'), 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0');
    assert.equal(text(xr, 'cbc:ProfileID'), 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0');
    const pe = ubl(SCENARIOS.domestic, 'peppol').root;
    assert.equal(text(pe, 'cbc:CustomizationID'), 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0');
    assert.equal(text(pe, 'cbc:ProfileID'), 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0');
    const endpoint = q(pe, 'cac:AccountingSupplierParty/cac:Party/cbc:EndpointID')!;
    assert.equal(endpoint.text, '4000001123452');
    assert.equal(endpoint.attrs.find((a) => a.local === 'schemeID')?.value, '0088');
    assert.equal(text(pe, 'cac:AccountingCustomerParty/cac:Party/cbc:EndpointID'), 'DE987654321');
  });

  test('a credit note (381) is a CreditNote: its type code, lines, quantity, and the due date in the payment means', () => {
    const { root } = ubl(SCENARIOS.credit_note);
    assert.equal(root.local, 'CreditNote');
    assert.equal(root.ns, NS.cn);
    assert.equal(text(root, 'cbc:CreditNoteTypeCode'), '381');
    assert.equal(q(root, 'cbc:InvoiceTypeCode'), undefined);
    assert.equal(q(root, 'cbc:DueDate'), undefined, 'UBL 2.1 CreditNote has no DueDate');
    assert.equal(text(root, 'cac:PaymentMeans/cbc:PaymentDueDate'), '2026-12-20');
    assert.equal(all(root, 'cac:CreditNoteLine').length, 1);
    assert.equal(all(root, 'cac:InvoiceLine').length, 0);
    assert.equal(text(root, 'cac:CreditNoteLine/cbc:CreditedQuantity'), '1');
    assert.equal(text(root, 'cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID'), 'RE-2026-0042');
    assert.equal(text(root, 'cac:BillingReference/cac:InvoiceDocumentReference/cbc:IssueDate'), '2026-11-20');
  });

  test("a credit note's project reference is a document reference of type 50 (CreditNote has no ProjectReference)", async () => {
    const meta = { ...structuredClone(SCENARIOS.credit_note), project_reference: 'PRJ-9' };
    const { root, xml } = ubl(meta);
    const ref = all(root, 'cac:AdditionalDocumentReference').find((r) => text(r, 'cbc:DocumentTypeCode') === '50')!;
    assert.equal(text(ref, 'cbc:ID'), 'PRJ-9');
    assert.equal(readUbl(root).projectReference, 'PRJ-9');
    assert.equal((await validateBytes(new Uint8Array(Buffer.from(xml)), 'cn.xml')).valid, true);
    // An invoice has cac:ProjectReference.
    assert.equal(
      text(ubl({ ...structuredClone(SCENARIOS.domestic), project_reference: 'PRJ-9' }).root, 'cac:ProjectReference/cbc:ID'),
      'PRJ-9',
    );
  });

  test('note subject codes (BT-21) as "#CODE#" before the text', () => {
    const { root } = ubl(SCENARIOS.reverse_charge);
    assert.equal(text(root, 'cbc:Note'), '#AAI#Reverse charge: VAT to be accounted for by the recipient.');
  });

  test('full content: references, parties, payee, tax representative, delivery, periods, item details, in schema order', () => {
    const { root } = ubl(SCENARIOS.full_en16931);
    assert.equal(text(root, 'cac:OrderReference/cbc:ID'), 'PO-991');
    assert.equal(text(root, 'cac:OrderReference/cbc:SalesOrderID'), 'SO-12');
    assert.equal(text(root, 'cac:OriginatorDocumentReference/cbc:ID'), 'LOT-2');
    const object = all(root, 'cac:AdditionalDocumentReference').find((r) => text(r, 'cbc:DocumentTypeCode') === '130')!;
    assert.equal(text(object, 'cbc:ID'), 'METER-778');
    const seller = q(root, 'cac:AccountingSupplierParty/cac:Party')!;
    assert.equal(text(seller, 'cac:PartyName/cbc:Name'), 'Muster Soft');
    assert.deepEqual(
      all(seller, 'cac:PartyTaxScheme').map((s) => [text(s, 'cbc:CompanyID'), text(s, 'cac:TaxScheme/cbc:ID')]),
      [
        ['DE123456789', 'VAT'],
        ['201/123/45678', 'FC'],
      ],
    );
    assert.equal(
      text(seller, 'cac:PartyLegalEntity/cbc:CompanyLegalForm'),
      'Geschäftsführer: Max Mustermann, Amtsgericht Berlin HRB 12345',
    );
    assert.equal(text(root, 'cac:PayeeParty/cac:PartyName/cbc:Name'), 'Factoring Bank AG');
    assert.equal(text(root, 'cac:TaxRepresentativeParty/cac:PartyTaxScheme/cbc:CompanyID'), 'DE111111111');
    assert.equal(text(root, 'cac:Delivery/cac:DeliveryLocation/cbc:ID'), '4000001987658');
    assert.equal(text(root, 'cac:Delivery/cac:DeliveryParty/cac:PartyName/cbc:Name'), 'Beispiel AG Lager');
    assert.equal(text(root, 'cac:InvoicePeriod/cbc:StartDate'), '2026-11-01');
    const line = q(root, 'cac:InvoiceLine')!;
    assert.equal(text(line, 'cbc:ID'), '10');
    assert.equal(text(line, 'cac:OrderLineReference/cbc:LineID'), '3');
    assert.equal(text(line, 'cac:Item/cac:StandardItemIdentification/cbc:ID'), '4012345000016');
    assert.equal(text(line, 'cac:Item/cac:CommodityClassification/cbc:ItemClassificationCode'), '43211503');
    assert.equal(text(line, 'cac:Item/cac:AdditionalItemProperty/cbc:Value'), 'Silver');
    assert.equal(text(line, 'cac:Item/cac:OriginCountry/cbc:IdentificationCode'), 'CN');
    // Item children in schema order: Description, Name, BuyersItemIdentification, SellersItemIdentification, ...
    const item = q(line, 'cac:Item')!;
    assert.deepEqual(
      item.children.map((c) => c.local),
      [
        'Description',
        'Name',
        'BuyersItemIdentification',
        'SellersItemIdentification',
        'StandardItemIdentification',
        'OriginCountry',
        'CommodityClassification',
        'ClassifiedTaxCategory',
        'AdditionalItemProperty',
      ],
    );
  });

  test('allowances and charges; the price discount as the price allowance with the gross price as its base', () => {
    const { root } = ubl(SCENARIOS.allowances_and_charges);
    const doc = all(root, 'cac:AllowanceCharge');
    assert.deepEqual(
      doc.map((a) => [text(a, 'cbc:ChargeIndicator'), text(a, 'cbc:Amount'), text(a, 'cac:TaxCategory/cbc:ID')]),
      [
        ['false', '50.00', 'S'],
        ['true', '20.00', 'S'],
      ],
    );
    assert.equal(text(doc[1], 'cbc:MultiplierFactorNumeric'), '2');
    assert.equal(text(doc[1], 'cbc:BaseAmount'), '1000.00');
    const chair = q(root, 'cac:InvoiceLine')!;
    assert.equal(text(chair, 'cac:Price/cbc:PriceAmount'), '224.10');
    assert.equal(text(chair, 'cac:Price/cac:AllowanceCharge/cbc:Amount'), '24.9');
    assert.equal(text(chair, 'cac:Price/cac:AllowanceCharge/cbc:BaseAmount'), '249.00');
    assert.deepEqual(
      all(chair, 'cac:AllowanceCharge').map((a) => [text(a, 'cbc:ChargeIndicator'), text(a, 'cbc:AllowanceChargeReasonCode')]),
      [
        ['false', '95'],
        ['true', 'AAA'],
      ],
    );
    assert.equal(text(root, 'cac:LegalMonetaryTotal/cbc:PrepaidAmount'), '500.00');
    for (const amount of all(root, 'cac:LegalMonetaryTotal/cbc:PayableAmount'))
      assert.equal(amount.attrs.find((a) => a.local === 'currencyID')?.value, 'EUR');
  });

  test('payment means: credit transfer account with BIC, direct debit mandate and SEPA creditor id, card with its network', () => {
    const ct = ubl(SCENARIOS.domestic).root;
    assert.equal(text(ct, 'cac:PaymentMeans/cbc:PaymentMeansCode'), '58');
    assert.equal(text(ct, 'cac:PaymentMeans/cbc:PaymentID'), 'RE-2026-0042');
    assert.equal(text(ct, 'cac:PaymentMeans/cac:PayeeFinancialAccount/cbc:ID'), 'DE02120300000000202051');
    assert.equal(text(ct, 'cac:PaymentMeans/cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cbc:ID'), 'BYLADEM1001');
    const dd = ubl(SCENARIOS.direct_debit).root;
    assert.equal(text(dd, 'cac:PaymentMeans/cac:PaymentMandate/cbc:ID'), 'MANDATE-77');
    assert.equal(text(dd, 'cac:PaymentMeans/cac:PaymentMandate/cac:PayerFinancialAccount/cbc:ID'), 'DE75512108001245126199');
    const sepa = all(dd, 'cac:AccountingSupplierParty/cac:Party/cac:PartyIdentification/cbc:ID').find(
      (i) => i.attrs.find((a) => a.local === 'schemeID')?.value === 'SEPA',
    );
    assert.equal(sepa?.text, 'DE98ZZZ09999999999');
    const card = ubl(SCENARIOS.card).root;
    assert.equal(text(card, 'cac:PaymentMeans/cac:CardAccount/cbc:PrimaryAccountNumberID'), '1234');
    assert.equal(text(card, 'cac:PaymentMeans/cac:CardAccount/cbc:NetworkID'), 'NA', 'mandatory in UBL, no EN 16931 term');
    assert.equal(text(card, 'cac:PaymentMeans/cac:CardAccount/cbc:HolderName'), 'E. Mustermann');
    // Two accounts: two payment means, the means text once (UBL-SR-46).
    const two = structuredClone(SCENARIOS.domestic);
    two.payment = {
      ...two.payment!,
      means_text: 'SEPA',
      credit_transfers: [...two.payment!.credit_transfers!, { account_id: '12345678' }],
    };
    const means = all(ubl(two).root, 'cac:PaymentMeans');
    assert.equal(means.length, 2);
    assert.equal(text(means[1], 'cac:PayeeFinancialAccount/cbc:ID'), '12345678');
    assert.deepEqual(
      means.map((m) => q(m, 'cbc:PaymentMeansCode')!.attrs.find((a) => a.local === 'name')?.value),
      ['SEPA', undefined],
    );
  });

  test('attachments with embedded binary objects, BT-8 as its UNTDID 2005 code, the price base quantity in its unit', async () => {
    const meta = { ...structuredClone(SUPPORTING_DOCUMENTS_EXAMPLE), profile: 'en16931' as const, syntax: 'ubl' as const };
    const { xml, droppedFields } = buildInvoiceXml(meta);
    assert.deepEqual(droppedFields, []);
    const root = parseXml(xml).root;
    const docs = all(root, 'cac:AdditionalDocumentReference');
    const bin = q(docs[0], 'cac:Attachment/cbc:EmbeddedDocumentBinaryObject')!;
    assert.equal(bin.text, 'JVBERi0xLjcKJSBUaW1lc2hlZXQK');
    assert.equal(bin.attrs.find((a) => a.local === 'mimeCode')?.value, 'application/pdf');
    assert.equal(bin.attrs.find((a) => a.local === 'filename')?.value, 'timesheet-2026-11.pdf');
    assert.equal(text(docs[0], 'cbc:DocumentDescription'), 'Timesheet November 2026');
    assert.equal(text(docs[1], 'cac:Attachment/cac:ExternalReference/cbc:URI'), 'https://example.com/contracts/7');
    // The metadata's "3" is held as CII's 5 in the model; UBL writes the UNTDID 2005 code.
    assert.equal(text(root, 'cac:InvoicePeriod/cbc:DescriptionCode'), '3');
    const base = q(root, 'cac:InvoiceLine/cac:Price/cbc:BaseQuantity')!;
    assert.equal(base.text, '100');
    assert.equal(base.attrs.find((a) => a.local === 'unitCode')?.value, 'KWH');
    const result = await validateBytes(new Uint8Array(Buffer.from(xml)), 'att.xml');
    assert.deepEqual(
      result.errors.filter((e) => e.severity === 'error'),
      [],
    );
  });

  test('category O: no rate anywhere in EN 16931 UBL; XRechnung wants 0 in the breakdown (BR-DE-14)', () => {
    const en = ubl(SCENARIOS.not_subject_to_vat).root;
    assert.equal(q(en, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:Percent'), undefined);
    assert.equal(q(en, 'cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory/cbc:Percent'), undefined);
    assert.equal(text(en, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:TaxExemptionReasonCode'), 'VATEX-EU-O');
    const xr = ubl(SCENARIOS.not_subject_to_vat, 'xrechnung').root;
    assert.equal(text(xr, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:Percent'), '0');
    assert.equal(q(xr, 'cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory/cbc:Percent'), undefined);
  });

  test('a VAT accounting currency: a second TaxTotal with BT-111 in that currency, without subtotals', () => {
    const meta = { ...structuredClone(SCENARIOS.domestic), tax_currency: 'USD', tax_total_in_tax_currency: '260.00' };
    const root = ubl(meta).root;
    const totals = all(root, 'cac:TaxTotal');
    assert.equal(totals.length, 2);
    assert.equal(all(totals[1], 'cac:TaxSubtotal').length, 0);
    assert.equal(q(totals[1], 'cbc:TaxAmount')!.attrs.find((a) => a.local === 'currencyID')?.value, 'USD');
    assert.equal(readUbl(root).totals.taxTotalAccountingCurrency, '260.00');
  });

  test('text is escaped, characters XML forbids never written', () => {
    const meta = structuredClone(SCENARIOS.domestic);
    meta.line_items![0].name = 'Müller & Söhne <GmbH> "quoted" ]]> \u{1F4A9}';
    const { xml, root } = ubl(meta);
    assert.ok(xml.includes('Müller &amp; Söhne &lt;GmbH&gt; "quoted" ]]&gt;'));
    assert.equal(text(q(root, 'cac:InvoiceLine')!, 'cac:Item/cbc:Name'), 'Müller & Söhne <GmbH> "quoted" ]]> \u{1F4A9}');
  });

  test('no empty elements (PEPPOL-EN16931-R008) in any scenario and target', () => {
    for (const meta of Object.values(SCENARIOS)) {
      for (const target of TARGETS) {
        const walk = (el: XmlElement): void => {
          if (el.children.length === 0) assert.notEqual(el.text.trim(), '', `empty ${el.local}`);
          el.children.forEach(walk);
        };
        walk(ubl(meta, target).root);
      }
    }
  });
});

describe('metadata: syntax and the peppol profile', () => {
  interface Item {
    loc: (string | number)[];
    msg: string;
    type: string;
  }
  const issues = (meta: unknown): Item[] => {
    try {
      buildInvoiceXml(meta);
    } catch (err) {
      return (err as { items?: Item[] }).items ?? [];
    }
    assert.fail('expected a 422');
  };
  const at = (items: Item[], ...loc: (string | number)[]) => items.find((i) => i.loc.join('.') === ['body', 'metadata', ...loc].join('.'));

  test('peppol is UBL by default; cii is the default otherwise', () => {
    assert.equal(buildInvoiceXml(forTarget(SCENARIOS.domestic, 'peppol')).syntax, 'ubl');
    assert.equal(buildInvoiceXml(SCENARIOS.domestic).syntax, 'cii');
    assert.match(buildInvoiceXml(SCENARIOS.domestic).xml, /<rsm:CrossIndustryInvoice/);
  });

  test('Factur-X profiles with ubl and peppol with cii are 422 at syntax', () => {
    for (const profile of ['minimum', 'basic_wl', 'basic', 'extended'] as const) {
      const item = at(issues({ ...SCENARIOS.domestic, profile, syntax: 'ubl' }), 'syntax');
      assert.match(item?.msg ?? '', new RegExp(`profile ${profile} is a Factur-X profile`), profile);
    }
    const peppolCii = at(issues({ ...forTarget(SCENARIOS.domestic, 'peppol'), syntax: 'cii' }), 'syntax')!;
    assert.match(peppolCii.msg, /Peppol BIS Billing 3.0 is written as UBL/);
    assert.equal(peppolCii.type, 'value_error');
    const bad = at(issues({ ...SCENARIOS.domestic, syntax: 'json' }), 'syntax')!;
    assert.equal(bad.type, 'enum');
  });

  test('what Peppol requires beyond EN 16931 is 422 at its field, with the Peppol rule id', () => {
    const base = { ...structuredClone(SCENARIOS.domestic), profile: 'peppol' as const };
    const items = issues({ ...base, buyer_reference: undefined, notes: [{ text: 'a' }, { text: 'b' }] });
    assert.match(at(items, 'seller', 'electronic_address')?.msg ?? '', /PEPPOL-EN16931-R020/);
    assert.match(at(items, 'buyer', 'electronic_address')?.msg ?? '', /PEPPOL-EN16931-R010/);
    // Seller and buyer are German here: two notes are allowed (R002's exception), and the German rules apply, the
    // buyer reference outright (DE-R-015, XRechnung's BR-DE-15 by number).
    assert.equal(at(items, 'notes'), undefined);
    assert.match(at(items, 'buyer_reference')?.msg ?? '', /Peppol between German parties .*\(DE-R-015\)/);
    const noContact = issues({
      ...forTarget(SCENARIOS.domestic, 'peppol'),
      seller: { ...base.seller, contact: undefined, electronic_address: { id: '4000001123452', scheme: '0088' } },
    });
    assert.match(at(noContact, 'seller', 'contact')?.msg ?? '', /DE-R-002/);
    // A French buyer: R003 (buyer or order reference) instead, and no German rules.
    const foreign = issues({
      ...forTarget(SCENARIOS.reverse_charge, 'peppol'),
      buyer_reference: undefined,
      seller: { ...base.seller, contact: undefined, electronic_address: { id: '4000001123452', scheme: '0088' } },
    });
    assert.match(at(foreign, 'buyer_reference')?.msg ?? '', /PEPPOL-EN16931-R003/);
    assert.equal(at(foreign, 'seller', 'contact'), undefined);
    const fr = forTarget({ ...SCENARIOS.reverse_charge, notes: [{ text: 'a' }, { text: 'b' }] }, 'peppol');
    assert.match(at(issues(fr), 'notes')?.msg ?? '', /PEPPOL-EN16931-R002/);
    const selfBilled = at(issues({ ...forTarget(SCENARIOS.domestic, 'peppol'), document_type_code: '389' }), 'document_type_code');
    assert.match(selfBilled?.msg ?? '', /P0100/);
    const cn = at(issues({ ...forTarget(SCENARIOS.credit_note, 'peppol'), document_type_code: '261' }), 'document_type_code');
    assert.match(cn?.msg ?? '', /P0101/);
    const process = at(issues({ ...forTarget(SCENARIOS.domestic, 'peppol'), business_process: 'urn:example:process' }), 'business_process');
    assert.match(process?.msg ?? '', /PEPPOL-EN16931-R007/);
    // A Peppol process other than 01 is kept as given.
    const p03 = buildInvoiceXml({
      ...forTarget(SCENARIOS.domestic, 'peppol'),
      business_process: 'urn:fdc:peppol.eu:2017:poacc:billing:03:1.0',
    });
    assert.equal(text(parseXml(p03.xml).root, 'cbc:ProfileID'), 'urn:fdc:peppol.eu:2017:poacc:billing:03:1.0');
  });

  test('X-Dropped-Fields for UBL: a credit note due date without payment means has nowhere to go', () => {
    const meta = { ...structuredClone(SCENARIOS.credit_note), payment: undefined, syntax: 'ubl' as const };
    const built = buildInvoiceXml(meta);
    assert.deepEqual(built.droppedFields, ['due_date']);
    assert.equal(child(parseXml(built.xml).root, NS.cbc, 'DueDate'), undefined);
    // The same metadata as CII carries it.
    assert.deepEqual(buildInvoiceXml({ ...meta, syntax: 'cii' }).droppedFields, []);
    // A unit label has no EN 16931 term in either syntax.
    const label = structuredClone(SCENARIOS.domestic);
    label.line_items![0].unit_label = 'pieces';
    assert.deepEqual(buildInvoiceXml({ ...label, syntax: 'ubl' }).droppedFields, ['line_items[].unit_label']);
  });
});
