/**
 * Round trip for every profile: metadata → CII XML (the writer, src/metadata) → ingest + ExtractionResult
 * (the readers) gives back the metadata's values, except the fields the writer reports as dropped for
 * that profile.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildInvoiceXml } from '../src/metadata/build.js';
import { DOMESTIC_EXAMPLE, XRECHNUNG_EXAMPLE } from '../src/metadata/examples.js';
import type { InvoiceMetadata } from '../src/metadata/schema.js';
import { ingest } from '../src/input/ingest.js';
import { toExtractionResult } from '../src/extract/result.js';
import { PROFILE_IDS } from '../src/model/profiles.js';

const linesCarried = (p: string) => p !== 'minimum' && p !== 'basic_wl';

for (const profile of PROFILE_IDS) {
  test(`round trip: ${profile}`, async () => {
    const meta: InvoiceMetadata = profile === 'xrechnung' ? XRECHNUNG_EXAMPLE : { ...DOMESTIC_EXAMPLE, profile };
    const built = buildInvoiceXml(meta);
    const dropped = new Set(built.droppedFields);
    const kept = (field: string) => !dropped.has(field);

    const r = await ingest(Buffer.from(built.xml));
    assert.deepEqual(r.problems, []);
    assert.equal(r.syntax, 'cii');
    // Every profile reads back as the one written, EXTENDED-CTC-FR included (not as the Factur-X EXTENDED it builds on).
    assert.equal(r.profile, profile);
    assert.equal(toExtractionResult(r).profile_detected, profile);
    assert.equal(r.format, profile === 'xrechnung' ? 'xrechnung' : 'factur-x');
    const { invoice_json: j, xml_extracted } = toExtractionResult(r);
    assert.equal(xml_extracted, true);
    assert.ok(j);

    assert.equal(j.invoice_number, meta.invoice_number);
    assert.equal(j.invoice_date, meta.invoice_date);
    assert.equal(j.currency, meta.currency);
    assert.equal(j.buyer_reference, meta.buyer_reference);
    assert.equal(j.due_date, kept('due_date') ? meta.due_date : null);

    assert.equal(j.seller?.name, meta.seller.name);
    assert.equal(j.seller?.vat_number, meta.seller.vat_number);
    if (kept('seller.address.line1')) {
      assert.deepEqual(
        [j.seller?.line1, j.seller?.city, j.seller?.postcode, j.seller?.country],
        [meta.seller.address!.line1, meta.seller.address!.city, meta.seller.address!.postcode, meta.seller.address!.country_code],
      );
    }
    assert.equal(j.seller?.registration_id, meta.seller.registration_id);
    assert.equal(j.buyer?.name, meta.buyer.name);
    assert.equal(j.buyer?.vat_number, kept('buyer.vat_number') ? meta.buyer.vat_number : null);
    if (kept('buyer.address')) assert.equal(j.buyer?.city, meta.buyer.address!.city);

    // Totals: the writer computed them from the lines; the reader must return exactly those strings.
    const t = built.invoice.totals;
    assert.deepEqual(j.totals, {
      net_amount: t.taxExclusiveAmount,
      tax_amount: t.taxTotal,
      gross_amount: t.taxInclusiveAmount,
      payable_amount: t.amountDue,
    });
    assert.deepEqual(j._meta.fallbacks, []);
    assert.deepEqual(j._meta.limitations, []);

    if (profile !== 'minimum') {
      assert.deepEqual(
        j.tax_breakdown,
        built.invoice.vatBreakdown.map((v) => ({
          category: v.categoryCode,
          vat_rate: v.rate,
          basis_amount: v.taxableAmount,
          tax_amount: v.taxAmount,
        })),
      );
    }
    if (linesCarried(profile)) {
      assert.equal(j.line_items.length, meta.line_items!.length);
      meta.line_items!.forEach((li, i) => {
        const got = j.line_items[i];
        assert.equal(got.description, li.name);
        assert.equal(got.quantity, li.quantity);
        assert.equal(got.unit_code, li.unit_code);
        assert.equal(got.unit_price, li.net_price);
        assert.equal(got.vat_rate, li.vat_rate);
        assert.equal(got.line_total, built.invoice.lines[i].netAmount);
      });
    } else {
      assert.deepEqual(j.line_items, []);
    }

    // The whole model survives too: every scalar the writer's model has reads back identically.
    const model = r.invoice!;
    for (const key of ['number', 'issueDate', 'typeCode', 'currency', 'specificationId', 'buyerReference'] as const) {
      assert.equal(model[key], built.invoice[key], key);
    }
  });
}
