/**
 * Every PDF and XML of ../shared/corpus goes through ingest() without a crash, and for every file that
 * carries an invoice, the extracted number, issue date, currency, seller/buyer names and document totals
 * equal the values in its XML.
 *
 * "The values in its XML" are read independently of the readers under test: the XML is taken out of PDFs
 * with pdfjs-dist (a different PDF library) and looked up with plain local-name paths over the parsed tree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ingest, IngestError } from '../../src/input/ingest.js';
import { toExtractionResult } from '../../src/extract/result.js';
import { parseXml, type XmlElement } from '../../src/xml/dom.js';
import { CORPUS } from './corpus.js';

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (/\.(pdf|xml)$/i.test(e.name)) out.push(p);
  }
  return out;
}

/** Follow a path of local names, ignoring namespaces: deliberately not the readers' lookups. */
function at(el: XmlElement | undefined, ...names: string[]): XmlElement | undefined {
  let cur = el;
  for (const n of names) cur = cur?.children.find((c) => c.local === n);
  return cur;
}
const txt = (el: XmlElement | undefined): string | undefined => el?.text;
const num = (el: XmlElement | undefined): string | undefined => el?.text.trim();

interface Expected {
  number?: string;
  issueDate?: string;
  currency?: string;
  seller?: string;
  buyer?: string;
  lineNet?: string;
  net?: string;
  tax?: string;
  gross?: string;
  payable?: string;
}

/** Format 102 (CCYYMMDD) becomes ISO; any other format code is kept as written (the model's convention). */
function isoDate(el: XmlElement | undefined): string | undefined {
  const t = el?.text;
  const format = el?.attrs.find((a) => a.local === 'format')?.value;
  return t !== undefined && (format === undefined || format === '102') && /^\d{8}$/.test(t.trim())
    ? `${t.trim().slice(0, 4)}-${t.trim().slice(4, 6)}-${t.trim().slice(6)}`
    : t;
}

function taxInCurrency(amounts: XmlElement[], currency: string | undefined): string | undefined {
  const hit = amounts.find((a) => {
    const cur = a.attrs.find((x) => x.local === 'currencyID')?.value.trim();
    return cur === undefined || currency === undefined || cur === currency.trim();
  });
  return num(hit);
}

