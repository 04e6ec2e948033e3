/**
 * The national rules of Peppol BIS Billing 3.0 (Norway, Denmark, Italy, Sweden, Greece, Iceland, the Netherlands,
 * Germany), as pattern tables (model.ts) in the official order. Each applies only when the supplier (and for some
 * the customer) is of that country, decided the way the official variables decide it (env.ts).
 */
import type { XmlElement } from '../../xml/dom.js';
import { NS } from '../../xml/namespaces.js';
import { attr, has, sel, text, value, values } from '../xrechnung/dom.js';
import {
  companyIdParts,
  isCac,
  isCbc,
  isCreditNote,
  isDocRoot,
  isInvoice,
  isSwedishVatParty,
  isTopRoot,
  vatSchemes,
  type DocEnv,
} from './env.js';
import { greekTinCheck, ibanCheck, mod11Check, swedishOrgNumberCheck } from './identifiers.js';
import type { Assert, ContextRule, Pattern } from './model.js';
import type { RuleVariant } from './variant.js';
import { castableDate, dec, len, ns, num, substr, tokenize, ZERO } from './xpath.js';

const A = (id: string, flag: Assert['flag'], message: string, test: Assert['test']): Assert => ({ id, flag, message, test });

const under = (el: XmlElement, ...path: string[]): boolean => {
  let p: XmlElement | null = el;
  for (let i = path.length - 1; i >= 0; i--) {
    p = p.parent;
    if (!p || !isCac(p, path[i])) return false;
  }
  return true;
};
const supplierParty = (el: XmlElement) => isCac(el, 'Party') && isCac(el.parent, 'AccountingSupplierParty');
const customerParty = (el: XmlElement) => isCac(el, 'Party') && isCac(el.parent, 'AccountingCustomerParty');
/** A single value of a path, or an error when the official function would get a sequence. */
const single = (el: XmlElement, path: string): string | undefined => {
  const vs = values(el, path);
  if (vs.length > 1) throw new Error('a sequence where one value is expected');
  return vs[0];
};
const blank = (s: string | undefined) => ns(s) === '';

/*
 * The document-level conditions of the national contexts (ContextRule.when, tested once per document; each rule's
 * match tests its own as well): which country the parties are of, decided as the official variables decide it.
 */
const supplierIs = (country: string) => (env: DocEnv) => env.supplierCountry === country;
const supplierWrittenIs = (country: string) => (env: DocEnv) => env.supplierCountryAsWritten === country;
const bothDE = (env: DocEnv) => env.bothDE;
const swedishSupplier = (env: DocEnv) => env.supplierCountryIsSE;
const greekSupplier = (env: DocEnv) => env.isGreekSender;
const supplierNL = (env: DocEnv) => env.supplierIsNL;
const bothNL = (env: DocEnv) => env.supplierIsNL && env.customerIsNL;

// ---------------------------------------------------------------------------------------------
// Norway

const norway: Pattern = [
  {
    names: ['Party'],
    when: supplierIs('NO'),
    match: (el, env) => supplierParty(el) && env.supplierCountry === 'NO',
    asserts: [
      A(
        'NO-R-002',
        'warning',
        'Norwegian suppliers should state "Foretaksregisteret" as their tax registration (PartyTaxScheme with TaxScheme TAX).',
        (p) => {
          const ids = sel(p, 'cac:PartyTaxScheme')
            .filter((s) => ns(value(s, 'cac:TaxScheme/cbc:ID')) === 'TAX')
            .flatMap((s) => values(s, 'cbc:CompanyID'));
          if (ids.length > 1) throw new Error('normalize-space of a sequence');
          return ns(ids[0]) === 'Foretaksregisteret';
        },
      ),
      A('NO-R-001', 'fatal', 'A Norwegian VAT number must be NO, a valid 9-digit organisation number and MVA.', (p) => {
        const vat = vatSchemes(p, true);
        const prefixes = companyIdParts(vat, 1, 2);
        if (!prefixes.includes('NO')) return true;
        const rests = companyIdParts(vat, 3);
        if (rests.length > 1) throw new Error('matches on a sequence');
        const nine = companyIdParts(vat, 3, 9);
        if (nine.length > 1) throw new Error('substring of a sequence');
        return /^[0-9]{9}MVA$/.test(rests[0] ?? '') && mod11Check(nine[0] ?? '');
      }),
    ],
  },
];

// ---------------------------------------------------------------------------------------------
// Denmark

const dkRoot = (el: XmlElement, env: DocEnv) => isDocRoot(el) && env.supplierCountryAsWritten === 'DK';
const bothDk = (env: DocEnv) => env.bothDK;
/** `cbc:PaymentMeansCode = 'x'`: general comparison over the codes, no normalisation. */
const pmCodeIs = (pm: XmlElement, ...codes: string[]) => values(pm, 'cbc:PaymentMeansCode').some((c) => codes.includes(c));
const paymentIdPrefix = (pm: XmlElement) => substr(single(pm, 'cbc:PaymentID'), 1, 3);

