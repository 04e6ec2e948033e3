/**
 * Smart diagnostics in our own words for every rule id the engine can report: per-id entries where a rule
 * needs its own words (en16931.ts, own.ts), one builder per family of rules of the same shape (VAT category
 * rules in vat.ts; code lists, decimals, presence, cardinality, ... below), each naming the business terms
 * involved with their EN 16931 names. Built lazily per finding, only for pro diagnostics.
 */
import type { Advice } from './types.js';
import { CIUS, CODE_LISTS, EN16931, type Entry } from './en16931.js';
import { OWN, pdfaAdvice } from './own.js';
import { isKnownTerm, named, termName, termsIn } from './terms.js';
import { termsAt } from './paths.js';
import { vatCategoryAdvice } from './vat.js';

export type { Advice } from './types.js';

export interface Explained extends Advice {
  /** The business terms the explanation names, with their names. */
  terms: { id: string; name: string }[];
}

export interface ExplainInput {
  ruleId: string;
  /** The finding's message (our words; names the exact field where the rule knows it). */
  message: string;
  location?: string;
  ruleSet?: string;
}

/** Which rule family an id belongs to, in words for the explanation. */
function familyOf(ruleId: string, ruleSet: string | undefined): string {
  const set = ruleSet ?? '';
  if (/^FX-|^BR-FXEXT-/.test(ruleId) || set.startsWith('fx-')) return `a rule of the Factur-X/ZUGFeRD ${profileName(set)} profile`;
  if (ruleId.startsWith('BR-FR-')) return 'a rule of the French e-invoicing reform (FNFE-MPE BR-FR, French CTC)';
  if (set.startsWith('peppol-') && PEPPOL_NATIONAL.test(ruleId)) return 'a national rule of Peppol BIS Billing 3.0 (OpenPeppol)';
  if (set.startsWith('peppol-')) return 'a rule of Peppol BIS Billing 3.0 (OpenPeppol)';
  if (ruleId.startsWith('PEPPOL-')) return 'a Peppol BIS Billing rule that the XRechnung CIUS applies';
  if (/^BR-(DE|DEX|TMP)-/.test(ruleId)) return 'a rule of the XRechnung CIUS (German public-sector invoices)';
  if (ruleId.startsWith('CII-')) return 'an EN 16931 rule of the CII syntax binding';
  if (ruleId.startsWith('UBL-')) return 'an EN 16931 rule of the UBL syntax binding';
  return 'an EN 16931 business rule';
}

function profileName(ruleSet: string): string {
  const p = ruleSet.replace(/^fx-/, '');
  return { minimum: 'MINIMUM', basicwl: 'BASIC WL', basic: 'BASIC', en16931: 'EN 16931 (COMFORT)', extended: 'EXTENDED' }[p] ?? 'declared';
}

/** Term ids an id names itself, e.g. BR-FR-03_BT-7 → BT-7, BR-FR-09_EXT-FR-FE-46 → EXT-FR-FE-46. */
function termsOfId(ruleId: string): string[] {
  const i = ruleId.indexOf('_');
  if (i < 0) return [];
  return termsIn(ruleId.slice(i + 1).replace(/^BT-EXT/, 'EXT'));
}

const ENGLISH = new Set([
  'The',
  'This',
  'A',
  'An',
  'Each',
  'Every',
  'Any',
  'At',
  'With',
  'When',
  'On',
  'For',
  'Only',
  'In',
  'If',
  'No',
  'One',
  'All',
  'Both',
]);

/**
 * The XML element a structural message speaks of ("X must occur exactly once in Y", "The attribute @a is not
 * used ..."), else the element at the finding's location; and the parent the message names.
 */