/** Expected values straight from the XML; undefined when the root is not an invoice. */
function expectedFrom(root: XmlElement): Expected | undefined {
  if (root.local === 'CrossIndustryInvoice' || root.local === 'CrossIndustryDocument') {
    const zf1 = root.local === 'CrossIndustryDocument';
    const header = at(root, zf1 ? 'HeaderExchangedDocument' : 'ExchangedDocument');
    const tx = at(root, zf1 ? 'SpecifiedSupplyChainTradeTransaction' : 'SupplyChainTradeTransaction');
    const ag = at(tx, zf1 ? 'ApplicableSupplyChainTradeAgreement' : 'ApplicableHeaderTradeAgreement');
    const st = at(tx, zf1 ? 'ApplicableSupplyChainTradeSettlement' : 'ApplicableHeaderTradeSettlement');
    const sum = at(st, zf1 ? 'SpecifiedTradeSettlementMonetarySummation' : 'SpecifiedTradeSettlementHeaderMonetarySummation');
    const currency = txt(at(st, 'InvoiceCurrencyCode'));
    return {
      number: txt(at(header, 'ID')),
      issueDate: isoDate(at(header, 'IssueDateTime', 'DateTimeString')),
      currency,
      seller: txt(at(ag, 'SellerTradeParty', 'Name')),
      buyer: txt(at(ag, 'BuyerTradeParty', 'Name')),
      lineNet: num(at(sum, 'LineTotalAmount')),
      net: num(at(sum, 'TaxBasisTotalAmount')),
      tax: taxInCurrency(sum?.children.filter((c) => c.local === 'TaxTotalAmount') ?? [], currency),
      gross: num(at(sum, 'GrandTotalAmount')),
      payable: num(at(sum, 'DuePayableAmount')),
    };
  }
  if ((root.local === 'Invoice' || root.local === 'CreditNote') && root.ns.includes('ubl:schema:xsd')) {
    const sum = at(root, 'LegalMonetaryTotal');
    const currency = txt(at(root, 'DocumentCurrencyCode'));
    return {
      number: txt(at(root, 'ID')),
      issueDate: txt(at(root, 'IssueDate')),
      currency,
      seller: txt(at(root, 'AccountingSupplierParty', 'Party', 'PartyLegalEntity', 'RegistrationName')),
      buyer: txt(at(root, 'AccountingCustomerParty', 'Party', 'PartyLegalEntity', 'RegistrationName')),
      lineNet: num(at(sum, 'LineExtensionAmount')),
      net: num(at(sum, 'TaxExclusiveAmount')),
      tax: taxInCurrency(
        root.children
          .filter((c) => c.local === 'TaxTotal')
          .map((t) => at(t, 'TaxAmount')!)
          .filter(Boolean),
        currency,
      ),
      gross: num(at(sum, 'TaxInclusiveAmount')),
      payable: num(at(sum, 'PayableAmount')),
    };
  }
  return undefined;
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

/** The attachments pdfjs-dist finds (name tree only), as the independent source of a PDF's XML. */
async function pdfjsAttachments(pdfjs: PdfJs, bytes: Uint8Array): Promise<Record<string, Uint8Array>> {
  const task = pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false, useSystemFonts: false, verbosity: 0 });
  try {
    const doc = await task.promise;
    const atts = ((await doc.getAttachments()) ?? {}) as Record<string, { filename: string; content: Uint8Array }>;
    return Object.fromEntries(Object.values(atts).map((a) => [a.filename, a.content]));
  } catch {
    return {};
  } finally {
    await task.destroy();
  }
}

