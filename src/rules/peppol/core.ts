/**
 * The Peppol BIS 3.0 transaction rules (PEPPOL-EN16931-R*), the identifier rules (PEPPOL-COMMON-R*) and the
 * restricted code lists and formats (PEPPOL-EN16931-CL*, -P*, -F001), as pattern tables (model.ts): each rule
 * is the official assert's test, written against the parsed UBL document, under the official id.
 */
import { child, type XmlElement } from '../../xml/dom.js';
import { NS } from '../../xml/namespaces.js';
import { attr, has, sel, text, value, values } from '../xrechnung/dom.js';
import { isCac, isCbc, isCreditNote, isDocRoot, isInvoice, type DocEnv } from './env.js';
import {
  abnCheck,
  belgianEnterpriseCheck,
  codiceFiscaleCheck,
  codiceIpaCheck,
  glnCheck,
  mod11Check,
  partitaIvaCheck,
  swedishOrgNumberCheck,
} from './identifiers.js';
import type { Assert, ContextRule, Pattern } from './model.js';
import {
  hasEndpointId,
  hasMandateReference,
  hasProfileId,
  isDirectDebit,
  lineReferenceIsObject,
  oneTaxTotalWithBreakdown,
  priceAllowanceIsAllowance,
  taxTotalInAccountingCurrency,
} from './ubl-shared.js';
import type { RuleVariant } from './variant.js';
import {
  castableDate,
  compareDates,
  dec,
  decimalPlaces,
  HUNDRED,
  len,
  ns,
  num,
  ONE,
  roundHalfUp,
  substr,
  withinSlack,
  ZERO,
} from './xpath.js';
import { Big } from '../../model/decimal.js';
import { UBL_AMOUNT_ELEMENTS } from '../../syntax/ubl/amounts.js';

const SLACK = new Big('0.02');
/** xs:decimal of an element's value, `otherwise` when the element is absent (undefined: not a decimal). */
const decOr = (el: XmlElement | undefined, otherwise: Big.Big) => (el ? dec(text(el)) : otherwise);
/** XPath `round(x * 10 * 10) div 100`, which leaves a value of two decimals or fewer as it is. */
const rounded = (sum: Big.Big) => (decimalPlaces(sum) <= 2 ? sum : roundHalfUp(sum.times(HUNDRED)).div(HUNDRED));
/** The first cbc: / cac: child of that name (undefined for an absent parent). */
const cbc = (el: XmlElement | null | undefined, local: string) => child(el, NS.cbc, local);
const cac = (el: XmlElement | null | undefined, local: string) => child(el, NS.cac, local);

const parentIs = (el: XmlElement, test: (p: XmlElement | null) => boolean) => test(el.parent);
/** `ubl-invoice:Invoice/cac:X | ubl-creditnote:CreditNote/cac:X`. */
const underDocRoot = (el: XmlElement) => isDocRoot(el.parent);
/** `ubl-invoice:Invoice/cac:InvoiceLine/cac:X | ubl-creditnote:CreditNote/cac:CreditNoteLine/cac:X`. */
const underLine = (el: XmlElement) => {
  const line = el.parent;
  return (isCac(line, 'InvoiceLine') && isInvoice(line.parent)) || (isCac(line, 'CreditNoteLine') && isCreditNote(line.parent));
};

/** A document- or line-level allowance/charge as R040…R043 address them. */
const isDocOrLineAllowance = (el: XmlElement) => isCac(el, 'AllowanceCharge') && (underDocRoot(el) || underLine(el));

const A = (id: string, flag: Assert['flag'], message: string, test: Assert['test']): Assert => ({ id, flag, message, test });

/** text() of an element: its direct character data (what `X/text()` selects for a leaf). */
const textOf = (el: XmlElement | undefined) => (el ? el.text : undefined);