function elementOf(message: string, location: string | undefined): { element?: string; parent?: string; fromMessage: boolean } {
  const m = /^(?:The value of |The attribute |any )?(@?[A-Za-z][A-Za-z0-9]*(?:\/@?[A-Za-z][A-Za-z0-9]*)*)/.exec(message);
  let element = m && !ENGLISH.has(m[1]) && /^(@|[A-Z])/.test(m[1]) ? m[1] : undefined;
  const fromMessage = element !== undefined;
  if (!element && location?.startsWith('/')) {
    const last = location.split('/').pop() ?? '';
    const name = last.replace(/\[.*$/, '').replace(/^(@?)[A-Za-z0-9_-]+:/, '$1');
    if (/^@?[A-Za-z][A-Za-z0-9]*$/.test(name)) element = name;
  }
  const parent = / in (?:the |a |an )?([A-Z][A-Za-z]+)\.?$/.exec(message.trim())?.[1];
  return { element, parent, fromMessage };
}

type Shape =
  | 'length'
  | 'empty'
  | 'decimals'
  | 'codes'
  | 'cardinality'
  | 'arithmetic'
  | 'notUsed'
  | 'forbidden'
  | 'value'
  | 'presence'
  | 'format'
  | 'condition';

function shapeOf(ruleId: string, message: string): Shape {
  const m = message;
  if (/at most (two|\w+) decimals|decimals?\b.*(at most|maximum)/i.test(m) || /^BR-(FR-)?DEC-/.test(ruleId)) return 'decimals';
  if (/must not exceed \d+ characters|at most \d+ characters/i.test(m)) return 'length';
  if (/must not be empty/i.test(m)) return 'empty';
  if (/^BR-CL-|^BR-DEX-0[4-8]$|^BR-TMP-CVD/.test(ruleId)) return 'codes';
  if (/is missing\b|must be given\.?$|is mandatory\.?$/i.test(m)) return 'presence';
  if (/is not used in this|not part of EN 16931|should not be used|must not be used|does not use it/i.test(m)) return 'notUsed';
  if (
    /\bcodes?\b[^.]*\b(of|from|in|accepted|allowed|list)\b|not one of|must be one of|should be one of|is not a code|ISO \d+|UNTDID|VATEX|CEF EAS|UN\/ECE/i.test(
      m,
    )
  )
    return 'codes';
  if (
    /at most once|exactly once|only once|at most one\b|exactly one\b|exactly two|at most \w+ times|only one value|unique|more than once/i.test(
      m,
    )
  )
    return 'cardinality';
  if (/must equal|should equal|equal the sum|times|× |sum of|add up|within 0\.01|must match/i.test(m)) return 'arithmetic';
  if (
    /negative|greater than zero|must be zero|be positive|must not (start|end|be) (before|after)|not be before|same sign|must differ|must be absent/i.test(
      m,
    )
  )
    return 'value';
  if (/must not|may not|mutually exclusive|excludes|not allowed|do(es)? not apply|cannot|not supported/i.test(m)) return 'forbidden';
  if (
    /must (have|contain|give|state|be given|carry|name|reference|occur|mention)|needs?\b|is missing|is mandatory|is required|requires|must be present|should (give|state|reference|contain)|must be filled/i.test(
      m,
    )
  )
    return 'presence';
  if (
    /start with|prefix|format|pattern|characters|valid date|digits|plausible|absolute URL|IBAN|written|YYYY|syntax|separator|must be '|must be "/i.test(
      m,
    )
  )
    return 'format';
  return 'condition';
}

function list(terms: string[]): string {
  const named2 = terms.map(named);
  if (named2.length <= 1) return named2.join('');
  return `${named2.slice(0, -1).join(', ')} and ${named2[named2.length - 1]}`;
}

/** The subject of a finding for its title: the first term, else the XML element the message names. */
function subjectOf(terms: string[], element: string | undefined): string {
  if (terms.length > 0) return named(terms[0]);
  if (element) return element.startsWith('@') ? `Attribute ${element}` : `Element ${element}`;
  return 'The invoice';
}

/** For a presence rule, the term the rule asks for: the first one named after "must"/"needs"/"requires". */
function askedFor(message: string, terms: string[]): string[] {
  const at = message.search(/\b(must|needs?|requires?|should)\b/);
  if (at < 0) return terms;
  // The clause of the verb: "When X is used, the Y (BT-n) must be given" asks for BT-n.
  const after = termsIn(message.slice(message.lastIndexOf(',', at) + 1));
  const first = after.find((t) => terms.includes(t));
  return first ? [first, ...terms.filter((t) => t !== first)] : terms;
}

/** The terms a presence rule accepts as alternatives ("... or ..."), from the verb's object, else its subject. */
function alternativesOf(message: string): string[] {
  const at = message.search(/\b(must|needs?|requires?|should)\b/);
  if (at < 0 || !/\bor\b/.test(message)) return [];
  const after = message.slice(at);
  if (/\bor\b/.test(after) && termsIn(after).length > 1) return termsIn(after);
  const before = message.slice(0, at);
  return /\bor\b/.test(before) ? termsIn(before) : [];
}

