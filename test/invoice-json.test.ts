/**
 * Model → InvoiceJson: exact values where the terms exist, and `_meta.limitations` / `_meta.fallbacks`
 * exactly when a neighbouring term or a derived value stood in.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyInvoice, emptyLine } from '../src/model/invoice.js';
import { toInvoiceJson } from '../src/extract/invoice-json.js';

function sample() {
  const inv = emptyInvoice();
  inv.number = 'INV-1';
  inv.issueDate = '2024-05-01';
  inv.currency = 'EUR';
  inv.seller = {
    ...inv.seller,
    name: 'S',
    legalRegistrationId: { value: 'HRB 1', schemeId: '0002' },
    vatId: 'DE1',
    identifiers: [{ value: 'SUP-9' }],
  };
  inv.seller.contacts.push({ email: 'a@s.example' });
  inv.buyer = { ...inv.buyer, name: 'B' };
  inv.totals = {
    lineNetTotal: '100.00',
    taxExclusiveAmount: '100.00',
    taxTotal: '19.00',
    taxInclusiveAmount: '119.00',
    amountDue: '119.00',
  };
  inv.vatBreakdown.push({ categoryCode: 'S', rate: '19', taxableAmount: '100.00', taxAmount: '19.00' });
  const line = emptyLine('1');
  Object.assign(line, { itemName: 'Widget', quantity: '2', unitCode: 'C62', netPrice: '50.00', vatRate: '19', netAmount: '100.00' });
  inv.lines.push(line);
  return inv;
}

test('a complete invoice maps term for term, without limitations', () => {
  const j = toInvoiceJson(sample());
  assert.equal(j.seller?.registration_id, 'HRB 1');
  assert.equal(j.seller?.email, 'a@s.example');
  assert.equal(j.buyer?.line1, null);
  assert.deepEqual(j.totals, { net_amount: '100.00', tax_amount: '19.00', gross_amount: '119.00', payable_amount: '119.00' });
  assert.deepEqual(j.line_items, [
    { description: 'Widget', quantity: '2', unit_code: 'C62', unit_price: '50.00', vat_rate: '19', line_total: '100.00' },
  ]);
  assert.deepEqual(j._meta, { limitations: [], fallbacks: [] });
});

test('neighbouring terms standing in are marked heuristic_mapping', () => {
  const inv = sample();
  inv.lines[0].itemName = undefined;
  inv.lines[0].itemDescription = 'A widget, blue';
  inv.seller.contacts = [];
  inv.seller.electronicAddress = { value: 'e@s.example', schemeId: 'EM' };
  inv.seller.legalRegistrationId = undefined;
  const j = toInvoiceJson(inv);
  assert.equal(j.line_items[0].description, 'A widget, blue');
  assert.equal(j.seller?.email, 'e@s.example');
  assert.equal(j.seller?.registration_id, null); // BT-29 (SUP-9) is not offered as a registration
  assert.deepEqual(j._meta.limitations, ['heuristic_mapping']);
  assert.deepEqual(j._meta.fallbacks.map((f) => f.field).sort(), ['line_items[0].description', 'seller.email']);
});

test('missing totals derived from other terms are marked fallback_values_used, with decimal sums', () => {
  const inv = sample();
  inv.totals = { lineNetTotal: '100.10', taxInclusiveAmount: '119.12' };
  inv.vatBreakdown = [
    { categoryCode: 'S', rate: '19', taxableAmount: '100.00', taxAmount: '19.00' },
    { categoryCode: 'S', rate: '7', taxableAmount: '0.10', taxAmount: '0.02' },
  ];
  const j = toInvoiceJson(inv);
  assert.deepEqual(j.totals, { net_amount: '100.10', tax_amount: '19.02', gross_amount: '119.12', payable_amount: '119.12' });
  assert.deepEqual(j._meta.limitations, ['fallback_values_used']);
  assert.deepEqual(
    j._meta.fallbacks.map((f) => f.field),
    ['totals.net_amount', 'totals.tax_amount', 'totals.payable_amount'],
  );
});

test('no payable fallback when something was prepaid; best-effort syntax is always heuristic', () => {
  const inv = sample();
  inv.totals = { taxInclusiveAmount: '119.00', paidAmount: '19.00' };
  const j = toInvoiceJson(inv, { bestEffortSyntax: true });
  assert.equal(j.totals?.payable_amount, null);
  assert.deepEqual(j._meta.limitations, ['heuristic_mapping', 'fallback_values_used']); // tax summed from BG-23
});

test('an empty model gives nulls and empty lists, not undefined', () => {
  const j = toInvoiceJson(emptyInvoice());
  assert.equal(j.invoice_number, null);
  assert.equal(j.seller, null);
  assert.equal(j.totals, null);
  assert.deepEqual([j.tax_breakdown, j.line_items], [[], []]);
});
