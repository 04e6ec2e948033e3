/**
 * The check behind "every term the model holds appears on the page, with its value, as often as it occurs":
 * - modelTerms() lists the (term id, raw value) pairs of an invoice model, walking the model's fields with its own
 *   table of ids (written apart from src/render/model.ts, so a term the render model drops or mislabels is caught);
 * - pageTerms() reads them back from the page with parse5 (a spec-conforming HTML parser, not ours): every element with
 *   data-bt, its value from <data value>, <time datetime>, a BT-125 link's data: URL, or its text;
 * - compareTerms() says what differs, as multisets.
 * Helper module (no tests of its own): test/render.test.ts (fixtures) and test/conformance/render-corpus.test.ts.
 */
import { parse } from 'parse5';
import type { Identifier, Invoice, InvoiceLine, Party } from '../src/model/invoice.js';

export type Pair = [bt: string, value: string];

/** The (id, value) pairs of an invoice model, in no particular order; BT-125 as Base64 without whitespace. */
export function modelTerms(inv: Invoice): Pair[] {
  const out: Pair[] = [];
  const add = (bt: string, v: string | undefined) => {
    if (v !== undefined) out.push([bt, v]);
  };
  const id = (bt: string, i: Identifier | undefined, scheme?: string, version?: string) => {
    if (!i) return;
    add(bt, i.value);
    if (scheme) add(scheme, i.schemeId);
    if (version) add(version, i.schemeVersionId);
  };
  add('BT-1', inv.number);
  add('BT-2', inv.issueDate);
  add('BT-3', inv.typeCode);
  add('BT-5', inv.currency);
  add('BT-6', inv.vatAccountingCurrency);
  add('BT-7', inv.taxPointDate);
  add('BT-8', inv.taxPointDateCode);
  add('BT-9', inv.dueDate);
  add('BT-10', inv.buyerReference);
  add('BT-11', inv.projectReference);
  add('BT-12', inv.contractReference);
  add('BT-13', inv.purchaseOrderReference);
  add('BT-14', inv.salesOrderReference);
  add('BT-15', inv.receivingAdviceReference);
  add('BT-16', inv.despatchAdviceReference);
  add('BT-17', inv.tenderOrLotReference);
  id('BT-18', inv.invoicedObjectIdentifier, 'BT-18-1');
  add('BT-19', inv.buyerAccountingReference);
  add('BT-20', inv.paymentTerms);
  for (const n of inv.notes) {
    add('BT-21', n.subjectCode);
    add('BT-22', n.text);
  }
  add('BT-23', inv.businessProcess);
  add('BT-24', inv.specificationId);
  for (const p of inv.precedingInvoices) {
    add('BT-25', p.number);
    add('BT-26', p.date);
  }
  const party = (p: Party, ids: string[], seller: boolean) => {
    const [name, trading, ident, legal, vat, eaddr, l1, l2, l3, city, pc, sub, country, cname, phone, email] = ids;
    add(name, p.name);
    add(trading, p.tradingName);
    for (const i of p.identifiers) id(ident, i, `${ident}-1`);
    id(legal, p.legalRegistrationId, `${legal}-1`);
    add(vat, p.vatId);
    if (seller) {
      add('BT-32', p.taxRegistrationId);
      add('BT-33', p.additionalLegalInfo);
    }
    id(eaddr, p.electronicAddress, `${eaddr}-1`);
    const a = p.address;
    if (a) {
      add(l1, a.line1);
      add(l2, a.line2);
      add(l3, a.line3);
      add(city, a.city);
      add(pc, a.postcode);
      add(sub, a.countrySubdivision);
      add(country, a.countryCode);
    }
    for (const c of p.contacts) {
      add(cname, c.name);
      add(cname, c.department);
      add(phone, c.phone);
      add(email, c.email);
    }
  };
  // prettier-ignore
  party(
    inv.seller,
    [
      'BT-27',
      'BT-28',
      'BT-29',
      'BT-30',
      'BT-31',
      'BT-34',
      'BT-35',
      'BT-36',
      'BT-162',
      'BT-37',
      'BT-38',
      'BT-39',
      'BT-40',
      'BT-41',
      'BT-42',
      'BT-43',
    ],
    true,
  );
  party(
    inv.buyer,
    [
      'BT-44',
      'BT-45',
      'BT-46',
      'BT-47',
      'BT-48',
      'BT-49',
      'BT-50',
      'BT-51',
      'BT-163',
      'BT-52',
      'BT-53',
      'BT-54',
      'BT-55',
      'BT-56',
      'BT-57',
      'BT-58',
    ],
    false,
  );
  if (inv.payee) {
    add('BT-59', inv.payee.name);
    for (const i of inv.payee.identifiers) id('BT-60', i, 'BT-60-1');
    id('BT-61', inv.payee.legalRegistrationId, 'BT-61-1');
  }
  const rep = inv.taxRepresentative;
  if (rep) {
    add('BT-62', rep.name);
    add('BT-63', rep.vatId);
    const a = rep.address;
    if (a) {
      add('BT-64', a.line1);
      add('BT-65', a.line2);
      add('BT-164', a.line3);
      add('BT-66', a.city);
      add('BT-67', a.postcode);
      add('BT-68', a.countrySubdivision);
      add('BT-69', a.countryCode);
    }
  }
  const d = inv.delivery;
  if (d) {
    add('BT-70', d.partyName);
    id('BT-71', d.locationId, 'BT-71-1');
    add('BT-72', d.actualDeliveryDate);
    const a = d.address;
    if (a) {
      add('BT-75', a.line1);
      add('BT-76', a.line2);
      add('BT-165', a.line3);
      add('BT-77', a.city);
      add('BT-78', a.postcode);
      add('BT-79', a.countrySubdivision);
      add('BT-80', a.countryCode);
    }
  }
  add('BT-73', inv.invoicingPeriod?.start);
  add('BT-74', inv.invoicingPeriod?.end);
  const pay = inv.payment;
  if (pay) {
    add('BT-81', pay.meansCode);
    add('BT-82', pay.meansText);
    add('BT-83', pay.remittanceInformation);
    for (const ct of pay.creditTransfers) {
      add('BT-84', ct.accountId);
      add('BT-85', ct.accountName);
      add('BT-86', ct.serviceProviderId);
    }
    add('BT-87', pay.card?.primaryAccountNumber);
    add('BT-88', pay.card?.holderName);
    add('BT-89', pay.directDebit?.mandateReference);
    add('BT-90', pay.directDebit?.creditorId);
    add('BT-91', pay.directDebit?.debitedAccountId);
  }
  for (const [list, ids] of [
    [inv.allowances, ['BT-92', 'BT-93', 'BT-94', 'BT-95', 'BT-96', 'BT-97', 'BT-98']],
    [inv.charges, ['BT-99', 'BT-100', 'BT-101', 'BT-102', 'BT-103', 'BT-104', 'BT-105']],
  ] as const) {
    for (const ac of list) {
      add(ids[0], ac.amount);
      add(ids[1], ac.baseAmount);
      add(ids[2], ac.percentage);
      add(ids[3], ac.vatCategoryCode);
      add(ids[4], ac.vatRate);
      add(ids[5], ac.reason);
      add(ids[6], ac.reasonCode);
    }
  }
  const t = inv.totals;
  add('BT-106', t.lineNetTotal);
  add('BT-107', t.allowanceTotal);
  add('BT-108', t.chargeTotal);
  add('BT-109', t.taxExclusiveAmount);
  add('BT-110', t.taxTotal);
  add('BT-111', t.taxTotalAccountingCurrency);
  add('BT-112', t.taxInclusiveAmount);
  add('BT-113', t.paidAmount);
  add('BT-114', t.roundingAmount);
  add('BT-115', t.amountDue);
  for (const v of inv.vatBreakdown) {
    add('BT-116', v.taxableAmount);
    add('BT-117', v.taxAmount);
    add('BT-118', v.categoryCode);
    add('BT-119', v.rate);
    add('BT-120', v.exemptionReason);
    add('BT-121', v.exemptionReasonCode);
  }
  for (const s of inv.supportingDocuments) {
    add('BT-122', s.reference);
    add('BT-123', s.description);
    add('BT-124', s.externalLocation);
    if (s.attachment) {
      add('BT-125', s.attachment.contentBase64.replace(/[\t\n\r ]+/g, ''));
      add('BT-125-1', s.attachment.mimeCode);
      add('BT-125-2', s.attachment.filename);
    }
  }
  const line = (l: InvoiceLine) => {
    add('BT-126', l.id);
    add('BT-127', l.note);
    id('BT-128', l.objectIdentifier, 'BT-128-1');
    add('BT-129', l.quantity);
    add('BT-130', l.unitCode);
    add('BT-131', l.netAmount);
    add('BT-132', l.orderLineReference);
    add('BT-133', l.buyerAccountingReference);
    add('BT-134', l.period?.start);
    add('BT-135', l.period?.end);
    for (const [list, ids] of [
      [l.allowances, ['BT-136', 'BT-137', 'BT-138', 'BT-139', 'BT-140']],
      [l.charges, ['BT-141', 'BT-142', 'BT-143', 'BT-144', 'BT-145']],
    ] as const) {
      for (const ac of list) {
        add(ids[0], ac.amount);
        add(ids[1], ac.baseAmount);
        add(ids[2], ac.percentage);
        add(ids[3], ac.reason);
        add(ids[4], ac.reasonCode);
      }
    }
    add('BT-146', l.netPrice);
    add('BT-147', l.priceDiscount);
    add('BT-148', l.grossPrice);
    add('BT-149', l.priceBaseQuantity);
    add('BT-150', l.priceBaseQuantityUnitCode);
    add('BT-149', l.grossPriceBaseQuantity);
    add('BT-150', l.grossPriceBaseQuantityUnitCode);
    add('BT-151', l.vatCategoryCode);
    add('BT-152', l.vatRate);
    add('BT-153', l.itemName);
    add('BT-154', l.itemDescription);
    add('BT-155', l.sellerItemId);
    add('BT-156', l.buyerItemId);
    id('BT-157', l.standardItemId, 'BT-157-1');
    for (const c of l.classifications) {
      id('BT-158', c, 'BT-158-1');
      add('BT-158-2', c.listVersionId);
    }
    add('BT-159', l.originCountryCode);
    for (const a of l.attributes) {
      add('BT-160', a.name);
      add('BT-161', a.value);
    }
    add('BT-X-304', l.parentLineId);
    add('BT-X-8', l.subtype);
    for (const s of l.subLines ?? []) line(s);
  };
  for (const l of inv.lines) line(l);
  for (const p of inv.thirdPartyPayments ?? []) {
    add('BT-DEX-001', p.type);
    add('BT-DEX-002', p.amount);
    add('BT-DEX-003', p.description);
  }
  return out;
}

