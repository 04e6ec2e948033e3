/**
 * Invoice metadata: shape validation (FastAPI-style locs), profile requirements, mapping to the model,
 * EN 16931 computation of derived values and the consistency check of given ones, dropped fields per profile.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildInvoice, buildInvoiceXml } from '../src/metadata/build.js';
import { MetadataContentError, MetadataNotJsonError, MetadataShapeError, type ShapeErrorItem } from '../src/metadata/errors.js';
import { DOMESTIC_EXAMPLE, XRECHNUNG_EXAMPLE } from '../src/metadata/examples.js';
import { droppedFields } from '../src/metadata/profile-fit.js';
import type { InvoiceMetadata } from '../src/metadata/schema.js';
import { parseMetadata, validateMetadata } from '../src/metadata/validate.js';
import { SCENARIOS } from './invoice-scenarios.js';

function shapeItems(value: unknown): ShapeErrorItem[] {
  try {
    validateMetadata(value);
  } catch (err) {
    if (err instanceof MetadataShapeError) return err.items;
    throw err;
  }
  assert.fail('expected a MetadataShapeError');
}

function contentIssues(meta: InvoiceMetadata) {
  try {
    buildInvoice(validateMetadata(meta));
  } catch (err) {
    if (err instanceof MetadataContentError) return err.issues;
    throw err;
  }
  assert.fail('expected a MetadataContentError');
}

const clone = <T>(v: T): T => structuredClone(v);

describe('metadata shape validation', () => {
  test('the examples are valid', () => {
    for (const [name, meta] of Object.entries(SCENARIOS)) {
      assert.doesNotThrow(() => validateMetadata(clone(meta)), name);
    }
  });

  test('not JSON → MetadataNotJsonError', () => {
    assert.throws(() => parseMetadata('{"invoice_number": '), MetadataNotJsonError);
    assert.throws(() => parseMetadata('not json at all'), MetadataNotJsonError);
  });

  test('JSON that is not an object → one item at the metadata root', () => {
    const items = shapeItems([1, 2]);
    assert.deepEqual(
      items.map((i) => i.loc),
      [['body', 'metadata']],
    );
    assert.equal(items[0].type, 'model_type');
  });

  test('a missing nested field points at it', () => {
    const meta = clone(DOMESTIC_EXAMPLE) as Record<string, any>;
    delete meta.seller.name;
    delete meta.invoice_number;
    const items = shapeItems(meta);
    const locs = items.map((i) => JSON.stringify(i.loc));
    assert.ok(locs.includes(JSON.stringify(['body', 'metadata', 'seller', 'name'])), locs.join(' '));
    assert.ok(locs.includes(JSON.stringify(['body', 'metadata', 'invoice_number'])), locs.join(' '));
    for (const i of items) assert.equal(i.type, 'missing');
  });

  test('wrong types, formats and enums are reported with array indexes', () => {
    const meta = clone(DOMESTIC_EXAMPLE) as Record<string, any>;
    meta.line_items[1].quantity = [6.5]; // a JSON number is accepted (read losslessly); a list is no decimal
    meta.line_items[0].net_price = '450,00';
    meta.line_items[0].vat_category = 'X';
    meta.currency = 'euro';
    meta.invoice_date = '2026-13-01';
    const items = shapeItems(meta);
    const byLoc = new Map(items.map((i) => [i.loc.slice(2).join('.'), i]));
    assert.equal(byLoc.get('line_items.1.quantity')?.type, 'string_type');
    assert.equal(byLoc.get('line_items.0.net_price')?.type, 'string_pattern_mismatch');
    assert.equal(byLoc.get('line_items.0.vat_category')?.type, 'enum');
    assert.equal(byLoc.get('currency')?.type, 'string_pattern_mismatch');
    // The lexical form is fine, the calendar date is not: reported once schema errors are gone.
    const dateOnly = clone(DOMESTIC_EXAMPLE) as Record<string, any>;
    dateOnly.invoice_date = '2026-02-30';
    assert.deepEqual(
      shapeItems(dateOnly).map((i) => [i.loc.slice(2).join('.'), i.type]),
      [['invoice_date', 'date_parsing']],
    );
  });

  test('unknown fields are rejected, not ignored', () => {
    const items = shapeItems({ ...clone(DOMESTIC_EXAMPLE), sellr: { name: 'typo' } });
    assert.deepEqual(
      items.map((i) => [i.loc, i.type]),
      [[['body', 'metadata', 'sellr'], 'extra_forbidden']],
    );
  });

  test('null members count as absent', () => {
    const meta = {
      ...clone(DOMESTIC_EXAMPLE),
      due_date: null,
      contract_reference: null,
      buyer: { ...clone(DOMESTIC_EXAMPLE.buyer), registration_id: null },
    };
    const parsed = validateMetadata(meta);
    assert.equal('due_date' in parsed, false);
  });

  test('basic and above need lines; minimum can take totals instead', () => {
    const noLines = { ...clone(DOMESTIC_EXAMPLE), line_items: undefined };
    assert.deepEqual(
      shapeItems({ ...noLines, profile: 'basic' }).map((i) => i.loc.slice(2).join('.')),
      ['line_items'],
    );
    const minimum = validateMetadata({ ...noLines, profile: 'minimum', total_net_amount: '100.00', total_tax_amount: '19.00' });
    const built = buildInvoice(minimum);
    assert.equal(built.invoice.totals.taxInclusiveAmount, '119.00');
    assert.equal(built.invoice.totals.amountDue, '119.00');
    const missing = shapeItems({ ...noLines, profile: 'minimum' }).map((i) => i.loc.slice(2).join('.'));
    assert.deepEqual(missing.sort(), ['total_net_amount', 'total_tax_amount']);
  });

  test('XRechnung requires buyer reference, electronic addresses and the seller contact', () => {
    const meta = {
      ...clone(DOMESTIC_EXAMPLE),
      profile: 'xrechnung',
      buyer_reference: undefined,
      seller: { ...clone(DOMESTIC_EXAMPLE.seller), contact: { name: 'Erika' } },
    };
    const locs = shapeItems(meta).map((i) => i.loc.slice(2).join('.'));
    for (const expected of [
      'buyer_reference',
      'seller.electronic_address',
      'buyer.electronic_address',
      'seller.contact.phone',
      'seller.contact.email',
    ]) {
      assert.ok(locs.includes(expected), `${expected} in ${locs.join(', ')}`);
    }
    assert.doesNotThrow(() => validateMetadata(clone(XRECHNUNG_EXAMPLE)));
  });

  test('VAT category rules: rates, party VAT ids, exemption reasons', () => {
    const base = clone(DOMESTIC_EXAMPLE);
    const line = base.line_items![0];
    const locs = (meta: unknown) => shapeItems(meta).map((i) => i.loc.slice(2).join('.'));
    assert.deepEqual(locs({ ...base, line_items: [{ ...line, vat_rate: undefined }] }), ['line_items.0.vat_rate']);
    assert.deepEqual(locs({ ...base, line_items: [{ ...line, vat_rate: '0' }] }), ['line_items.0.vat_rate']);
    assert.deepEqual(
      locs({
        ...base,
        line_items: [{ ...line, vat_category: 'K', vat_rate: '19' }],
        delivery: { date: '2026-11-01', address: { country_code: 'FR' } },
      }),
      ['line_items.0.vat_rate'],
    );
    assert.deepEqual(locs({ ...base, line_items: [{ ...line, vat_category: 'E', vat_rate: undefined }] }), ['tax_breakdown']);
    assert.deepEqual(
      locs({
        ...base,
        buyer: { ...base.buyer, vat_number: undefined },
        line_items: [{ ...line, vat_category: 'AE', vat_rate: undefined }],
      }),
      ['buyer.vat_number'],
    );
    const k = locs({ ...base, line_items: [{ ...line, vat_category: 'K', vat_rate: undefined }] });
    assert.deepEqual(k.sort(), ['delivery.address', 'delivery.date']);
    const o = locs({ ...base, line_items: [{ ...line, vat_category: 'O', vat_rate: undefined }] });
    assert.deepEqual(o.sort(), ['buyer.vat_number', 'seller.vat_number']);
  });

  test('document allowances need a category when the lines use several', () => {
    const meta = clone(SCENARIOS.mixed_rates);
    meta.allowances = [{ amount: '10.00', reason: 'Discount' }];
    assert.deepEqual(
      shapeItems(meta).map((i) => i.loc.slice(2).join('.')),
      ['allowances.0.vat_category'],
    );
    const single = clone(DOMESTIC_EXAMPLE);
    single.allowances = [{ amount: '10.00', reason: 'Discount' }];
    const built = buildInvoice(validateMetadata(single));
    assert.deepEqual([built.invoice.allowances[0].vatCategoryCode, built.invoice.allowances[0].vatRate], ['S', '19']);
  });
});

describe('code lists and further EN 16931 rules', () => {
  const locs = (meta: unknown) => shapeItems(meta).map((i) => `${i.loc.slice(2).join('.')}:${i.type}`);

  test('codes outside the official lists are 422 with the rule id', () => {
    const meta = clone(DOMESTIC_EXAMPLE);
    meta.currency = 'EUX';
    meta.line_items![0].unit_code = 'QQQ';
    meta.buyer.address!.country_code = 'QQ';
    meta.seller.electronic_address = { id: 'x@y.z', scheme: 'ZZ' };
    meta.notes = [{ text: 'n', subject_code: 'NOPE' }];
    const items = shapeItems(meta);
    assert.deepEqual(items.map((i) => i.loc.slice(2).join('.')).sort(), [
      'buyer.address.country_code',
      'currency',
      'line_items.0.unit_code',
      'notes.0.subject_code',
      'seller.electronic_address.scheme',
    ]);
    assert.match(items.find((i) => i.loc.includes('unit_code'))!.msg, /BR-CL-23/);
  });

  test('VAT ids need their country prefix (BR-CO-09); the seller must be identifiable (BR-CO-26)', () => {
    assert.deepEqual(locs({ ...clone(DOMESTIC_EXAMPLE), buyer: { ...clone(DOMESTIC_EXAMPLE.buyer), vat_number: '987654321' } }), [
      'buyer.vat_number:value_error',
    ]);
    assert.doesNotThrow(() =>
      validateMetadata({ ...clone(DOMESTIC_EXAMPLE), buyer: { ...clone(DOMESTIC_EXAMPLE.buyer), vat_number: 'EL123456789' } }),
    );
    const anonymous = clone(SCENARIOS.not_subject_to_vat);
    delete anonymous.seller.registration_id;
    assert.deepEqual(locs(anonymous), ['seller.registration_id:missing']);
  });

  test('periods end after they start; prices: net = gross − discount', () => {
    const meta = clone(DOMESTIC_EXAMPLE);
    meta.invoice_period = { start: '2026-11-30', end: '2026-11-01' };
    meta.line_items![0] = { ...meta.line_items![0], gross_price: '500.00', price_discount: '10.00', net_price: '450.00' };
    assert.deepEqual(locs(meta).sort(), ['invoice_period.end:value_error', 'line_items.0.net_price:value_error']);
  });

  test('a positive amount due needs a due date or payment terms (BR-CO-25)', () => {
    const meta = clone(DOMESTIC_EXAMPLE);
    delete meta.due_date;
    delete meta.payment_terms;
    assert.throws(
      () => buildInvoice(validateMetadata(meta)),
      (err: unknown) => err instanceof MetadataShapeError && err.items[0].loc.join('.') === 'body.metadata.due_date',
    );
    assert.doesNotThrow(() => buildInvoice(validateMetadata({ ...meta, paid_amount: '1999.20' })));
  });
});

describe('computation of derived values (EN 16931 rounding)', () => {
  test('line amounts, breakdown and totals of the domestic example', () => {
    const { invoice } = buildInvoice(validateMetadata(clone(DOMESTIC_EXAMPLE)));
    assert.deepEqual(
      invoice.lines.map((l) => l.netAmount),
      ['900.00', '780.00'],
    );
    assert.deepEqual(
      invoice.vatBreakdown.map((b) => [b.categoryCode, b.rate, b.taxableAmount, b.taxAmount]),
      [['S', '19', '1680.00', '319.20']],
    );
    assert.deepEqual(
      [
        invoice.totals.lineNetTotal,
        invoice.totals.taxExclusiveAmount,
        invoice.totals.taxTotal,
        invoice.totals.taxInclusiveAmount,
        invoice.totals.amountDue,
      ],
      ['1680.00', '1680.00', '319.20', '1999.20', '1999.20'],
    );
    assert.equal(invoice.totals.allowanceTotal, undefined);
  });

  test('half-up rounding of line amounts and VAT per category, sums of rounded values', () => {
    const { invoice } = buildInvoice(validateMetadata(clone(SCENARIOS.mixed_rates)));
    // 12 × 18.3333 = 219.9996 → 220.00; 3 × 24.95 = 74.85
    assert.deepEqual(
      invoice.lines.map((l) => l.netAmount),
      ['220.00', '899.99', '74.85', '0.00'],
    );
    const bd = Object.fromEntries(invoice.vatBreakdown.map((b) => [`${b.categoryCode}${b.rate}`, [b.taxableAmount, b.taxAmount]]));
    // 294.85 × 7 % = 20.6395 → 20.64; 899.99 × 19 % = 170.9981 → 171.00
    assert.deepEqual(bd, { S7: ['294.85', '20.64'], S19: ['899.99', '171.00'], Z0: ['0.00', '0.00'] });
    assert.equal(invoice.totals.taxTotal, '191.64');
    assert.equal(invoice.totals.taxInclusiveAmount, '1386.48');
  });

  test('line and document allowances/charges, percentages, prepaid amount', () => {
    const { invoice } = buildInvoice(validateMetadata(clone(SCENARIOS.allowances_and_charges)));
    const chair = invoice.lines[0];
    // 10 × 224.10 = 2241.00; 5 % allowance = 112.05 (base filled in); + 15.00 charge.
    // S 19 %: 2143.95 + 960.00 − 50.00 + 20.00 = 3073.95 → VAT 584.0505 → 584.05; S 7 %: 12.00 → 0.84.
    assert.deepEqual([chair.allowances[0].amount, chair.allowances[0].baseAmount, chair.netAmount], ['112.05', '2241.00', '2143.95']);
    assert.equal(chair.priceDiscount, '24.9');
    assert.equal(invoice.charges[0].amount, '20.00');
    const t = invoice.totals;
    assert.deepEqual(
      [t.lineNetTotal, t.allowanceTotal, t.chargeTotal, t.taxExclusiveAmount, t.taxTotal, t.taxInclusiveAmount, t.paidAmount, t.amountDue],
      ['3115.95', '50.00', '20.00', '3085.95', '584.89', '3670.84', '500.00', '3170.84'],
    );
  });

  test('negative lines and credit notes keep their signs', () => {
    const neg = buildInvoice(validateMetadata(clone(SCENARIOS.negative_line))).invoice;
    assert.deepEqual(
      neg.lines.map((l) => l.netAmount),
      ['199.50', '-39.90'],
    );
    assert.equal(neg.totals.taxExclusiveAmount, '159.60');
    const cn = buildInvoice(validateMetadata(clone(SCENARIOS.credit_note))).invoice;
    assert.equal(cn.typeCode, '381');
    assert.equal(cn.kind, 'credit-note');
    assert.equal(cn.totals.amountDue, '535.50');
  });

  test("default exemption reasons for AE/K/G/O, the caller's reason for E", () => {
    const reasons = (meta: InvoiceMetadata) =>
      buildInvoice(validateMetadata(clone(meta))).invoice.vatBreakdown.map((b) => [b.categoryCode, b.exemptionReasonCode]);
    assert.deepEqual(reasons(SCENARIOS.reverse_charge), [['AE', 'VATEX-EU-AE']]);
    assert.deepEqual(reasons(SCENARIOS.intra_community), [['K', 'VATEX-EU-IC']]);
    assert.deepEqual(reasons(SCENARIOS.export), [['G', 'VATEX-EU-G']]);
    assert.deepEqual(reasons(SCENARIOS.not_subject_to_vat), [['O', 'VATEX-EU-O']]);
    assert.deepEqual(reasons(SCENARIOS.exempt_with_reason), [['E', 'VATEX-EU-132-1C']]);
  });

  test('given values that agree are kept as given', () => {
    const meta = clone(DOMESTIC_EXAMPLE);
    meta.line_items![0].line_total = '900';
    meta.total_net_amount = '1680';
    meta.tax_breakdown = [{ category: 'S', rate: '19.00', basis_amount: '1680.00', tax_amount: '319.20' }];
    const { invoice } = buildInvoice(validateMetadata(meta));
    assert.equal(invoice.lines[0].netAmount, '900');
    assert.equal(invoice.totals.taxExclusiveAmount, '1680');
    assert.equal(invoice.vatBreakdown.length, 1);
  });

  test('given values that disagree are rejected with field, given and expected value', () => {
    const meta = clone(DOMESTIC_EXAMPLE);
    meta.line_items![0].line_total = '901.00';
    meta.total_tax_amount = '300.00';
    meta.amount_due = '0.00';
    meta.tax_breakdown = [
      { category: 'S', rate: '19', tax_amount: '350.00' },
      { category: 'S', rate: '7', basis_amount: '10.00' },
    ];
    const issues = contentIssues(meta);
    const byField = Object.fromEntries(issues.map((i) => [i.field, i]));
    assert.deepEqual([byField['line_items[0].line_total'].given, byField['line_items[0].line_total'].expected], ['901.00', '900.00']);
    assert.equal(byField['tax_breakdown[0].tax_amount'].rule, 'BR-CO-17');
    assert.equal(byField['tax_breakdown[1]'].rule, 'BR-CO-18');
    assert.ok(byField.total_tax_amount && byField.amount_due, Object.keys(byField).join(', '));
  });

  test("a VAT amount within BR-CO-17's tolerance is accepted and drives the totals", () => {
    const meta = clone(DOMESTIC_EXAMPLE);
    meta.tax_breakdown = [{ category: 'S', rate: '19', tax_amount: '319.21' }];
    const { invoice } = buildInvoice(validateMetadata(meta));
    assert.equal(invoice.vatBreakdown[0].taxAmount, '319.21');
    assert.equal(invoice.totals.taxTotal, '319.21');
    assert.equal(invoice.totals.taxInclusiveAmount, '1999.21');
  });

  test('allowance amount must match base × percentage (PEPPOL-EN16931-R040)', () => {
    const meta = clone(DOMESTIC_EXAMPLE);
    meta.allowances = [{ amount: '10.00', base_amount: '100.00', percentage: '5', reason: 'Discount' }];
    assert.deepEqual(
      contentIssues(meta).map((i) => [i.field, i.expected]),
      [['allowances[0].amount', '5.00']],
    );
  });
});

describe('fields a profile cannot carry', () => {
  test('EN 16931 and EXTENDED carry everything of the full example', () => {
    const meta = validateMetadata(clone(SCENARIOS.full_en16931));
    assert.deepEqual(droppedFields(meta, 'en16931'), []);
    assert.deepEqual(droppedFields(meta, 'extended'), []);
  });

  test('BASIC lists line details and contacts, once per path', () => {
    const meta = validateMetadata(clone(SCENARIOS.full_en16931));
    const dropped = droppedFields(meta, 'basic');
    for (const p of [
      'seller.contact',
      'buyer.contact',
      'line_items[].description',
      'line_items[].classifications',
      'payment.credit_transfers[].bic',
      'project_reference',
    ]) {
      assert.ok(dropped.includes(p), `${p} in ${dropped.join(', ')}`);
    }
    assert.equal(new Set(dropped).size, dropped.length);
  });

  test('MINIMUM lists all but its own terms; line items are not listed (they make the totals)', () => {
    const meta = validateMetadata(clone(DOMESTIC_EXAMPLE));
    const dropped = droppedFields(meta, 'minimum');
    assert.ok(
      dropped.includes('payment') && dropped.includes('buyer.address') && dropped.includes('seller.address.city'),
      dropped.join(', '),
    );
    assert.ok(!dropped.some((p) => p.startsWith('line_items')), dropped.join(', '));
  });

  test('BusinessReadyInvoice extras: unit_label is reported, profile xrechnung_3.0 is an alias', () => {
    const meta = clone(XRECHNUNG_EXAMPLE) as Record<string, any>;
    meta.profile = 'xrechnung_3.0';
    meta.line_items[0].unit_label = 'pieces';
    const built = buildInvoiceXml(meta);
    assert.equal(built.profile, 'xrechnung');
    assert.deepEqual(built.droppedFields, ['line_items[].unit_label']);
  });

  test('contact person and department together: the department is dropped (CII-SR-465)', () => {
    const meta = clone(DOMESTIC_EXAMPLE);
    meta.seller.contact = { ...meta.seller.contact, department: 'Accounting' };
    const built = buildInvoiceXml(meta);
    assert.deepEqual(built.droppedFields, ['seller.contact.department']);
    assert.ok(!built.xml.includes('DepartmentName'));
  });
});