function denmark(v: RuleVariant): Pattern {
  const rules: ContextRule[] = [
    {
      names: ['Invoice', 'CreditNote'],
      when: supplierWrittenIs('DK'),
      match: dkRoot,
      asserts: [
        A(
          'DK-R-002',
          'fatal',
          'Danish suppliers must give their legal registration number (CVR, BT-30).',
          (r) => !blank(firstText(r, 'cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID')),
        ),
        A(
          'DK-R-014',
          'fatal',
          "Danish suppliers must give the seller's legal registration number (BT-30) with schemeID 0184 (CVR).",
          (r) =>
            !(
              has(r, 'cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID') &&
              ns(single(r, 'cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID/@schemeID')) !== '0184'
            ),
        ),
        A(
          'DK-R-016',
          'fatal',
          'A credit note between Danish parties must not have a negative amount due (BT-115).',
          (r, env) =>
            !(
              isCreditNote(r) &&
              env.customerCountryAsWritten === 'DK' &&
              num(firstText(r, 'cac:LegalMonetaryTotal/cbc:PayableAmount')) < 0
            ),
        ),
      ],
    },
    {
      names: ['PartyIdentification'],
      when: bothDk,
      match: (el, env) =>
        isCac(el, 'PartyIdentification') &&
        bothDk(env) &&
        isCac(el.parent, 'Party') &&
        (isCac(el.parent.parent, 'AccountingSupplierParty') || isCac(el.parent.parent, 'AccountingCustomerParty')) &&
        isDocRoot(el.parent.parent?.parent),
      asserts: [
        A(
          'DK-R-013',
          'fatal',
          'Between Danish parties a party identifier (BT-29, BT-46) must carry a schemeID.',
          (pi) => !(has(pi, 'cbc:ID') && ns(single(pi, 'cbc:ID/@schemeID')) === ''),
        ),
      ],
    },
    {
      names: ['PaymentMeans'],
      when: bothDk,
      match: (el, env) => isCac(el, 'PaymentMeans') && isInvoice(el.parent) && bothDk(env),
      asserts: [
        A(
          'DK-R-005',
          'fatal',
          'Between Danish parties the payment means code (BT-81) must be 1, 10, 31, 42, 48, 49, 50, 58, 59, 93 or 97.',
          (pm) => ' 1 10 31 42 48 49 50 58 59 93 97 '.includes(` ${single(pm, 'cbc:PaymentMeansCode') ?? ''} `),
        ),
        A(
          'DK-R-006',
          'fatal',
          'Between Danish parties, payment means 31 or 42 need the account number (BT-84) and the bank registration number (BT-86).',
          (pm) =>
            !(
              pmCodeIs(pm, '31', '42') &&
              !(
                !blank(firstText(pm, 'cac:PayeeFinancialAccount/cbc:ID')) &&
                !blank(firstText(pm, 'cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cbc:ID'))
              )
            ),
        ),
        A(
          'DK-R-007',
          'fatal',
          'Between Danish parties, payment means 49 needs the mandate reference (BT-89) and the debited account (BT-91).',
          (pm) =>
            !(
              pmCodeIs(pm, '49') &&
              !(
                !blank(firstText(pm, 'cac:PaymentMandate/cbc:ID')) &&
                !blank(firstText(pm, 'cac:PaymentMandate/cac:PayerFinancialAccount/cbc:ID'))
              )
            ),
        ),
        A(
          'DK-R-008',
          'fatal',
          'Between Danish parties, payment means 50 (giro) needs a payment ID starting 01#, 04# or 15# and a 7–8 digit giro account.',
          (pm) =>
            !(
              pmCodeIs(pm, '50') &&
              !(
                ['01#', '04#', '15#'].includes(paymentIdPrefix(pm)) &&
                /^[0-9]{7,8}$/.test(single(pm, 'cac:PayeeFinancialAccount/cbc:ID') ?? '')
              )
            ),
        ),
        A(
          'DK-R-009',
          'fatal',
          'Between Danish parties, a giro payment ID starting 04# or 15# must carry the 16-digit instruction id (19 characters).',
          (pm) => !(pmCodeIs(pm, '50') && ['04#', '15#'].includes(paymentIdPrefix(pm)) && len(single(pm, 'cbc:PaymentID') ?? '') !== 19),
        ),
        A(
          'DK-R-010',
          'fatal',
          'Between Danish parties, payment means 93 (FIK) needs a payment ID starting 71#, 73# or 75# and an 8-character account.',
          (pm) =>
            !(
              pmCodeIs(pm, '93') &&
              !(['71#', '73#', '75#'].includes(paymentIdPrefix(pm)) && len(firstText(pm, 'cac:PayeeFinancialAccount/cbc:ID') ?? '') === 8)
            ),
        ),
        A(
          'DK-R-011',
          'fatal',
          'Between Danish parties, a FIK payment ID starting 71# or 75# must carry the 15–16 digit instruction id.',
          (pm) => {
            if (!(pmCodeIs(pm, '93') && ['71#', '75#'].includes(paymentIdPrefix(pm)))) return true;
            const n = len(single(pm, 'cbc:PaymentID') ?? '');
            return n === 18 || n === 19;
          },
        ),
      ],
    },
  ];
  if (v.dk017)
    rules.push({
      names: ['Party'],
      when: bothDk,
      match: (el, env) => customerParty(el) && isDocRoot(el.parent?.parent) && bothDk(env),
      asserts: [
        A(
          'DK-R-017',
          v.dk017,
          "Between Danish parties the buyer's legal registration number (BT-47) must carry schemeID 0184 (CVR).",
          (p) =>
            !(has(p, 'cac:PartyLegalEntity/cbc:CompanyID') && ns(single(p, 'cac:PartyLegalEntity/cbc:CompanyID/@schemeID')) !== '0184'),
        ),
      ],
    });
  rules.push(
    {
      names: ['InvoiceLine', 'CreditNoteLine'],
      when: bothDk,
      match: (el, env) =>
        ((isCac(el, 'CreditNoteLine') && isCreditNote(el.parent)) || (isCac(el, 'InvoiceLine') && isInvoice(el.parent))) && bothDk(env),
      asserts: [
        A(
          'DK-R-003',
          v.dk003,
          'Between Danish parties an item classification of list TST must be UNSPSC version 19.05.01 or 26.08.01.',
          (l) => {
            const codes = sel(l, 'cac:Item/cac:CommodityClassification/cbc:ItemClassificationCode');
            const tst = codes.some((c) => attr(c, 'listID') === 'TST');
            const versions = codes.map((c) => attr(c, 'listVersionID'));
            return !(tst && !versions.some((x) => x !== undefined && ['19.05.01', '19.0501', '26.08.01', '26.0801'].includes(x)));
          },
        ),
      ],
    },
    {
      names: ['AllowanceCharge'],
      when: bothDk,
      match: (el, env) => isCac(el, 'AllowanceCharge') && bothDk(env),
      asserts: [
        A(
          'DK-R-004',
          'fatal',
          'Between Danish parties, a non-VAT tax (reason code ZZZ) must give a 4-digit tax category or a text with an inner # as reason.',
          (ac) => {
            if (!values(ac, 'cbc:AllowanceChargeReasonCode').includes('ZZZ')) return true;
            const reason = values(ac, 'cbc:AllowanceChargeReason');
            if (reason.length > 1) throw new Error('a sequence where one value is expected');
            const r = reason[0];
            const fourDigits = len(ns(firstText(ac, 'cbc:AllowanceChargeReason'))) === 4 && num(r) >= 0 && num(r) <= 9999;
            const hashed = r !== undefined && r.includes('#') && !r.startsWith('#') && !r.endsWith('#');
            return fourDigits || hashed;
          },
        ),
      ],
    },
  );
  return rules;
}

/** The direct text of the first element a path selects (`path/text()`), or undefined. */
function firstText(el: XmlElement, path: string): string | undefined {
  const found = sel(el, path);
  if (found.length > 1) throw new Error('a sequence where one value is expected');
  return found[0]?.text;
}

// ---------------------------------------------------------------------------------------------
// Italy

const italy: Pattern = [
  {
    names: ['PartyTaxScheme'],
    when: supplierIs('IT'),
    match: (el, env) =>
      isCac(el, 'PartyTaxScheme') &&
      supplierParty(el.parent!) &&
      env.supplierCountry === 'IT' &&
      ns(single(el, 'cac:TaxScheme/cbc:ID')) !== 'VAT',
    asserts: [
      A(
        'IT-R-001',
        'fatal',
        "An Italian supplier's tax registration identifier (BT-32) must be 11 to 16 capital letters or digits.",
        (pts) => /^[A-Z0-9]{11,16}$/.test(ns(single(pts, 'cbc:CompanyID'))),
      ),
    ],
  },
  {
    names: ['Party'],
    when: supplierIs('IT'),
    match: (el, env) => supplierParty(el) && env.supplierCountry === 'IT',
    asserts: [
      A('IT-R-002', 'fatal', 'Italian suppliers must give the street of their address (BT-35).', (p) =>
        has(p, 'cac:PostalAddress/cbc:StreetName'),
      ),
      A('IT-R-003', 'fatal', 'Italian suppliers must give the city of their address (BT-37).', (p) =>
        has(p, 'cac:PostalAddress/cbc:CityName'),
      ),
      A('IT-R-004', 'fatal', 'Italian suppliers must give the post code of their address (BT-38).', (p) =>
        has(p, 'cac:PostalAddress/cbc:PostalZone'),
      ),
    ],
  },
];

