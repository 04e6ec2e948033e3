/**
 * Shared pieces of the XRechnung 3.0 rule sets (KoSIT schematron releases 2.5.0 and 2.4.0, XRechnung 3.0.x):
 * identifiers, the regular expressions the CIUS prescribes, and a small rule builder that turns
 * "for every context node, this must hold" into a Rule of the engine.
 */
import type { XmlDoc, XmlElement } from '../../xml/dom.js';
import type { Rule, RuleContext, Severity, Violation } from '../types.js';
import { where } from './dom.js';
import { MAX_FINDINGS_PER_RULE } from '../report-bounds.js';

/**
 * The KoSIT XRechnung schematron releases bundled, newest first; the first is the default. A release's
 * differences from the one before are expressed where the rule lives (cii.ts, ubl.ts, peppol.ts) and
 * in XR_CODE_ADDITIONS; docs/rules.md ("Rule-set releases") says how to add the next one.
 */
export const XR_RELEASES = ['2.5.0', '2.4.0'] as const;
export type XrRelease = (typeof XR_RELEASES)[number];
export const DEFAULT_XR_RELEASE: XrRelease = XR_RELEASES[0];
/** Release dates (KoSIT CHANGELOG) and the XRechnung version each release is for. */
export const XR_RELEASE_INFO: Record<XrRelease, { date: string; xrechnung: string; codeLists: string; peppol: string }> = {
  '2.5.0': { date: '2026-01-31', xrechnung: '3.0.x', codeLists: 'CEN 1.3.15', peppol: 'Peppol BIS Billing 3.0.20' },
  '2.4.0': { date: '2025-07-10', xrechnung: '3.0.x', codeLists: 'CEN 1.3.14', peppol: 'Peppol BIS Billing 3.0.19' },
};

/**
 * The codes a release's global code-list variables gained over 2.4.0 (whose lists are the catalogue's,
 * src/rules/data/codelists.ts): 2.5.0 adapted to the CEN 1.3.15 lists (ISO 6523 ICD 0241–0244, CEF EAS 0244).
 */
export const XR_CODE_ADDITIONS: Record<XrRelease, { icd: readonly string[]; eas: readonly string[] }> = {
  '2.5.0': { icd: ['0241', '0242', '0243', '0244'], eas: ['0244'] },
  '2.4.0': { icd: [], eas: [] },
};

const extended = new Map<string, ReadonlySet<string>>();
/** A catalogue code list with a release's additions (built once per list and release). */
export function withAdditions(key: string, base: ReadonlySet<string>, added: readonly string[]): ReadonlySet<string> {
  if (added.length === 0) return base;
  let set = extended.get(key);
  if (!set) extended.set(key, (set = new Set([...base, ...added])));
  return set;
}

/** Read an `xrechnung_version` value: a release name, optionally with a leading "v"; undefined when unknown. */
export function parseXrRelease(raw: string | undefined): XrRelease | undefined {
  if (raw === undefined || raw.trim() === '') return DEFAULT_XR_RELEASE;
  const v = raw.trim().replace(/^v/i, '');
  return (XR_RELEASES as readonly string[]).includes(v) ? (v as XrRelease) : undefined;
}

export const XR_VERSION = '3.0';
export const XR_CIUS_ID = `urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_${XR_VERSION}`;
export const XR_EXTENSION_ID = `${XR_CIUS_ID}#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_${XR_VERSION}`;
/** Clean Vehicles Directive reporting (CVD), version 0.9 of its specification. */
export const XR_CVD_ID = `${XR_CIUS_ID}#compliant#urn:xeinkauf.de:kosit:xrechnung:cvd_0.9`;

/** A discount (Skonto) line of the payment terms: #SKONTO#TAGE=n#PROZENT=n.nn[#BASISBETRAG=n.nn]# */
export const SKONTO_LINE = /(^|\r?\n)#(SKONTO)#TAGE=([0-9]+#PROZENT=[0-9]+\.[0-9]{2})(#BASISBETRAG=-?[0-9]+\.[0-9]{2})?#$/;
export const EMAIL = /^[^@\s]+@([^@.\s]+\.)+[^@.\s]+$/;
/** At least three digits. */
export const TELEPHONE = /([0-9].*){3,}/;
/** A URI with a scheme. */
export const URL_WITH_SCHEME = /^([a-zA-Z])([a-zA-Z0-9+.-])+:.*/;