interface Node {
  nodeName: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
  value?: string;
  content?: Node;
}

function textOf(n: Node): string {
  if (n.nodeName === '#text') return n.value ?? '';
  let s = '';
  for (const c of n.childNodes ?? []) s += textOf(c);
  return s;
}

export interface PageTerm {
  bt: string;
  value: string;
  tag: string;
  /** BT-125 not embedded (data-omitted): its value is not on the page. */
  omitted?: string;
}

/** Every element with data-bt, in document order, with its value as the page's contract defines it. */
export function pageTerms(html: string): PageTerm[] {
  const out: PageTerm[] = [];
  const stack: Node[] = [parse(html) as unknown as Node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    const attrs = n.attrs ?? [];
    const get = (name: string) => attrs.find((a) => a.name === name)?.value;
    const bt = get('data-bt');
    if (bt !== undefined) {
      const tag = n.nodeName;
      const omitted = get('data-omitted');
      let value: string;
      if (tag === 'data') value = get('value') ?? '';
      else if (tag === 'time') value = get('datetime') ?? '';
      else if (bt === 'BT-125' && tag === 'a') value = (get('href') ?? '').replace(/^data:[^,]*;base64,/, '');
      else value = textOf(n);
      out.push({ bt, value, tag, ...(omitted ? { omitted } : {}) });
    }
    const kids = n.childNodes ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  return out;
}

export interface TermDiff {
  /** Pairs the model holds more often than the page shows them. */
  missing: Pair[];
  /** Pairs the page shows more often than the model holds them. */
  extra: Pair[];
  /** BT-125 values the page lists without embedding them. */
  omitted: number;
}

const key = ([bt, v]: Pair) => `${bt}\u0000${v}`;

/** The multiset difference between the model's pairs and the page's (a BT-125 listed without its content counts as shown). */
export function compareTerms(model: Pair[], page: PageTerm[]): TermDiff {
  const counts = new Map<string, number>();
  for (const p of model) counts.set(key(p), (counts.get(key(p)) ?? 0) + 1);
  const extra: Pair[] = [];
  let omitted = 0;
  const omittedBt = new Map<string, number>();
  for (const t of page) {
    if (t.omitted) {
      omitted++;
      omittedBt.set(t.bt, (omittedBt.get(t.bt) ?? 0) + 1);
      continue;
    }
    const k = key([t.bt, t.value]);
    const c = counts.get(k) ?? 0;
    if (c > 0) counts.set(k, c - 1);
    else extra.push([t.bt, t.value]);
  }
  const missing: Pair[] = [];
  for (const [k, c] of counts) {
    const [bt, v] = k.split('\u0000') as Pair;
    let left = c;
    // A value listed without its content (too large to embed, or not Base64) stands for one of its term's values.
    while (left > 0 && (omittedBt.get(bt) ?? 0) > 0) {
      omittedBt.set(bt, omittedBt.get(bt)! - 1);
      left--;
    }
    for (let i = 0; i < left; i++) missing.push([bt, v]);
  }
  return { missing, extra, omitted };
}