function byShape(input: ExplainInput, allTerms: string[]): Advice {
  const { ruleId, message } = input;
  const shape = shapeOf(ruleId, message);
  const terms = shape === 'presence' ? askedFor(message, allTerms) : allTerms;
  const found = elementOf(message, input.location);
  // An element the message names is the subject; the element at the location only when no term is known.
  const element = found.fromMessage || terms.length === 0 ? found.element : undefined;
  const parent = found.parent;
  const subject = subjectOf(terms, element);
  const subjectLower = subject.replace(/^(The invoice|Element|Attribute)\b/, (w) => w.toLowerCase());
  const el = element ? (element.startsWith('@') ? `attribute ${element}` : `element ${element}`) : undefined;
  switch (shape) {
    case 'length': {
      const n = /(\d+) characters/.exec(message)?.[1];
      return {
        title: `${subject} too long`,
        explanation: `${subject} is longer than the ${n} characters the rule allows.`,
        suggestion: `Shorten ${subjectLower} to at most ${n} characters.`,
      };
    }
    case 'empty':
      return {
        title: `${subject} is empty`,
        explanation: `${subject} is present but holds no value; an element must either carry its value or be left out.`,
        suggestion: `Fill in ${subjectLower}, or remove the empty element.`,
      };
    case 'decimals': {
      const n = /at most (\w+) decimals/.exec(message)?.[1] ?? 'two';
      return {
        title: `Too many decimals in ${subject}`,
        explanation: `${subject} is an amount written with more than ${n} decimals; amounts of this kind carry at most ${n}.`,
        suggestion: `Round ${subjectLower} to ${n} decimals (half up) and recompute the totals that depend on it, so that they still add up.`,
      };
    }
    case 'codes': {
      const cl = CODE_LISTS[ruleId];
      const t = cl ? named(cl.term) : subject;
      return {
        title: `${t} uses a code outside ${cl ? cl.list : 'the allowed list'}`,
        explanation: `${t} must hold a code from ${cl ? cl.list : 'the code list the rule names'}; the value sent is not in it (codes are case-sensitive).`,
        suggestion: cl
          ? `Use a code from ${cl.list}, e.g. ${cl.example}.`
          : `Replace the value of ${cl ? t : subjectLower} with a code from ${listNamed(message, input.ruleSet)}.`,
      };
    }
    case 'notUsed':
      return /Factur-X/.test(message) || ruleId.startsWith('FX-')
        ? {
            title: `${el ? capital(el) : subject} not allowed in the ${profileName(input.ruleSet ?? '')} profile`,
            explanation: `The declared Factur-X/ZUGFeRD profile (${profileName(input.ruleSet ?? '')}) does not carry ${el ?? 'this element'}${terms.length ? ` (${list(terms)})` : ''}; each profile allows only a subset of the CII structure, and receivers of this profile may ignore or reject anything beyond it.`,
            suggestion: `Remove ${el ?? 'the element'} at the location given, or declare a profile that carries it (e.g. EXTENDED) in the Specification identifier (BT-24).`,
          }
        : {
            title: `${el ? capital(el) : subject} is not part of EN 16931`,
            explanation: `EN 16931 has no business term for ${el ?? 'this element'}${parent ? ` in ${parent}` : ''}${terms.length ? ` (it sits in ${list(terms)})` : ''}, so a receiver that processes the EN 16931 model drops it.`,
            suggestion: `Remove ${el ?? 'the element'}; if the information matters to the buyer, put it in an invoice note (BT-22) or a supporting document (BG-24).`,
          };
    case 'cardinality': {
      const once = /at most once|only once|at most one\b/i.test(message);
      return {
        title:
          el && /occur/.test(message)
            ? `${capital(el)} ${once ? 'repeated' : 'missing or repeated'}${parent ? ` in ${parent}` : ''}`
            : `${subject} ${once ? 'given more than once' : 'given the wrong number of times'}`,
        explanation: `${el && /occur/.test(message) ? capital(el) : subject} ${once ? 'may appear at most once' : 'must appear the required number of times'}${parent ? ` in ${parent}` : ''} here${el && /occur/.test(message) && terms.length ? `; it carries ${list(terms)}` : ''}.`,
        suggestion: once
          ? `Keep one ${el ?? subjectLower} and remove the others (merge their content if both are needed).`
          : `Give exactly the required ${el ?? subjectLower}: add it if it is missing, remove duplicates.`,
      };
    }
    case 'arithmetic':
      return {
        title: `${subject} does not add up`,
        explanation: `${subject} must equal the figure the rule computes from ${terms.length > 1 ? list(terms.slice(1)) : 'the related amounts'}; the amounts sent give a different result.`,
        suggestion: `Recompute ${subjectLower} from ${terms.length > 1 ? list(terms.slice(1)) : 'the amounts it depends on'} (rounded to two decimals), or correct the amount that was changed.`,
      };
    case 'value': {
      const related = terms.length > 1 ? ` (compared with ${list(terms.slice(1))})` : '';
      const suggestion = /negative/i.test(message)
        ? `Give ${subjectLower} a value of zero or more: a reduction belongs in an allowance, and a refund in a credit note (type code 381).`
        : /before|after|start|end\b/i.test(message)
          ? `Correct the dates: ${subjectLower} must not lie on the wrong side of ${terms.length > 1 ? list(terms.slice(1)) : 'the date it is compared with'}.`
          : /greater than zero|positive/i.test(message)
            ? `Give ${subjectLower} a value greater than zero.`
            : /must be zero/i.test(message)
              ? `Set ${subjectLower} to 0.`
              : /same sign/i.test(message)
                ? `Give ${list(terms)} the same sign (both positive on an invoice).`
                : `Correct ${subjectLower}${terms.length > 1 ? `, or the related ${list(terms.slice(1))}` : ''}, so that the condition in the message holds.`;
      return {
        title: `${subject} has a value the rule does not allow`,
        explanation: `The value of ${subjectLower} is outside what the rule accepts${related}.`,
        suggestion,
      };
    }
    case 'forbidden':
      return {
        title: `${subject} not allowed here`,
        explanation: `${subject} must not be given in this situation${terms.length > 1 ? ` (together with ${list(terms.slice(1))})` : ''}.`,
        suggestion: `Remove ${subjectLower}, or change the information that makes it not allowed${terms.length > 1 ? ` (${list(terms.slice(1))})` : ''}.`,
      };
    case 'presence':
      // "X (BT-a) or Y (BT-b) must be given" / "must have X (BT-a) or Y (BT-b)": any one of them satisfies the rule.
      {
        const alternatives = alternativesOf(message);
        if (alternatives.length > 1)
          return {
            title: `${list(alternatives)} missing`.replace(/ and ([^,]+) missing$/, ' or $1 missing'),
            explanation: `At least one of ${list(alternatives)} is required here, and the invoice gives none of them.`,
            suggestion: `Add the one of ${list(alternatives)} that applies to this invoice.`,
          };
      }
      return {
        title: `${subject} missing`,
        explanation: `${subject} is required here${terms.length > 1 ? `; the rule also involves ${list(terms.slice(1))}` : ''}, and the invoice does not give it.`,
        suggestion: `Add ${terms.length > 0 ? 'the ' : ''}${subjectLower} with the value that applies to this invoice${terms.length > 1 ? ` (the rule also looks at ${list(terms.slice(1))})` : ''}.`,
      };
    case 'format':
      return {
        title: `${subject} has the wrong format`,
        explanation: `${subject} is present, but its value is not written the way the rule requires.`,
        suggestion: `Rewrite ${subjectLower} in the format the message gives.`,
      };
    default:
      return {
        title: `Condition on ${subjectLower} not met`,
        explanation: `The combination of ${terms.length ? list(terms) : 'the values'} sent does not meet the rule's condition.`,
        suggestion: `Correct ${terms.length ? list(terms) : 'the values named in the message'} so that the condition in the message holds.`,
      };
  }
}