// ---------------------------------------------------------------------------------------------
// Sweden

const seCountry = (p: XmlElement) => values(p, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode').includes('SE');
const seVatCompanyId = (p: XmlElement) => {
  const ids = sel(p, 'cac:PartyTaxScheme')
    .filter((s) => values(s, 'cac:TaxScheme/cbc:ID').includes('VAT'))
    .flatMap((s) => values(s, 'cbc:CompanyID'));
  if (ids.length > 1) throw new Error('a sequence where one value is expected');
  return ids[0];
};

const sweden: Pattern = [
  {
    names: ['Party'],
    match: (el) => supplierParty(el) && isSwedishVatParty(el),
    asserts: [
      A('SE-R-001', 'fatal', 'A Swedish VAT number must be 14 characters long.', (p) => len(ns(seVatCompanyId(p))) === 14),
      A(
        'SE-R-002',
        'fatal',
        'The last 12 characters of a Swedish VAT number must be numeric.',
        (p) => !Number.isNaN(num(substr(seVatCompanyId(p), 3, 12))),
      ),
    ],
  },
  {
    names: ['PartyLegalEntity'],
    match: (el) => isCac(el, 'PartyLegalEntity') && supplierParty(el.parent!) && seCountry(el.parent!) && has(el, 'cbc:CompanyID'),
    asserts: [
      A(
        'SE-R-003',
        'fatal',
        'A Swedish organisation number (BT-30) must be numeric.',
        (ple) => !Number.isNaN(num(single(ple, 'cbc:CompanyID'))),
      ),
      A(
        'SE-R-004',
        'fatal',
        'A Swedish organisation number (BT-30) must be 10 characters long.',
        (ple) => len(ns(single(ple, 'cbc:CompanyID'))) === 10,
      ),
      A('SE-R-013', 'fatal', 'The last digit of a Swedish organisation number (BT-30) must be its Luhn check digit.', (ple) =>
        swedishOrgNumberCheck(ns(single(ple, 'cbc:CompanyID'))),
      ),
    ],
  },
  {
    names: ['CompanyID'],
    match: (el) => {
      const pts = el.parent;
      const party = pts?.parent;
      return (
        isCbc(el, 'CompanyID') &&
        isCac(pts, 'PartyTaxScheme') &&
        !!party &&
        supplierParty(party) &&
        seCountry(party) &&
        has(party, 'cac:PartyLegalEntity/cbc:CompanyID') &&
        ns(single(pts, 'cac:TaxScheme/cbc:ID')?.toUpperCase()) !== 'VAT'
      );
    },
    asserts: [
      A(
        'SE-R-005',
        'fatal',
        "A Swedish supplier's tax registration (BT-32) must read 'Godkänd för F-skatt'.",
        (el) => ns(text(el).toUpperCase()) === 'GODKÄND FÖR F-SKATT',
      ),
    ],
  },
  {
    names: ['TaxCategory', 'ClassifiedTaxCategory'],
    when: (env) => env.swedishVatSupplier,
    match: (el, env) =>
      (isCac(el, 'TaxCategory') || isCac(el, 'ClassifiedTaxCategory')) && env.swedishVatSupplier && values(el, 'cbc:ID').includes('S'),
    asserts: [
      A('SE-R-006', 'fatal', 'Swedish suppliers may only use the standard VAT rates 25, 12 and 6 %.', (el) => {
        const p = num(single(el, 'cbc:Percent'));
        return p === 25 || p === 12 || p === 6;
      }),
    ],
  },
  seGiro('SE:PLUSGIRO', [
    A('SE-R-007', 'warning', 'A Swedish Plusgiro account number should be numeric.', (el) => !Number.isNaN(num(ns(text(el))))),
    A('SE-R-010', 'warning', 'A Swedish Plusgiro account number should have 2 to 8 characters.', (el) => {
      const n = len(ns(text(el)));
      return n >= 2 && n <= 8;
    }),
  ]),
  seGiro('SE:BANKGIRO', [
    A('SE-R-008', 'warning', 'A Swedish Bankgiro account number should be numeric.', (el) => !Number.isNaN(num(ns(text(el))))),
    A('SE-R-009', 'warning', 'A Swedish Bankgiro account number should have 7 or 8 characters.', (el) => {
      const n = len(ns(text(el)));
      return n === 7 || n === 8;
    }),
  ]),
  {
    names: ['PaymentMeans'],
    when: swedishSupplier,
    match: (el, env) => isCac(el, 'PaymentMeans') && env.supplierCountryIsSE && pmCodeIs(el, '50', '56'),
    asserts: [
      A(
        'SE-R-011',
        'warning',
        'Swedish suppliers should give Bankgiro or Plusgiro as payment means 30 with the branch SE:BANKGIRO or SE:PLUSGIRO, not as 50 or 56.',
        () => false,
      ),
    ],
  },
  {
    names: ['PaymentMeans'],
    when: (env) => env.supplierCountryIsSE && env.customerCountryIsSE,
    match: (el, env) => isCac(el, 'PaymentMeans') && env.supplierCountryIsSE && env.customerCountryIsSE && pmCodeIs(el, '31'),
    asserts: [A('SE-R-012', 'warning', 'Between Swedish parties a credit transfer should be payment means 30, not 31.', () => false)],
  },
];

function seGiro(branch: string, asserts: Assert[]): ContextRule {
  return {
    names: ['ID'],
    when: swedishSupplier,
    match: (el, env) => {
      if (!isCbc(el, 'ID') || !isCac(el.parent, 'PayeeFinancialAccount')) return false;
      const pm = el.parent.parent;
      return (
        isCac(pm, 'PaymentMeans') &&
        env.supplierCountryIsSE &&
        ns(single(pm, 'cbc:PaymentMeansCode')) === '30' &&
        ns(single(pm, 'cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cbc:ID')) === branch
      );
    },
    asserts,
  };
}

// ---------------------------------------------------------------------------------------------
// Greece

const GREEK_DOCUMENT_TYPES = ['1.1', '1.6', '2.1', '2.4', '5.1', '5.2', ''];
const GREEK_DATE = /^(0?[1-9]|[12][0-9]|3[01])[-\\/ ]?(0?[1-9]|1[0-2])[-\\/ ]?(19|20)[0-9]{2}/;
const greekSupplierInGR = (env: DocEnv) =>
  env.isGreekSender &&
  values(env.root, 'cac:AccountingSupplierParty/cac:Party/cac:PostalAddress/cac:Country/cbc:IdentificationCode').includes('GR');
const greekVatIds = (p: XmlElement) =>
  sel(p, 'cac:PartyTaxScheme')
    .filter((s) => ns(value(s, 'cac:TaxScheme/cbc:ID')) === 'VAT')
    .flatMap((s) => values(s, 'cbc:CompanyID'));
/** u:TinVerification on a value the official function receives as one xs:string. */
const tin = (s: string | undefined) => {
  if (s === undefined) throw new Error('TinVerification of an empty sequence');
  return greekTinCheck(s);
};

function segmentsOf(id: XmlElement): string[] {
  return tokenize(text(id), /\|/);
}

const greekSender: Pattern = [
  {
    names: ['ID'],
    when: greekSupplier,
    match: (el, env) => isCbc(el, 'ID') && isTopRoot(el.parent) && env.isGreekSender,
    asserts: [
      A(
        'GR-R-001-1',
        'fatal',
        'A Greek supplier\'s invoice number (BT-1) must have 6 segments separated by "|".',
        (id) => segmentsOf(id).length === 6,
      ),
      A(
        'GR-R-001-2',
        'fatal',
        "The first segment of a Greek invoice number must be a valid TIN (AFM): the supplier's or the tax representative's.",
        (id, env) => {
          const s = segmentsOf(id)[0];
          if (len(ns(s)) !== 9) return false;
          if (!tin(s)) return false;
          const own = companyIdParts(vatSchemes(env.supplierParty, false), 3, 9);
          const rep = companyIdParts(vatSchemes(sel(env.root, 'cac:TaxRepresentativeParty')[0], false), 3, 9);
          return own.includes(s) || rep.includes(s);
        },
      ),
      A(
        'GR-R-001-3',
        'fatal',
        'The second segment of a Greek invoice number must be the issue date (BT-2), as day/month/year.',
        (id, env) => {
          const s = segmentsOf(id)[1];
          if (len(ns(s)) === 0 || !GREEK_DATE.test(s)) return false;
          const d = tokenize(s, /\//);
          const issue = values(env.root, 'cbc:IssueDate');
          if (issue.length > 1) throw new Error('tokenize of a sequence');
          const t = tokenize(issue[0] ?? '', /-/);
          return d[0] === t[2] && d[1] === t[1] && d[2] === t[0];
        },
      ),
      A('GR-R-001-4', 'fatal', 'The third segment of a Greek invoice number must be a non-negative integer.', (id) => {
        const s = segmentsOf(id)[2];
        if (len(ns(s)) === 0 || Number.isNaN(num(s))) return false;
        if (!/^[ \t\r\n]*[+-]?[0-9]+[ \t\r\n]*$/.test(s)) throw new Error('xs:integer cast');
        return Number(s.trim()) >= 0;
      }),
      A(
        'GR-R-001-5',
        'fatal',
        'The fourth segment of a Greek invoice number must be a Greek document type (1.1, 1.6, 2.1, 2.4, 5.1, 5.2).',
        (id) => {
          const s = segmentsOf(id)[3];
          return len(ns(s)) > 0 && GREEK_DOCUMENT_TYPES.includes(s);
        },
      ),
      A('GR-R-001-6', 'fatal', 'The fifth segment of a Greek invoice number must not be empty.', (id) => len(segmentsOf(id)[4] ?? '') > 0),
      A('GR-R-001-7', 'fatal', 'The sixth segment of a Greek invoice number must not be empty.', (id) => len(segmentsOf(id)[5] ?? '') > 0),
    ],
  },
  {
    names: ['Party'],
    when: greekSupplier,
    match: (el, env) => supplierParty(el) && env.isGreekSender,
    asserts: [
      A(
        'GR-R-002',
        'fatal',
        'Greek suppliers must give their registered name (BT-27).',
        (p) => len(single(p, 'cac:PartyName/cbc:Name') ?? '') > 0,
      ),
      A('GR-S-011', 'warning', 'Greek suppliers should give their VAT number prefixed EL with a valid TIN.', (p) => {
        const ids = greekVatIds(p);
        return ids.length === 1 && substr(ids[0], 1, 2) === 'EL' && greekTinCheck(substr(ids[0], 3));
      }),
    ],
  },
  {
    names: ['CompanyID'],
    when: greekSupplier,
    match: (el, env) =>
      isCbc(el, 'CompanyID') &&
      isCac(el.parent, 'PartyTaxScheme') &&
      supplierParty(el.parent.parent!) &&
      env.isGreekSender &&
      ns(single(el.parent, 'cac:TaxScheme/cbc:ID')) === 'VAT',
    asserts: [
      A('GR-R-003', 'fatal', "A Greek supplier's VAT number must start with EL followed by a valid TIN.", (el) => {
        const s = text(el);
        return substr(s, 1, 2) === 'EL' && greekTinCheck(substr(s, 3));
      }),
    ],
  },
  {
    names: ['Invoice', 'CreditNote'],
    when: greekSupplierInGR,
    match: (el, env) => isTopRoot(el) && greekSupplierInGR(env),
    asserts: [
      A(
        'GR-R-004-1',
        'fatal',
        'A Greek supplier must give exactly one MARK number (document description ##M.AR.K##).',
        (r) => countDescribed(r, '##M.AR.K##') === 1,
      ),
      A(
        'GR-S-008-1',
        'warning',
        'A Greek supplier should give one invoice URL (document description ##INVOICE|URL##).',
        (r) => countDescribed(r, '##INVOICE|URL##') === 1,
      ),
      A(
        'GR-R-008-2',
        'fatal',
        'A Greek supplier must give at most one invoice URL (document description ##INVOICE|URL##).',
        (r) => countDescribed(r, '##INVOICE|URL##') <= 1,
      ),
    ],
  },
  {
    names: ['ID'],
    when: greekSupplierInGR,
    match: (el, env) =>
      isCbc(el, 'ID') &&
      isCac(el.parent, 'AdditionalDocumentReference') &&
      greekSupplierInGR(env) &&
      values(el.parent, 'cbc:DocumentDescription').includes('##M.AR.K##'),
    asserts: [A('GR-R-004-2', 'fatal', 'The Greek MARK number must be a positive integer.', (el) => /^[1-9]([0-9]*)/.test(text(el)))],
  },
  {
    names: ['AdditionalDocumentReference'],
    when: greekSupplier,
    match: (el, env) =>
      isCac(el, 'AdditionalDocumentReference') && env.isGreekSender && values(el, 'cbc:DocumentDescription').includes('##INVOICE|URL##'),
    asserts: [
      A(
        'GR-R-008-3',
        'fatal',
        'The Greek invoice URL reference must give its external location (BT-124).',
        (el) => len(ns(single(el, 'cac:Attachment/cac:ExternalReference/cbc:URI'))) > 0,
      ),
    ],
  },
  {
    names: ['Party'],
    when: greekSupplier,
    match: (el, env) => customerParty(el) && env.isGreekSender,
    asserts: [
      A(
        'GR-R-005',
        'fatal',
        'Greek suppliers must give the full name of the buyer (BT-44).',
        (p) => len(single(p, 'cac:PartyName/cbc:Name') ?? '') > 0,
      ),
    ],
  },
  {
    names: ['EndpointID'],
    when: (env) => env.accountingSupplierCountry === 'GR' || env.accountingSupplierCountry === 'EL',
    match: (el, env) =>
      isCbc(el, 'EndpointID') &&
      supplierParty(el.parent!) &&
      (env.accountingSupplierCountry === 'GR' || env.accountingSupplierCountry === 'EL'),
    asserts: [
      A(
        'GR-R-009',
        'fatal',
        "A Greek supplier's electronic address (BT-34) must be a valid TIN with scheme 9933.",
        (el) => attr(el, 'schemeID') === '9933' && greekTinCheck(text(el)),
      ),
    ],
  },
];

function countDescribed(root: XmlElement, description: string): number {
  return sel(root, 'cac:AdditionalDocumentReference').filter((d) => values(d, 'cbc:DocumentDescription').includes(description)).length;
}

const greekSenderAndReceiver: Pattern = [
  {
    names: ['Party'],
    when: (env) => env.isGreekSender && env.isGreekReceiver,
    match: (el, env) => customerParty(el) && env.isGreekSender && env.isGreekReceiver,
    asserts: [
      A('GR-R-006', 'fatal', 'Greek suppliers must give the VAT number of a Greek buyer, prefixed EL with a valid TIN.', (p) => {
        const ids = greekVatIds(p);
        return ids.length === 1 && substr(ids[0], 1, 2) === 'EL' && greekTinCheck(substr(ids[0], 3));
      }),
    ],
  },
  {
    names: ['EndpointID'],
    when: (env) => env.isGreekSender && env.isGreekReceiver,
    match: (el, env) => isCbc(el, 'EndpointID') && customerParty(el.parent!) && env.isGreekSender && env.isGreekReceiver,
    asserts: [
      A(
        'GR-R-010',
        'fatal',
        "A Greek buyer's electronic address (BT-49) must be a valid TIN with scheme 9933.",
        (el) => attr(el, 'schemeID') === '9933' && greekTinCheck(text(el)),
      ),
    ],
  },
];

// ---------------------------------------------------------------------------------------------
// Iceland

const eindagi = (r: XmlElement) =>
  sel(r, 'cac:AdditionalDocumentReference').filter((d) => values(d, 'cbc:DocumentDescription').includes('EINDAGI'));
const typeIs380or381 = (v: string | undefined) => {
  const t = ns(v);
  return !t.includes(' ') && ' 380 381 '.includes(` ${t} `);
};
const isPaymentMeans = (r: XmlElement, code: string) =>
  sel(r, 'cac:PaymentMeans').filter((pm) => values(pm, 'cbc:PaymentMeansCode').includes(code));
function icelandAccount(r: XmlElement, code: string): boolean {
  const pms = isPaymentMeans(r, code);
  if (pms.length === 0) return true;
  const ids = pms.flatMap((pm) => values(pm, 'cac:PayeeFinancialAccount/cbc:ID'));
  if (ids.length > 1) throw new Error('normalize-space of a sequence');
  return ids.length === 1 && len(ns(ids[0])) === 12;
}

const iceland: Pattern = [
  {
    names: ['Invoice', 'CreditNote'],
    when: supplierWrittenIs('IS'),
    match: (el, env) => isDocRoot(el) && env.supplierCountryAsWritten === 'IS',
    asserts: [
      A(
        'IS-R-001',
        'warning',
        'Icelandic sellers should use invoice type 380 or 381 (BT-3).',
        (r) => typeIs380or381(single(r, 'cbc:InvoiceTypeCode')) || typeIs380or381(single(r, 'cbc:CreditNoteTypeCode')),
      ),
      A(
        'IS-R-002',
        'fatal',
        'Icelandic sellers must give their kennitala as legal registration (BT-30, schemeID 0196).',
        (r) =>
          has(r, 'cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID') &&
          values(r, 'cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID/@schemeID').includes('0196'),
      ),
      A(
        'IS-R-003',
        'fatal',
        'Icelandic sellers must give the street (BT-35) and post code (BT-38) of their address.',
        (r) =>
          has(r, 'cac:AccountingSupplierParty/cac:Party/cac:PostalAddress/cbc:StreetName') &&
          has(r, 'cac:AccountingSupplierParty/cac:Party/cac:PostalAddress/cbc:PostalZone'),
      ),
      A('IS-R-006', 'fatal', 'With payment means 9, an Icelandic seller must give a 12-digit account (BT-84).', (r) =>
        icelandAccount(r, '9'),
      ),
      A('IS-R-007', 'fatal', 'With payment means 42, an Icelandic seller must give a 12-digit account (BT-84).', (r) =>
        icelandAccount(r, '42'),
      ),
      A('IS-R-008', 'fatal', 'An Icelandic EINDAGI reference must be a date written YYYY-MM-DD.', (r) => {
        const e = eindagi(r);
        if (e.length === 0) return true;
        const ids = e.flatMap((d) => values(d, 'cbc:ID'));
        if (ids.length > 1) throw new Error('string-length of a sequence');
        return ids.length === 1 && len(ids[0]) === 10 && castableDate(ids[0]);
      }),
      A(
        'IS-R-009',
        'fatal',
        'An Icelandic invoice with an EINDAGI reference must give the payment due date (BT-9).',
        (r) => eindagi(r).length === 0 || has(r, 'cbc:DueDate'),
      ),
      A('IS-R-010', 'fatal', 'The Icelandic EINDAGI date must not be before the payment due date (BT-9).', (r) => {
        const e = eindagi(r);
        if (e.length === 0) return true;
        const due = values(r, 'cbc:DueDate');
        const ids = e.flatMap((d) => values(d, 'cbc:ID'));
        return due.some((d) => ids.some((i) => d <= i));
      }),
    ],
  },
  {
    names: ['AccountingCustomerParty'],
    when: (env) => env.supplierCountryAsWritten === 'IS' && env.customerCountryAsWritten === 'IS',
    match: (el, env) =>
      isCac(el, 'AccountingCustomerParty') &&
      isDocRoot(el.parent) &&
      env.supplierCountryAsWritten === 'IS' &&
      env.customerCountryAsWritten === 'IS',
    asserts: [
      A(
        'IS-R-004',
        'fatal',
        "Between Icelandic parties the buyer's kennitala must be given as legal registration (BT-47, schemeID 0196).",
        (c) =>
          has(c, 'cac:Party/cac:PartyLegalEntity/cbc:CompanyID') &&
          values(c, 'cac:Party/cac:PartyLegalEntity/cbc:CompanyID/@schemeID').includes('0196'),
      ),
      A(
        'IS-R-005',
        'fatal',
        "Between Icelandic parties the buyer's street (BT-50) and post code (BT-53) must be given.",
        (c) => has(c, 'cac:Party/cac:PostalAddress/cbc:StreetName') && has(c, 'cac:Party/cac:PostalAddress/cbc:PostalZone'),
      ),
    ],
  },
];

// ---------------------------------------------------------------------------------------------
// Netherlands

const streetCityZip = (a: XmlElement) => has(a, 'cbc:StreetName') && has(a, 'cbc:CityName') && has(a, 'cbc:PostalZone');
const kvkOrOin = (el: XmlElement) => {
  const s = ` ${attr(el, 'schemeID') ?? ''} `;
  return (s.includes(' 0106 ') || s.includes(' 0190 ')) && ns(text(el)) !== '';
};

const netherlands: Pattern = [
  {
    names: ['CreditNoteTypeCode'],
    when: supplierNL,
    match: (el, env) => isCbc(el, 'CreditNoteTypeCode') && env.supplierIsNL,
    asserts: [
      A('NL-R-001', 'fatal', "A Dutch supplier's credit note must reference the invoice it corrects (BT-25).", (_el, env) =>
        has(env.root, 'cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID'),
      ),
    ],
  },
  {
    names: ['PostalAddress'],
    when: supplierNL,
    match: (el, env) => isCac(el, 'PostalAddress') && under(el, 'AccountingSupplierParty', 'Party') && env.supplierIsNL,
    asserts: [
      A('NL-R-002', 'fatal', "A Dutch supplier's address must give street (BT-35), city (BT-37) and post code (BT-38).", streetCityZip),
    ],
  },
  {
    names: ['CompanyID'],
    when: supplierNL,
    match: (el, env) => isCbc(el, 'CompanyID') && under(el, 'AccountingSupplierParty', 'Party', 'PartyLegalEntity') && env.supplierIsNL,
    asserts: [
      A(
        'NL-R-003',
        'fatal',
        "A Dutch supplier's legal registration (BT-30) must be a KVK or OIN number (schemeID 0106 or 0190).",
        kvkOrOin,
      ),
    ],
  },
  {
    names: ['PostalAddress'],
    when: bothNL,
    match: (el, env) => isCac(el, 'PostalAddress') && under(el, 'AccountingCustomerParty', 'Party') && env.supplierIsNL && env.customerIsNL,
    asserts: [
      A('NL-R-004', 'fatal', "A Dutch buyer's address must give street (BT-50), city (BT-52) and post code (BT-53).", streetCityZip),
    ],
  },
  {
    names: ['CompanyID'],
    when: bothNL,
    match: (el, env) =>
      isCbc(el, 'CompanyID') && under(el, 'AccountingCustomerParty', 'Party', 'PartyLegalEntity') && env.supplierIsNL && env.customerIsNL,
    asserts: [
      A('NL-R-005', 'fatal', "A Dutch buyer's legal registration (BT-47) must be a KVK or OIN number (schemeID 0106 or 0190).", kvkOrOin),
    ],
  },
  {
    names: ['PostalAddress'],
    when: (env) => env.supplierIsNL && env.taxRepresentativeIsNL,
    match: (el, env) =>
      isCac(el, 'PostalAddress') && isCac(el.parent, 'TaxRepresentativeParty') && env.supplierIsNL && env.taxRepresentativeIsNL,
    asserts: [
      A(
        'NL-R-006',
        'fatal',
        "A Dutch tax representative's address must give street (BT-64), city (BT-66) and post code (BT-67).",
        streetCityZip,
      ),
    ],
  },
  {
    names: ['LegalMonetaryTotal'],
    when: supplierNL,
    match: (el, env) => isCac(el, 'LegalMonetaryTotal') && env.supplierIsNL,
    asserts: [
      A('NL-R-007', 'fatal', 'A Dutch supplier must give the payment instructions (BG-16) when the buyer has to pay.', (t, env) => {
        const payable = values(t, 'cbc:PayableAmount');
        if (payable.length > 1) throw new Error('xs:decimal of a sequence');
        const amount = payable.length === 1 ? dec(payable[0]) : null;
        if (amount === undefined) throw new Error('xs:decimal cast');
        if (amount !== null && env.isInvoiceDoc && amount.lte(ZERO)) return true;
        if (amount !== null && env.isCreditNoteDoc && amount.gte(ZERO)) return true;
        return anywhereHas(env.root, 'PaymentMeans');
      }),
    ],
  },
  {
    names: ['PaymentMeans'],
    when: bothNL,
    match: (el, env) => isCac(el, 'PaymentMeans') && env.supplierIsNL && env.customerIsNL,
    asserts: [
      A('NL-R-008', 'fatal', 'Between Dutch parties the payment means code (BT-81) must be 30, 48, 49, 57, 58 or 59.', (pm) =>
        ['30', '48', '49', '57', '58', '59'].includes(ns(single(pm, 'cbc:PaymentMeansCode'))),
      ),
    ],
  },
  {
    names: ['LineID'],
    when: supplierNL,
    match: (el, env) => isCbc(el, 'LineID') && isCac(el.parent, 'OrderLineReference') && env.supplierIsNL,
    asserts: [
      A(
        'NL-R-009',
        'fatal',
        'A Dutch supplier referencing an order line (BT-132) must give the purchase order reference (BT-13).',
        (_el, env) => has(env.root, 'cac:OrderReference/cbc:ID'),
      ),
    ],
  },
];

function anywhereHas(root: XmlElement, local: string): boolean {
  const stack = [root];
  while (stack.length) {
    const el: XmlElement = stack.pop()!;
    if (el.local === local && el.ns === NS.cac) return true;
    for (const c of el.children) stack.push(c);
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Germany

const SKONTO_2026 = /(^|\r?\n)#(SKONTO)#TAGE=([0-9]+#PROZENT=[0-9]+\.[0-9]{2})(#BASISBETRAG=-?[0-9]+\.[0-9]{2})?#$/;
const SKONTO_2025 = /#(SKONTO)#TAGE=([0-9]+#PROZENT=[0-9]+\.[0-9]{2})(#BASISBETRAG=-?[0-9]+\.[0-9]{2})?#$/;
const EMAIL_2026 = /^[^@\s]+@([^@.\s]+\.)+[^@.\s]+$/;
const EMAIL_2025 =
  /^[a-zA-Z0-9!#$%&"*+/=?^_`{|}~-]+(\.[a-zA-Z0-9!#$%&"*+/=?^_`{|}~-]+)*@([a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?\.)+[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?$/;
const TELEPHONE = /.*([0-9].*){3,}.*/;
const URL = /^([a-zA-Z])([a-zA-Z0-9+.-])+:.*/;
const SUPPORTED_VAT = ['S', 'Z', 'E', 'AE', 'K', 'G', 'L', 'M'];
const DE_TYPE_CODES = ['326', '380', '384', '389', '381', '875', '876', '877'];
const filled = (el: XmlElement, path: string) => values(el, path).some((s) => ns(s) !== '');

function germany(v: RuleVariant): Pattern {
  const modern = v.germanRules2026;
  /** The payment means type code compared as 2026.5 does (normalised text) or as before (a number: '58.0' is 58, 'x' no match). */
  const pmCodeIn = (pm: XmlElement, codes: string[]) => {
    if (modern) return codes.includes(ns(single(pm, 'cbc:PaymentMeansCode')));
    return values(pm, 'cbc:PaymentMeansCode').some((c) => {
      const n = num(c);
      if (Number.isNaN(n)) throw new Error('xs:double cast');
      return codes.some((x) => Number(x) === n);
    });
  };
  const deRoot = (el: XmlElement, env: DocEnv) => isTopRoot(el) && env.bothDE;
  const under2 = (el: XmlElement, env: DocEnv, ...path: string[]) => {
    if (!env.bothDE) return false;
    let p: XmlElement | null = el;
    for (let i = path.length - 1; i >= 0; i--) {
      p = p.parent;
      if (!p || !isCac(p, path[i])) return false;
    }
    return isTopRoot(p.parent);
  };
  const typeIs384 = (r: XmlElement) => {
    if (modern) return ns(single(r, 'cbc:InvoiceTypeCode')) === '384' || ns(single(r, 'cbc:CreditNoteTypeCode')) === '384';
    return [...values(r, 'cbc:InvoiceTypeCode'), ...values(r, 'cbc:CreditNoteTypeCode')].some((c) => {
      const n = num(c);
      if (Number.isNaN(n)) throw new Error('xs:double cast');
      return n === 384;
    });
  };
  const rootAsserts: Assert[] = [
    A('DE-R-001', 'fatal', 'Between German parties the payment instructions (BG-16) must be given.', (r) => has(r, 'cac:PaymentMeans')),
    A('DE-R-015', 'fatal', 'Between German parties the buyer reference (BT-10) must be given.', (r) => filled(r, 'cbc:BuyerReference')),
    A(
      'DE-R-016',
      'fatal',
      'Between German parties using VAT categories S, Z, E, AE, K, G, L or M, the seller VAT identifier (BT-31), tax registration (BT-32) or tax representative (BG-11) must be given.',
      (r) => {
        // BT-95 / BT-102: the categories of document-level allowances and charges (indicator exactly 'false' / 'true'); BT-151: the lines'.
        const acCategories = sel(r, 'cac:AllowanceCharge')
          .filter((ac) => values(ac, 'cbc:ChargeIndicator').some((f) => f === 'false' || f === 'true'))
          .flatMap((ac) => values(ac, 'cac:TaxCategory/cbc:ID'));
        const lineCategories = [...sel(r, 'cac:InvoiceLine'), ...sel(r, 'cac:CreditNoteLine')].flatMap((l) =>
          values(l, 'cac:Item/cac:ClassifiedTaxCategory/cbc:ID'),
        );
        const used = [...acCategories, ...lineCategories].some((c) => SUPPORTED_VAT.includes(c));
        return (
          !used ||
          has(r, 'cac:TaxRepresentativeParty') ||
          filled(r, 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID')
        );
      },
    ),
    A(
      'DE-R-017',
      'warning',
      'Between German parties the invoice type code (BT-3) should be 326, 380, 384, 389, 381, 875, 876 or 877.',
      (r) =>
        modern
          ? DE_TYPE_CODES.includes(ns(single(r, 'cbc:InvoiceTypeCode'))) || DE_TYPE_CODES.includes(ns(single(r, 'cbc:CreditNoteTypeCode')))
          : [...values(r, 'cbc:InvoiceTypeCode'), ...values(r, 'cbc:CreditNoteTypeCode')].some((c) => DE_TYPE_CODES.includes(c)),
    ),
    A(
      'DE-R-018',
      'fatal',
      'Between German parties, cash discount (Skonto) lines in the payment terms (BT-20) must follow #SKONTO#TAGE=n#PROZENT=n.nn[#BASISBETRAG=n.nn]# and end with a line break.',
      (r) => {
        const notes = sel(r, 'cac:PaymentTerms').flatMap((pt) => sel(pt, 'cbc:Note').slice(0, 1).map(text));
        const lines = notes.flatMap((n) => tokenize(n, /\r?\n/)).filter((l) => ns(l).startsWith('#'));
        if (lines.length === 0) return true;
        const tails = notes.map((n) => {
          const parts = tokenize(n, /#.+#/);
          return parts[parts.length - 1];
        });
        if (tails.length > 1) throw new Error('matches on a sequence');
        const tailOk = /^[ \t\r\n]*\n/.test(tails[0] ?? '');
        return lines.every((l) => (modern ? SKONTO_2026 : SKONTO_2025).test(ns(l)) && tailOk);
      },
    ),
    A('DE-R-022', 'fatal', 'Between German parties, attached documents (BT-125) must have unique file names.', (r) => {
      const refs = sel(r, 'cac:AdditionalDocumentReference');
      const seen: string[] = [];
      for (const ref of refs) {
        const own = values(ref, 'cac:Attachment/cbc:EmbeddedDocumentBinaryObject/@filename');
        if (own.some((f) => seen.includes(f))) return false;
        seen.push(...own);
      }
      return true;
    }),
    A(
      'DE-R-026',
      'warning',
      'Between German parties a corrected invoice (type 384) should reference the preceding invoice (BG-3).',
      (r) => !typeIs384(r) || has(r, 'cac:BillingReference/cac:InvoiceDocumentReference'),
    ),
    A(
      'DE-R-030',
      'fatal',
      'Between German parties a direct debit (BG-19) needs the bank assigned creditor identifier (BT-90).',
      (r) =>
        !has(r, 'cac:PaymentMeans/cac:PaymentMandate') ||
        [
          ...sel(r, 'cac:AccountingSupplierParty/cac:Party/cac:PartyIdentification/cbc:ID'),
          ...sel(r, 'cac:PayeeParty/cac:PartyIdentification/cbc:ID'),
        ].some((id) => attr(id, 'schemeID') === 'SEPA'),
    ),
    A(
      'DE-R-031',
      'fatal',
      'Between German parties a direct debit (BG-19) needs the debited account (BT-91).',
      (r) =>
        !has(r, 'cac:PaymentMeans/cac:PaymentMandate') || has(r, 'cac:PaymentMeans/cac:PaymentMandate/cac:PayerFinancialAccount/cbc:ID'),
    ),
  ];
  const rules: ContextRule[] = [{ names: ['Invoice', 'CreditNote'], match: deRoot, asserts: rootAsserts }];
  if (modern)
    rules.push({
      names: ['ExternalReference'],
      match: (el, env) => isCac(el, 'ExternalReference') && under2(el, env, 'AdditionalDocumentReference', 'Attachment'),
      asserts: [
        A(
          'DE-R-T02',
          'warning',
          'Between German parties the external document location (BT-124) should be an absolute URL with a scheme.',
          (el) => URL.test(single(el, 'cbc:URI') ?? ''),
        ),
      ],
    });
  rules.push(
    {
      names: ['AccountingSupplierParty'],
      match: (el, env) => isCac(el, 'AccountingSupplierParty') && env.bothDE && isTopRoot(el.parent),
      asserts: [
        A('DE-R-002', 'fatal', 'Between German parties the seller contact (BG-6) must be given.', (el) => has(el, 'cac:Party/cac:Contact')),
      ],
    },
    {
      names: ['PostalAddress'],
      match: (el, env) => isCac(el, 'PostalAddress') && under2(el, env, 'AccountingSupplierParty', 'Party'),
      asserts: [
        A('DE-R-003', 'fatal', 'Between German parties the seller city (BT-37) must be given.', (el) => filled(el, 'cbc:CityName')),
        A('DE-R-004', 'fatal', 'Between German parties the seller post code (BT-38) must be given.', (el) => filled(el, 'cbc:PostalZone')),
      ],
    },
    {
      names: ['Contact'],
      match: (el, env) => isCac(el, 'Contact') && under2(el, env, 'AccountingSupplierParty', 'Party'),
      asserts: [
        A('DE-R-005', 'fatal', 'Between German parties the seller contact point (BT-41) must be given.', (el) => filled(el, 'cbc:Name')),
        A('DE-R-006', 'fatal', 'Between German parties the seller contact telephone (BT-42) must be given.', (el) =>
          filled(el, 'cbc:Telephone'),
        ),
        A('DE-R-007', 'fatal', 'Between German parties the seller contact e-mail (BT-43) must be given.', (el) =>
          filled(el, 'cbc:ElectronicMail'),
        ),
        A('DE-R-027', 'warning', 'Between German parties the seller contact telephone (BT-42) should contain at least 3 digits.', (el) =>
          TELEPHONE.test(ns(single(el, 'cbc:Telephone'))),
        ),
        A('DE-R-028', 'warning', 'Between German parties the seller contact e-mail (BT-43) should be a valid e-mail address.', (el) =>
          (modern ? EMAIL_2026 : EMAIL_2025).test(ns(single(el, 'cbc:ElectronicMail'))),
        ),
      ],
    },
    {
      names: ['PostalAddress'],
      match: (el, env) => isCac(el, 'PostalAddress') && under2(el, env, 'AccountingCustomerParty', 'Party'),
      asserts: [
        A('DE-R-008', 'fatal', 'Between German parties the buyer city (BT-52) must be given.', (el) => filled(el, 'cbc:CityName')),
        A('DE-R-009', 'fatal', 'Between German parties the buyer post code (BT-53) must be given.', (el) => filled(el, 'cbc:PostalZone')),
      ],
    },
    {
      names: ['Address'],
      match: (el, env) => isCac(el, 'Address') && under2(el, env, 'Delivery', 'DeliveryLocation'),
      asserts: [
        A('DE-R-010', 'fatal', 'Between German parties a deliver-to address (BG-15) must give the city (BT-77).', (el) =>
          filled(el, 'cbc:CityName'),
        ),
        A('DE-R-011', 'fatal', 'Between German parties a deliver-to address (BG-15) must give the post code (BT-78).', (el) =>
          filled(el, 'cbc:PostalZone'),
        ),
      ],
    },
    {
      names: ['PaymentMeans'],
      match: (el, env) => isCac(el, 'PaymentMeans') && isTopRoot(el.parent) && env.bothDE && pmCodeIn(el, ['30', '58']),
      asserts: [
        A(
          'DE-R-019',
          'warning',
          'Between German parties, with SEPA credit transfer (58) the payment account (BT-84) should be a valid IBAN.',
          (pm) => !pmCodeIs58(pm, modern) || ibanCheck(single(pm, 'cac:PayeeFinancialAccount/cbc:ID')),
        ),
        A('DE-R-023-1', 'fatal', 'Between German parties a credit transfer (30, 58) must give the credit transfer group (BG-17).', (pm) =>
          has(pm, 'cac:PayeeFinancialAccount'),
        ),
        A(
          'DE-R-023-2',
          'fatal',
          'Between German parties a credit transfer (30, 58) must not give card (BG-18) or direct debit (BG-19) information.',
          (pm) => !has(pm, 'cac:CardAccount') && !has(pm, 'cac:PaymentMandate'),
        ),
      ],
    },
    {
      names: ['PaymentMeans'],
      match: (el, env) => isCac(el, 'PaymentMeans') && isTopRoot(el.parent) && env.bothDE && pmCodeIn(el, ['48', '54', '55']),
      asserts: [
        A('DE-R-024-1', 'fatal', 'Between German parties a card payment (48, 54, 55) must give the card information (BG-18).', (pm) =>
          has(pm, 'cac:CardAccount'),
        ),
        A(
          'DE-R-024-2',
          'fatal',
          'Between German parties a card payment (48, 54, 55) must not give credit transfer (BG-17) or direct debit (BG-19) information.',
          (pm) => !has(pm, 'cac:PayeeFinancialAccount') && !has(pm, 'cac:PaymentMandate'),
        ),
      ],
    },
    {
      names: ['PaymentMeans'],
      match: (el, env) => isCac(el, 'PaymentMeans') && isTopRoot(el.parent) && env.bothDE && pmCodeIn(el, ['59']),
      asserts: [
        A(
          'DE-R-020',
          'warning',
          'Between German parties, with SEPA direct debit (59) the debited account (BT-91) should be a valid IBAN.',
          (pm) =>
            !(modern ? ns(single(pm, 'cbc:PaymentMeansCode')) === '59' : values(pm, 'cbc:PaymentMeansCode').includes('59')) ||
            ibanCheck(single(pm, 'cac:PaymentMandate/cac:PayerFinancialAccount/cbc:ID')),
        ),
        A('DE-R-025-1', 'fatal', 'Between German parties a direct debit (59) must give the direct debit group (BG-19).', (pm) =>
          has(pm, 'cac:PaymentMandate'),
        ),
        A(
          'DE-R-025-2',
          'fatal',
          'Between German parties a direct debit (59) must not give credit transfer (BG-17) or card (BG-18) information.',
          (pm) => !has(pm, 'cac:PayeeFinancialAccount') && !has(pm, 'cac:CardAccount'),
        ),
      ],
    },
    {
      names: ['TaxSubtotal'],
      match: (el, env) => isCac(el, 'TaxSubtotal') && under2(el, env, 'TaxTotal'),
      asserts: [
        A('DE-R-014', 'fatal', 'Between German parties the VAT category rate (BT-119) must be given.', (el) =>
          filled(el, 'cac:TaxCategory/cbc:Percent'),
        ),
      ],
    },
  );
  // Every German context is between German parties (deRoot, under2 and the others test env.bothDE).
  return rules.map((r) => ({ ...r, when: bothDE }));
}

/** DE-R-019's own test of code 58: normalised text (2026.5) or the plain string comparison (before). */
function pmCodeIs58(pm: XmlElement, modern: boolean): boolean {
  return modern ? ns(single(pm, 'cbc:PaymentMeansCode')) === '58' : values(pm, 'cbc:PaymentMeansCode').includes('58');
}

/** Every national pattern, in the official order. */
export function nationalPatterns(v: RuleVariant): Pattern[] {
  return [norway, denmark(v), italy, sweden, greekSender, greekSenderAndReceiver, iceland, netherlands, germany(v)];
}