/** `cbc:EndpointID[@schemeID = s] | cac:PartyIdentification/cbc:ID[@schemeID = s] | cbc:CompanyID[@schemeID = s]`. */
function identifierRule(scheme: string, asserts: Assert[], endpointOnly = false): ContextRule {
  return {
    names: endpointOnly ? ['EndpointID'] : ['EndpointID', 'ID', 'CompanyID'],
    needsAttribute: true,
    match: (el) => {
      if (attr(el, 'schemeID') !== scheme || el.ns !== NS.cbc) return false;
      if (el.local === 'EndpointID') return true;
      if (endpointOnly) return false;
      if (el.local === 'CompanyID') return true;
      return el.local === 'ID' && isCac(el.parent, 'PartyIdentification');
    },
    asserts,
  };
}

/** normalize-space() of the context element's string value. */
const nsOf = (el: XmlElement) => ns(text(el));
const digitsOnly = (s: string, n: number) => s.length === n && /^[0-9]*$/.test(s);
/** `string-length(translate(s, '1234567890', '')) = 0`: nothing but ASCII digits (or nothing). */
const onlyDigits = (s: string) => /^[0-9]*$/.test(s);

export function corePatterns(v: RuleVariant): Pattern[] {
  /** R051's context: every amount except a TaxAmount outside the VAT breakdown total and (self-billing) its subtotals. */
  const r051Context = (el: XmlElement) => {
    if (el.ns !== NS.cbc) return false;
    if (el.local !== 'TaxAmount') return true;
    const p = el.parent;
    if (isCac(p, 'TaxTotal') && cac(p, 'TaxSubtotal')) return true;
    return v.r051CoversSubtotals && isCac(p, 'TaxSubtotal');
  };

  const documentRules: Assert[] = [
    A('PEPPOL-EN16931-R001', 'fatal', 'The business process (BT-23, cbc:ProfileID) must be given.', hasProfileId),
    A(
      'PEPPOL-EN16931-R007',
      'fatal',
      'The business process (BT-23) must be a Peppol process identifier.',
      (_r, env) => env.profile !== 'Unknown',
    ),
    A(
      'PEPPOL-EN16931-R002',
      'fatal',
      'At most one invoice note (BT-22) may be given, unless seller and buyer are both in Germany.',
      (r, env) => sel(r, 'cbc:Note').length <= 1 || env.bothDE,
    ),
    A(
      'PEPPOL-EN16931-R003',
      'fatal',
      'A buyer reference (BT-10) or a purchase order reference (BT-13) must be given.',
      (r) => has(r, 'cbc:BuyerReference') || has(r, 'cac:OrderReference/cbc:ID'),
    ),
    A('PEPPOL-EN16931-R004', 'fatal', `The specification identifier (BT-24) must start with ${v.customizationPrefix}.`, (r) => {
      const ids = sel(r, 'cbc:CustomizationID');
      const t = ns(ids.length === 0 ? '' : ids[0].text);
      return t.startsWith(v.customizationPrefix) && !(v.refusesDoubleColon && t.includes('::'));
    }),
    A('PEPPOL-EN16931-R053', 'fatal', 'Exactly one tax total with VAT breakdown (BG-23) must be given.', oneTaxTotalWithBreakdown),
    A(
      'PEPPOL-EN16931-R054',
      'fatal',
      'Exactly one tax total without VAT breakdown (BT-111) must be given when the VAT accounting currency (BT-6) is given, and none otherwise.',
      taxTotalInAccountingCurrency,
    ),
    A(
      'PEPPOL-EN16931-R055',
      'fatal',
      'The invoice total VAT amount (BT-110) and the VAT amount in accounting currency (BT-111) must have the same sign.',
      (r) => {
        if (!has(r, 'cbc:TaxCurrencyCode')) return true;
        const amounts = sel(r, 'cac:TaxTotal/cbc:TaxAmount');
        const inCurrency = (codePath: string) => {
          const code = ns(value(r, codePath));
          return amounts.filter((a) => attr(a, 'currencyID') === code).map((a) => num(text(a)));
        };
        const tax = inCurrency('cbc:TaxCurrencyCode');
        const doc = inCurrency('cbc:DocumentCurrencyCode');
        const some = (xs: number[], p: (x: number) => boolean) => xs.some(p);
        return (some(tax, (x) => x <= 0) && some(doc, (x) => x <= 0)) || (some(tax, (x) => x >= 0) && some(doc, (x) => x >= 0));
      },
    ),
  ];

  const r120: Assert = A(
    'PEPPOL-EN16931-R120',
    'fatal',
    'The line net amount (BT-131) must equal quantity × (net price / base quantity) + line charges − line allowances (within 0.02).',
    (line, env) => {
      // Direct child navigation: this runs on every line, and path lookups that build value lists cost more than the test.
      const price = cac(line, 'Price');
      const lineAmount = decOr(cbc(line, 'LineExtensionAmount'), ZERO);
      const quantity = decOr(cbc(line, env.isInvoiceDoc ? 'InvoicedQuantity' : 'CreditedQuantity'), ONE);
      const priceAmount = decOr(cbc(price, 'PriceAmount'), ZERO);
      let base = ONE;
      const baseQuantity = cbc(price, 'BaseQuantity');
      if (baseQuantity) {
        const b = dec(text(baseQuantity));
        if (b === undefined) throw new Error('xs:decimal cast');
        if (!b.eq(ZERO)) base = b;
      }
      if (lineAmount === undefined || quantity === undefined || priceAmount === undefined) throw new Error('xs:decimal cast');
      let charges: Big.Big | undefined;
      let allowances: Big.Big | undefined;
      for (const a of line.children) {
        if (a.local !== 'AllowanceCharge' || a.ns !== NS.cac) continue;
        const flag = ns(textOf(cbc(a, 'ChargeIndicator')));
        if (flag !== 'true' && flag !== 'false') continue;
        let sum = (flag === 'true' ? charges : allowances) ?? ZERO;
        for (const amount of a.children)
          if (amount.local === 'Amount' && amount.ns === NS.cbc) {
            const d = dec(text(amount));
            if (d === undefined) throw new Error('xs:decimal cast');
            sum = sum.plus(d);
          }
        if (flag === 'true') charges = sum;
        else allowances = sum;
      }
      // Steps that cannot change the value are left out: rounding a sum of two decimals or fewer (rounded), adding no
      // charges, dividing by a base quantity of 1 a price with no more decimals than a division keeps (Big.DP).
      const byOne = base === ONE || (base.eq(ONE) && decimalPlaces(priceAmount) <= Big.DP);
      let expected = quantity.times(byOne ? priceAmount : priceAmount.div(base));
      if (charges) expected = expected.plus(rounded(charges));
      if (allowances) expected = expected.minus(rounded(allowances));
      return withinSlack(lineAmount, expected, SLACK);
    },
  );

  const main: ContextRule[] = [
    { names: ['Invoice', 'CreditNote'], match: isDocRoot, asserts: documentRules },
    {
      names: ['TaxCurrencyCode'],
      match: (el) => isCbc(el, 'TaxCurrencyCode'),
      asserts: [
        A(
          'PEPPOL-EN16931-R005',
          'fatal',
          'The VAT accounting currency (BT-6) must differ from the invoice currency (BT-5).',
          (el) => ns(el.text) !== ns(el.parent ? textOf(sel(el.parent, 'cbc:DocumentCurrencyCode')[0]) : undefined),
        ),
      ],
    },
    {
      names: ['Party'],
      match: (el) => isCac(el, 'Party') && isCac(el.parent, 'AccountingCustomerParty'),
      asserts: [A('PEPPOL-EN16931-R010', 'fatal', 'The buyer electronic address (BT-49) must be given.', hasEndpointId)],
    },
    {
      names: ['Party'],
      match: (el) => isCac(el, 'Party') && isCac(el.parent, 'AccountingSupplierParty'),
      asserts: [A('PEPPOL-EN16931-R020', 'fatal', 'The seller electronic address (BT-34) must be given.', hasEndpointId)],
    },
    {
      names: ['AllowanceCharge'],
      match: (el) => isDocOrLineAllowance(el) && !!cbc(el, 'MultiplierFactorNumeric') && !cbc(el, 'BaseAmount'),
      asserts: [A('PEPPOL-EN16931-R041', 'fatal', 'An allowance or charge with a percentage must also give its base amount.', () => false)],
    },
    {
      names: ['AllowanceCharge'],
      match: (el) => isDocOrLineAllowance(el) && !cbc(el, 'MultiplierFactorNumeric') && !!cbc(el, 'BaseAmount'),
      asserts: [A('PEPPOL-EN16931-R042', 'fatal', 'An allowance or charge with a base amount must also give its percentage.', () => false)],
    },
    {
      names: ['AllowanceCharge'],
      match: isDocOrLineAllowance,
      asserts: [
        A(
          'PEPPOL-EN16931-R040',
          'fatal',
          'An allowance or charge amount must equal base amount × percentage / 100 (within 0.02) when both are given.',
          (ac) => {
            const pctEl = cbc(ac, 'MultiplierFactorNumeric');
            const baseEl = cbc(ac, 'BaseAmount');
            if (!(pctEl && baseEl)) return true;
            const amountEl = cbc(ac, 'Amount');
            const amount = amountEl ? dec(text(amountEl)) : ZERO;
            const base = dec(text(baseEl));
            const pct = dec(text(pctEl));
            if (amount === undefined || base === undefined || pct === undefined) throw new Error('xs:decimal cast');
            return withinSlack(amount, base.times(pct).div(HUNDRED), SLACK);
          },
        ),
        A('PEPPOL-EN16931-R043', 'fatal', "The charge indicator of an allowance or charge must be 'true' or 'false'.", (ac) => {
          const t = ns(textOf(cbc(ac, 'ChargeIndicator')));
          return t === 'true' || t === 'false';
        }),
      ],
    },
    {
      names: ['PaymentMeans'],
      match: (el) => isCac(el, 'PaymentMeans') && isDirectDebit(el),
      asserts: [
        A('PEPPOL-EN16931-R061', 'fatal', 'Payment by direct debit (49, 59) requires the mandate reference (BT-89).', hasMandateReference),
      ],
    },
    {
      names: UBL_AMOUNT_ELEMENTS,
      match: r051Context,
      asserts: [
        A(
          'PEPPOL-EN16931-R051',
          'fatal',
          'Every currencyID must be the invoice currency (BT-5), except on the VAT total in accounting currency (BT-111).',
          (el, env) => {
            const c = attr(el, 'currencyID');
            return c !== undefined && env.documentCurrency.includes(c);
          },
        ),
      ],
    },
    {
      names: ['StartDate'],
      match: (el) => isCbc(el, 'StartDate') && linePeriodDate(el, 'StartDate'),
      asserts: [
        A('PEPPOL-EN16931-R110', 'fatal', 'A line period (BG-26) must not start before the invoicing period (BG-14).', (d) => {
          const c = compareDates(d.text, headerPeriodDate(d, 'StartDate'));
          if (c === undefined) throw new Error('xs:date cast');
          return c >= 0;
        }),
      ],
    },
    {
      names: ['EndDate'],
      match: (el) => isCbc(el, 'EndDate') && linePeriodDate(el, 'EndDate'),
      asserts: [
        A('PEPPOL-EN16931-R111', 'fatal', 'A line period (BG-26) must not end after the invoicing period (BG-14).', (d) => {
          const c = compareDates(d.text, headerPeriodDate(d, 'EndDate'));
          if (c === undefined) throw new Error('xs:date cast');
          return c <= 0;
        }),
      ],
    },
    {
      names: ['InvoiceLine', 'CreditNoteLine'],
      match: (el) => isCac(el, 'InvoiceLine') || isCac(el, 'CreditNoteLine'),
      asserts: [
        r120,
        A('PEPPOL-EN16931-R121', 'fatal', 'The item price base quantity (BT-149) must be greater than zero.', (l) => {
          const quantity = cbc(cac(l, 'Price'), 'BaseQuantity');
          if (!quantity) return true;
          const b = dec(text(quantity));
          if (b === undefined) throw new Error('xs:decimal cast');
          return b.gt(ZERO);
        }),
        A('PEPPOL-EN16931-R100', 'fatal', 'At most one invoiced object (BT-128) may be given per line.', (l) => {
          let n = 0;
          for (const c of l.children) if (c.local === 'DocumentReference' && c.ns === NS.cac) n++;
          return n <= 1;
        }),
        A(
          'PEPPOL-EN16931-R101',
          'fatal',
          'A document referenced on a line may only be the invoiced object (type code 130).',
          lineReferenceIsObject,
        ),
      ],
    },
    {
      names: ['AllowanceCharge'],
      match: (el) => isCac(el, 'AllowanceCharge') && isCac(el.parent, 'Price'),
      asserts: [
        A(
          'PEPPOL-EN16931-R044',
          'fatal',
          'A charge on price level is not allowed: the price discount must have the charge indicator false.',
          priceAllowanceIsAllowance,
        ),
        A(
          'PEPPOL-EN16931-R046',
          'fatal',
          'The item net price (BT-146) must equal the gross price (BT-148) minus the price discount (BT-147).',
          (a) => {
            const grossEl = cbc(a, 'BaseAmount');
            if (!grossEl) return true;
            const netEl = cbc(a.parent, 'PriceAmount');
            const amountEl = cbc(a, 'Amount');
            const net = netEl ? dec(text(netEl)) : null;
            const gross = dec(text(grossEl));
            const amount = amountEl ? dec(text(amountEl)) : null;
            if (net === undefined || gross === undefined || amount === undefined) throw new Error('xs:decimal cast');
            // An absent price or amount is an empty sequence: the comparison is false.
            if (net === null || amount === null) return false;
            return net.eq(gross.minus(amount));
          },
        ),
      ],
    },
    {
      names: ['BaseQuantity'],
      needsAttribute: true,
      match: (el) => isCbc(el, 'BaseQuantity') && isCac(el.parent, 'Price') && attr(el, 'unitCode') !== undefined,
      asserts: [
        A(
          'PEPPOL-EN16931-R130',
          'fatal',
          'The unit of the price base quantity (BT-150) must be the unit of the invoiced quantity (BT-130).',
          (q, env) => {
            const line = q.parent?.parent;
            if (!line || !(cbc(line, 'InvoicedQuantity') || cbc(line, 'CreditedQuantity'))) return true;
            const unit = attr(q, 'unitCode');
            const local = env.isInvoiceDoc ? 'InvoicedQuantity' : 'CreditedQuantity';
            return line.children.some((c) => c.local === local && c.ns === NS.cbc && attr(c, 'unitCode') === unit);
          },
        ),
      ],
    },
    ...identifierRules(v),
  ];

  return [
    [
      {
        names: ['CreditNote'],
        match: isCreditNote,
        asserts: [
          A(
            'PEPPOL-EN16931-R080',
            'fatal',
            'At most one project reference (BT-11) may be given on document level.',
            (r) => sel(r, 'cac:AdditionalDocumentReference').filter((d) => values(d, 'cbc:DocumentTypeCode').includes('50')).length <= 1,
          ),
        ],
      },
    ],
    main,
  ];
}