/** The code list a message names, or the profile's code lists for a Factur-X profile rule. */
function listNamed(message: string, ruleSet: string | undefined): string {
  const m = /(ISO \d+[\w -]*?(?= code|\)|\.|,|$)|UNTDID \d+|CEF EAS|VATEX|UN\/ECE Recommendation \d+(?: or \d+)?|UNTDED \d+)/.exec(message);
  if (m) return `${m[1].trim()}${/XR01/.test(message) ? ' (or XR01–XR03)' : ''}`;
  if (ruleSet?.startsWith('fx-'))
    return `the Factur-X code lists of the ${profileName(ruleSet)} profile (the EN 16931 code lists as Factur-X restricts them)`;
  return 'the code list the rule requires';
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function merge(base: Advice, entry: Entry | undefined): Advice {
  if (!entry) return base;
  return {
    title: entry.title ?? base.title,
    explanation: entry.explanation ?? base.explanation,
    suggestion: entry.suggestion ?? base.suggestion,
  };
}

/**
 * Specific advice for a finding, or null when no table or builder knows its id (the caller's generic
 * fallback; the tests prove it is never reached for an id the engine can report).
 */
export function explainFinding(input: ExplainInput): Explained | null {
  const { ruleId, message } = input;
  const own = OWN[ruleId];
  let terms: string[];
  let advice: Advice;
  if (own) {
    terms = own.terms ?? [];
    advice = own;
  } else if (pdfaAdvice(ruleId)) {
    return { ...pdfaAdvice(ruleId)!, explanation: withMessage(message, pdfaAdvice(ruleId)!.explanation), terms: [] };
  } else if (isRuleId(ruleId)) {
    const entry = EN16931[ruleId] ?? CIUS[ruleId];
    const vat = vatCategoryAdvice(ruleId);
    const cl = CODE_LISTS[ruleId];
    terms = unique([...(vat?.terms ?? []), ...(cl ? [cl.term] : []), ...(entry?.terms ?? []), ...termsIn(message), ...termsOfId(ruleId)]);
    // A structural rule's message speaks of XML: then the location tells the term.
    if (terms.length === 0) {
      // "X must occur exactly once in Y" is reported on Y: the term is the one of Y/X.
      const child = elementOf(message, undefined).element;
      let childTerms: string[] = [];
      if (child && input.location?.startsWith('/')) childTerms = termsAt(`${input.location}/x:${child}`);
      else if (child) {
        // No location (a rule described on its own): the element path of the message, under the syntax's root.
        const ubl = (input.ruleSet ?? '').endsWith('-ubl') || ruleId.startsWith('UBL-');
        childTerms = termsAt(`${ubl ? '/Invoice' : '/rsm:CrossIndustryInvoice'}/x:${child.replace(/\//g, '/x:')}`);
      }
      terms = attributeTerms(childTerms.length > 0 ? childTerms : termsAt(input.location), message);
    }
    const base = vat ?? byShape(input, terms);
    advice = merge(base, entry);
    advice = {
      ...advice,
      explanation: `${advice.explanation} This is ${familyOf(ruleId, input.ruleSet)}.`,
    };
  } else return null;
  const namedTerms = terms.map((id) => ({ id, name: termName(id) }));
  const termsSentence =
    namedTerms.length > 0 ? ` Business terms involved: ${namedTerms.map((t) => `${t.name} (${t.id})`).join(', ')}.` : '';
  return {
    title: advice.title,
    explanation: withMessage(message, advice.explanation) + termsSentence,
    suggestion: advice.suggestion,
    terms: namedTerms,
  };
}