export const CVD_VEHICLE_CATEGORIES = ['M1', 'M2', 'M3', 'N1', 'N2', 'N3'];
export const CVA_CODES = ['clean', 'zero-emission', 'other'];
/** XRechnung's extra scheme codes for DiGA (digital health applications), accepted in the extension. */
export const DIGA_CODES = ['XR01', 'XR02', 'XR03'];

/** The MIME codes the extension accepts for attachments (EN 16931's plus application/xml). */
export const EXTENSION_MIME_CODES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/xml',
];

/** XPath `matches()` with the regex semantics the rules rely on (search, not full match). */
export const matches = (s: string, re: RegExp): boolean => re.test(s);

/**
 * BR-DE-18: every payment-terms line that starts with '#' is a well-formed Skonto line, and the
 * text after the last #…# run starts with a line break (a Skonto statement ends with a newline).
 */
export function skontoOk(terms: string | undefined): boolean {
  if (terms === undefined) return true;
  const lines = terms.split(/\r?\n/).filter((l) =>
    l
      .replace(/[ \t\r\n]+/g, ' ')
      .trim()
      .startsWith('#'),
  );
  if (lines.length === 0) return true;
  const tokens = terms.split(/#.+#/);
  const tail = tokens[tokens.length - 1];
  const endsWithBreak = /^\s*\n/.test(tail);
  return lines.every((l) => SKONTO_LINE.test(l.replace(/[ \t\r\n]+/g, ' ').trim()) && endsWithBreak);
}

/** IBAN check as XRechnung writes it: shape, then mod 97 over the rearranged digits. */
export function ibanOk(raw: string | undefined): boolean {
  const iban = (raw ?? '').replace(/[ \n\r\t\s]/g, '').trim();
  if (!/^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{0,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 2).toUpperCase() + iban.slice(2, 4);
  let digits = '';
  for (const ch of rearranged) {
    const cp = ch.codePointAt(0)!;
    digits += String(cp > 64 ? cp - 55 : cp - 48);
  }
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + (d.charCodeAt(0) - 48)) % 97;
  return rest === 1;
}

/** Is `code` one of a space-separated code list, the way the artefacts test it (no inner spaces)? */
export function inCodeList(code: string | undefined, list: ReadonlySet<string>): boolean {
  const c = (code ?? '').replace(/[ \t\r\n]+/g, ' ').trim();
  return !c.includes(' ') && list.has(c);
}

export interface XrRuleDef {
  id: string;
  severity: Severity;
  message: string;
  /** The context nodes the rule applies to (Schematron rule context). */
  contexts(doc: XmlDoc, ctx: RuleContext): readonly XmlElement[];
  /** True when the assertion holds on the node. */
  test(node: XmlElement, ctx: RuleContext): boolean;
}

/** A violation the report will not list (beyond MAX_FINDINGS_PER_RULE): no location needed. */
const UNLISTED: Violation = Object.freeze({});

export function toRule(def: XrRuleDef): Rule {
  return {
    id: def.id,
    severity: def.severity,
    message: def.message,
    check(ctx: RuleContext): Violation[] {
      const out: Violation[] = [];
      // Locations only for the violations a report lists (report-bounds.ts): the rest are only counted,
      // and a path per element of a hostile 500,000-element document cost seconds of garbage.
      for (const node of def.contexts(ctx.doc, ctx))
        if (!def.test(node, ctx)) out.push(out.length < MAX_FINDINGS_PER_RULE ? { location: where(node) } : UNLISTED);
      return out;
    },
  };
}

/** The document root as a one-element context list. */
export const rootCtx = (doc: XmlDoc): XmlElement[] => [doc.root];