/** `Invoice[cac:InvoicePeriod/cbc:X]/cac:InvoiceLine/cac:InvoicePeriod/cbc:X` (and the credit-note form). */
function linePeriodDate(el: XmlElement, which: 'StartDate' | 'EndDate'): boolean {
  const period = el.parent;
  const line = period?.parent;
  const root = line?.parent;
  if (!isCac(period, 'InvoicePeriod') || !root) return false;
  const shaped = (isCac(line, 'InvoiceLine') && isInvoice(root)) || (isCac(line, 'CreditNoteLine') && isCreditNote(root));
  return shaped && has(root, `cac:InvoicePeriod/cbc:${which}`);
}

function headerPeriodDate(d: XmlElement, which: 'StartDate' | 'EndDate'): string {
  const root = d.parent!.parent!.parent!;
  const dates = values(root, `cac:InvoicePeriod/cbc:${which}`);
  if (dates.length !== 1) throw new Error('xs:date of a sequence');
  return dates[0];
}

/** The identifier rules (ICD / EAS schemes), in the official order: the first matching scheme rule wins. */
function identifierRules(v: RuleVariant): ContextRule[] {
  const rules: ContextRule[] = [
    identifierRule('0088', [
      A('PEPPOL-COMMON-R040', 'fatal', 'A GLN (scheme 0088) must be 13 digits with a valid GS1 check digit.', (el) => {
        const s = nsOf(el);
        return /^[0-9]+$/.test(s) && glnCheck(s);
      }),
    ]),
    identifierRule('0192', [
      A(
        'PEPPOL-COMMON-R041',
        'fatal',
        'A Norwegian organisation number (scheme 0192) must be 9 digits with a valid mod 11 check digit.',
        (el) => {
          const s = nsOf(el);
          return /^[0-9]{9}$/.test(s) && mod11Check(s);
        },
      ),
    ]),
    identifierRule('0184', [
      A(
        'PEPPOL-COMMON-R042',
        'fatal',
        v.cvrEightDigits
          ? 'A Danish CVR number (scheme 0184) must be 8 digits (or DK followed by 8 digits).'
          : 'A Danish CVR number (scheme 0184) must be DK followed by 8 digits.',
        (el) => {
          if (!v.cvrEightDigits) {
            const t = el.text;
            return len(t) === 10 && substr(t, 1, 2) === 'DK' && onlyDigits(substr(t, 3, 8));
          }
          const s = text(el);
          return (len(s) === 10 && substr(s, 1, 2) === 'DK' && onlyDigits(substr(s, 3, 8))) || (len(s) === 8 && onlyDigits(s));
        },
      ),
    ]),
  ];
  // Billing lists the Danish P / SE number rules after the CVR rule, self-billing 2026.5 after the ABN rule.
  const danish = danishPAndSeRules(v);
  if (v.kind === 'billing') rules.push(...danish);
  rules.push(
    identifierRule('0208', [
      A(
        'PEPPOL-COMMON-R043',
        'fatal',
        'A Belgian enterprise number (scheme 0208) must be 10 digits with valid mod 97 check digits.',
        (el) => {
          const s = nsOf(el);
          return /^[0-9]{10}$/.test(s) && belgianEnterpriseCheck(s);
        },
      ),
    ]),
    identifierRule('0201', [
      A('PEPPOL-COMMON-R044', 'warning', 'An Italian IPA code (scheme 0201) should be 6 letters or digits.', (el) =>
        codiceIpaCheck(nsOf(el)),
      ),
    ]),
    identifierRule('0210', [
      A(
        'PEPPOL-COMMON-R045',
        'warning',
        'An Italian codice fiscale (scheme 0210) should be 16 characters in the fiscal-code pattern or 11 digits.',
        (el) => codiceFiscaleCheck(nsOf(el)),
      ),
    ]),
    identifierRule(
      '9907',
      [
        A(
          'PEPPOL-COMMON-R046',
          'warning',
          'An Italian codice fiscale electronic address (scheme 9907) should be 16 characters in the fiscal-code pattern or 11 digits.',
          (el) => codiceFiscaleCheck(nsOf(el)),
        ),
      ],
      true,
    ),
    identifierRule('0211', [
      A(
        'PEPPOL-COMMON-R047',
        'warning',
        'An Italian partita IVA (scheme 0211) with the IT prefix should be 11 digits with a valid check digit.',
        (el) => partitaIvaCheck(nsOf(el)),
      ),
    ]),
    identifierRule('0007', [
      A(
        'PEPPOL-COMMON-R049',
        'fatal',
        'A Swedish organisation number (scheme 0007) must be 10 digits with a valid Luhn check digit.',
        (el) => {
          const s = nsOf(el);
          return len(s) === 10 && !Number.isNaN(num(s)) && swedishOrgNumberCheck(s);
        },
      ),
    ]),
    identifierRule('0151', [
      A('PEPPOL-COMMON-R050', 'fatal', 'An Australian Business Number (scheme 0151) must be 11 digits with a valid mod 89 check.', (el) => {
        const s = nsOf(el);
        return /^[0-9]{11}$/.test(s) && abnCheck(s);
      }),
    ]),
  );
  if (v.kind !== 'billing') rules.push(...danish);
  if (v.dutchFormats) {
    rules.push(
      identifierRule('0106', [
        A('PEPPOL-COMMON-R054', 'warning', 'A Dutch Chamber of Commerce (KVK) number (scheme 0106) should be 8 digits.', (el) =>
          /^[0-9]{8}$/.test(nsOf(el)),
        ),
      ]),
      identifierRule('0190', [
        A('PEPPOL-COMMON-R055', 'warning', 'A Dutch organisation identification number (OIN, scheme 0190) should be 20 digits.', (el) =>
          /^[0-9]{20}$/.test(nsOf(el)),
        ),
      ]),
      identifierRule('9944', [
        A('PEPPOL-COMMON-R056-1', 'warning', 'A Dutch VAT number (scheme 9944) should read NL, 9 digits, B, 2 digits.', (el) =>
          DUTCH_VAT.test(nsOf(el)),
        ),
      ]),
      {
        names: ['CompanyID'],
        match: (el) =>
          isCbc(el, 'CompanyID') &&
          isCac(el.parent, 'PartyTaxScheme') &&
          ns(value(el.parent, 'cac:TaxScheme/cbc:ID')) === 'VAT' &&
          nsOf(el).startsWith('NL'),
        asserts: [
          A('PEPPOL-COMMON-R056-2', 'warning', 'A Dutch VAT identifier should read NL, 9 digits, B, 2 digits.', (el) =>
            DUTCH_VAT.test(nsOf(el)),
          ),
        ],
      },
      identifierRule('0217', [
        A('PEPPOL-COMMON-R057', 'warning', 'A Dutch Chamber of Commerce establishment number (scheme 0217) should be 12 digits.', (el) =>
          /^[0-9]{12}$/.test(nsOf(el)),
        ),
      ]),
    );
  }
  return rules;
}