test('every corpus PDF and XML is read, and invoice facts equal the XML', async () => {
  const pdfjs: PdfJs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const verdicts = new Map<string, { attachment?: string; syntax?: string | null }>(
    readFileSync(join(CORPUS, 'verdicts.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .map((v) => [v.file, v]),
  );
  const files = walk(CORPUS);
  assert.ok(files.length > 2500, `corpus has ${files.length} PDF/XML files`);

  const failures: string[] = [];
  const stats = { files: 0, invoicesChecked: 0, pdfInvoices: 0, zugferd1: 0, noXml: 0, rejected: 0 };
  for (const file of files) {
    const rel = relative(CORPUS, file);
    const bytes = new Uint8Array(readFileSync(file));
    stats.files++;
    let result;
    try {
      result = await ingest(bytes, rel);
    } catch (err) {
      // The only acceptable refusal is a typed one (e.g. the encrypted veraPDF test file), never a crash.
      if (err instanceof IngestError) {
        stats.rejected++;
        continue;
      }
      failures.push(`${rel}: crashed: ${(err as Error).stack}`);
      continue;
    }
    const extraction = toExtractionResult(result); // must not throw either
    if (result.problems.some((p) => p.code === 'NO_XML')) stats.noXml++;

    // Independent XML: the file itself, or what pdfjs-dist finds under the attachment name we chose.
    let xml: Uint8Array | undefined;
    if (result.container === 'xml') xml = bytes;
    else if (result.attachmentName !== undefined) {
      const expectedName = verdicts.get(rel)?.attachment;
      if (expectedName !== undefined && expectedName !== result.attachmentName) {
        failures.push(`${rel}: read attachment ${result.attachmentName}, the corpus verdict names ${expectedName}`);
      }
      const viaPdfjs = (await pdfjsAttachments(pdfjs, bytes))[result.attachmentName];
      if (!viaPdfjs) failures.push(`${rel}: pdfjs-dist does not see attachment ${result.attachmentName}`);
      else if (Buffer.compare(Buffer.from(viaPdfjs), Buffer.from(result.xmlBytes!)) !== 0) {
        failures.push(`${rel}: attachment bytes differ from pdfjs-dist's`);
      }
      xml = viaPdfjs;
    } else if (verdicts.get(rel)?.attachment !== undefined) {
      failures.push(`${rel}: no invoice XML found, the corpus verdict names ${verdicts.get(rel)?.attachment}`);
    }
    if (!xml) continue;

    let root: XmlElement;
    try {
      root = parseXml(xml).root;
    } catch {
      if (!result.problems.some((p) => p.code.startsWith('XML_')) && result.container === 'pdf') {
        failures.push(`${rel}: embedded XML is not well-formed but no XML_* problem was reported`);
      }
      continue;
    }
    const want = expectedFrom(root);
    if (!want) {
      if (result.invoice) failures.push(`${rel}: read an invoice from a non-invoice XML`);
      if (!result.problems.some((p) => p.code === 'UNKNOWN_XML')) failures.push(`${rel}: no UNKNOWN_XML problem`);
      continue;
    }
    const inv = result.invoice;
    if (!inv) {
      failures.push(`${rel}: invoice XML but no model`);
      continue;
    }
    stats.invoicesChecked++;
    if (result.container === 'pdf') stats.pdfInvoices++;
    if (result.syntax === 'zugferd1') stats.zugferd1++;
    const got: Expected = {
      number: inv.number,
      issueDate: inv.issueDate,
      currency: inv.currency,
      seller: inv.seller.name,
      buyer: inv.buyer.name,
      lineNet: inv.totals.lineNetTotal,
      net: inv.totals.taxExclusiveAmount,
      tax: inv.totals.taxTotal,
      gross: inv.totals.taxInclusiveAmount,
      payable: inv.totals.amountDue,
    };
    for (const key of Object.keys(want) as (keyof Expected)[]) {
      if (got[key] !== want[key]) failures.push(`${rel}: ${key} = ${JSON.stringify(got[key])}, XML has ${JSON.stringify(want[key])}`);
    }
    // The JSON answer carries the same values wherever no fallback was needed.
    const j = extraction.invoice_json!;
    const fell = new Set(j._meta.fallbacks.map((f) => f.field));
    const pairs: [string, string | null | undefined, string | undefined][] = [
      ['invoice_number', j.invoice_number, want.number],
      ['invoice_date', j.invoice_date, want.issueDate],
      ['currency', j.currency, want.currency],
      ['seller.name', j.seller?.name, want.seller],
      ['buyer.name', j.buyer?.name, want.buyer],
      ['totals.net_amount', j.totals?.net_amount, want.net],
      ['totals.tax_amount', j.totals?.tax_amount, want.tax],
      ['totals.gross_amount', j.totals?.gross_amount, want.gross],
      ['totals.payable_amount', j.totals?.payable_amount, want.payable],
    ];
    for (const [field, value, expected] of pairs) {
      if (fell.has(field)) continue;
      if ((value ?? undefined) !== expected)
        failures.push(`${rel}: invoice_json.${field} = ${JSON.stringify(value)}, XML has ${JSON.stringify(expected)}`);
    }
  }
  assert.deepEqual(failures.slice(0, 30), [], `${failures.length} mismatches`);
  // Guard against a vacuous pass: every file the verdicts call CII, UBL or ZUGFeRD 1.0 was checked.
  const invoicesInVerdicts = [...verdicts.values()].filter((v) => v.syntax === 'cii' || v.syntax === 'ubl' || v.syntax === 'zf1').length;
  assert.equal(stats.invoicesChecked, invoicesInVerdicts, JSON.stringify(stats));
  assert.ok(stats.pdfInvoices > 150, JSON.stringify(stats));
  assert.ok(stats.zugferd1 >= 11, JSON.stringify(stats));
  assert.ok(stats.noXml > 0, JSON.stringify(stats));
});