/** Ids of the official and profile rule sets (not the service's own codes). */
function isRuleId(ruleId: string): boolean {
  return /^(BR-|CII-|UBL-|PEPPOL-|FX-|NOID-)/.test(ruleId) || PEPPOL_NATIONAL.test(ruleId);
}

/** The national rules of Peppol BIS Billing 3.0 (NO-R-001, GR-S-011, DE-R-T02, ...). */
const PEPPOL_NATIONAL = /^(NO|DK|IT|SE|GR|IS|NL|DE)-[RS]-[0-9T]/;

/** The attribute a message speaks of, as its own term: @schemeID of BT-49 is BT-49-1, @unitCode of BT-129 is BT-130. */
function attributeTerms(terms: string[], message: string): string[] {
  if (terms.length === 0) return terms;
  const t = terms[0];
  if (/@schemeID/.test(message) && t.startsWith('BT-') && isKnownTerm(`${t}-1`) && !termName(`${t}-1`).startsWith('Component of'))
    return [`${t}-1`, ...terms];
  if (/@unitCode/.test(message)) {
    const unit = t === 'BT-129' ? 'BT-130' : t === 'BT-149' ? 'BT-150' : undefined;
    if (unit) return [unit, ...terms];
  }
  if (/@currencyID/.test(message)) return ['BT-5', ...terms];
  return terms;
}

function unique(ids: string[]): string[] {
  return [...new Set(ids)];
}

/** The finding's own message first (it names the exact field), then the general explanation. */
function withMessage(message: string, explanation: string): string {
  if (!message || explanation.startsWith(message)) return explanation;
  return `${message.trim().replace(/([^.!?])$/, '$1.')} ${explanation}`;
}