function danishPAndSeRules(v: RuleVariant): ContextRule[] {
  if (!v.danishPAndSe) return [];
  const flag = v.danishPAndSe;
  return [
    identifierRule('0096', [
      A('PEPPOL-COMMON-R052', flag, 'A Danish P number (scheme 0096) must be 10 digits.', (el) => digitsOnly(text(el), 10)),
    ]),
    identifierRule('0198', [
      A('PEPPOL-COMMON-R053', flag, 'A Danish SE number (ERSTORG, scheme 0198) must be DK followed by 8 digits.', (el) => {
        const s = text(el);
        return len(s) === 10 && substr(s, 1, 2) === 'DK' && onlyDigits(substr(s, 3, 8));
      }),
    ]),
  ];
}

const DUTCH_VAT = /^NL[0-9]{9}B[0-9]{2}$/;

/** The restricted code lists and formats (last pattern of the schematron). */
export function codeListPatterns(v: RuleVariant): Pattern[] {
  const exemption = (code: string, category: string, id: string): ContextRule => ({
    names: ['TaxCategory'],
    match: (el) => {
      if (!isCac(el, 'TaxCategory')) return false;
      const codes = values(el, 'cbc:TaxExemptionReasonCode');
      if (codes.length > 1) throw new Error('upper-case of a sequence');
      return codes.length === 1 && codes[0].toUpperCase() === code;
    },
    asserts: [
      A(
        id,
        'fatal',
        `The VAT category must be ${category} when the exemption reason code is ${code}.`,
        (el) => ns(value(el, 'cbc:ID')) === category,
      ),
    ],
  });
  const reasonCode = (indicator: string) => (el: XmlElement) =>
    isCbc(el, 'AllowanceChargeReasonCode') &&
    isCac(el.parent, 'AllowanceCharge') &&
    values(el.parent, 'cbc:ChargeIndicator').includes(indicator);
  const p0112: Assert[] = v.p0112
    ? [
        A(
          'PEPPOL-EN16931-P0112',
          'fatal',
          'Invoice type codes 326 and 384 are only allowed when seller and buyer are both in Germany.',
          (el, env) => {
            const t = ns(text(el));
            return !(t === '326' || t === '384') || env.bothDE;
          },
        ),
      ]
    : [];
  const rules: ContextRule[] = [
    {
      names: ['EmbeddedDocumentBinaryObject'],
      needsAttribute: true,
      match: (el) => isCbc(el, 'EmbeddedDocumentBinaryObject') && attr(el, 'mimeCode') !== undefined,
      asserts: [
        A('PEPPOL-EN16931-CL001', 'fatal', 'The attachment MIME code must be one of the Peppol subset of IANA media types.', (el) =>
          v.codes.MIMECODE.has(attr(el, 'mimeCode')!),
        ),
      ],
    },
    {
      names: ['AllowanceChargeReasonCode'],
      match: reasonCode('false'),
      asserts: [
        A('PEPPOL-EN16931-CL002', 'fatal', 'An allowance reason code must be from the Peppol subset of UNCL 5189.', (el) =>
          v.codes.UNCL5189.has(ns(el.text)),
        ),
      ],
    },
    {
      names: ['AllowanceChargeReasonCode'],
      match: reasonCode('true'),
      asserts: [
        A('PEPPOL-EN16931-CL003', 'fatal', 'A charge reason code must be from UNCL 7161.', (el) => v.codes.UNCL7161.has(ns(el.text))),
      ],
    },
    {
      names: ['DescriptionCode'],
      match: (el) => isCbc(el, 'DescriptionCode') && isCac(el.parent, 'InvoicePeriod'),
      asserts: [
        A('PEPPOL-EN16931-CL006', 'fatal', 'The VAT point date code (BT-8) must be from UNCL 2005 (3, 35 or 432).', (el) =>
          v.codes.UNCL2005.has(ns(el.text)),
        ),
      ],
    },
    {
      names: UBL_AMOUNT_ELEMENTS,
      match: (el) => el.ns === NS.cbc,
      asserts: [
        A('PEPPOL-EN16931-CL007', 'fatal', 'The currency code (currencyID) must be from ISO 4217.', (el) => {
          const c = attr(el, 'currencyID');
          return c !== undefined && v.codes.ISO4217.has(c);
        }),
      ],
    },
    {
      names: ['InvoiceTypeCode'],
      match: (el) => isCbc(el, 'InvoiceTypeCode'),
      asserts: [
        A(
          'PEPPOL-EN16931-P0100',
          'fatal',
          'The invoice type code (BT-3) must be one the Peppol profile allows.',
          (el, env) => !v.typeCodeProfiles.includes(env.profile) || v.invoiceTypeCodes.includes(ns(el.text)),
        ),
        ...p0112,
      ],
    },
    {
      names: ['CreditNoteTypeCode'],
      match: (el) => isCbc(el, 'CreditNoteTypeCode'),
      asserts: [
        A(
          'PEPPOL-EN16931-P0101',
          'fatal',
          'The credit note type code (BT-3) must be one the Peppol profile allows.',
          (el, env) => !v.typeCodeProfiles.includes(env.profile) || v.creditNoteTypeCodes.includes(ns(el.text)),
        ),
      ],
    },
    {
      names: ['IssueDate', 'DueDate', 'TaxPointDate', 'StartDate', 'EndDate', 'ActualDeliveryDate'],
      match: (el) => el.ns === NS.cbc,
      asserts: [
        A('PEPPOL-EN16931-F001', 'fatal', 'A date must be written YYYY-MM-DD.', (el) => len(el.text) === 10 && castableDate(text(el))),
      ],
    },
    {
      names: ['EndpointID'],
      needsAttribute: true,
      match: (el) => isCbc(el, 'EndpointID') && attr(el, 'schemeID') !== undefined,
      asserts: [
        A('PEPPOL-EN16931-CL008', 'fatal', 'The electronic address scheme (schemeID) must be from the Peppol EAS code list.', (el) =>
          v.codes.eaid.has(attr(el, 'schemeID')!),
        ),
      ],
    },
    exemption('VATEX-EU-G', 'G', 'PEPPOL-EN16931-P0104'),
    exemption('VATEX-EU-O', 'O', 'PEPPOL-EN16931-P0105'),
    exemption('VATEX-EU-IC', 'K', 'PEPPOL-EN16931-P0106'),
    exemption('VATEX-EU-AE', 'AE', 'PEPPOL-EN16931-P0107'),
    exemption('VATEX-EU-D', 'E', 'PEPPOL-EN16931-P0108'),
    exemption('VATEX-EU-F', 'E', 'PEPPOL-EN16931-P0109'),
    exemption('VATEX-EU-I', 'E', 'PEPPOL-EN16931-P0110'),
    exemption('VATEX-EU-J', 'E', 'PEPPOL-EN16931-P0111'),
  ];
  return [rules];
}

export { parentIs };
export type { DocEnv };
