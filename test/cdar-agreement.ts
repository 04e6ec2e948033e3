/**
 * Our verdict on a CDAR message against the official one stored in test/fixtures/cdar/verdicts.jsonl
 * (scripts/cdar-verdicts.ts): the schema's (native engine vs libxml2 on the official XSD) and the BR-FR-CDV rules'
 * (ours vs FNFE-MPE's XSLT, standard edition), compared by assert id and count per file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseXml } from '../src/xml/dom.js';
import { runBrFrCdv } from '../src/rules/br-fr-cdv/index.js';
import { validateAgainstSchema } from '../src/xml/xsd-native/validate.js';
import { cdarSchema } from '../src/xml/cdar/schema.js';

export interface CdarVerdict {
  kind: 'combination' | 'mutation' | 'example';
  name: string;
  sha256?: string;
  xsd: { valid: boolean; errors: number; first_line?: number };
  findings: { id: string; flag: string }[] | null;
}

export const VERDICTS_FILE = path.join(import.meta.dirname, 'fixtures/cdar/verdicts.jsonl');

export function readVerdicts(): CdarVerdict[] {
  return readFileSync(VERDICTS_FILE, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CdarVerdict);
}

export interface Ours {
  xsdValid: boolean;
  xsdFirstLine?: number;
  ids: string[];
}

export function ours(xml: string): Ours {
  const doc = parseXml(xml);
  const xsd = validateAgainstSchema(doc, cdarSchema());
  return { xsdValid: xsd.length === 0, xsdFirstLine: xsd[0]?.line, ids: runBrFrCdv(doc).map((f) => f.ruleId!) };
}

const counts = (ids: string[]) => {
  const m = new Map<string, number>();
  for (const id of ids) m.set(id, (m.get(id) ?? 0) + 1);
  return m;
};

export interface Agreement {
  files: number;
  agreeing: number;
  /** Files whose official run stopped on a dynamic error (no verdict to compare with). */
  noVerdict: number;
  xsdAgreeing: number;
  truePositives: number;
  official: number;
  reported: number;
  differences: string[];
}

export function emptyAgreement(): Agreement {
  return { files: 0, agreeing: 0, noVerdict: 0, xsdAgreeing: 0, truePositives: 0, official: 0, reported: 0, differences: [] };
}

/** Add one file's comparison to `a`. */
export function compare(a: Agreement, verdict: CdarVerdict, xml: string): void {
  const o = ours(xml);
  a.files++;
  const xsdSame = o.xsdValid === verdict.xsd.valid && (o.xsdValid || o.xsdFirstLine === verdict.xsd.first_line);
  if (xsdSame) a.xsdAgreeing++;
  if (verdict.findings === null) {
    a.noVerdict++;
    return;
  }
  const off = counts(verdict.findings.map((f) => f.id));
  const mine = counts(o.ids);
  let same = xsdSame;
  for (const id of new Set([...off.keys(), ...mine.keys()])) {
    const x = off.get(id) ?? 0;
    const y = mine.get(id) ?? 0;
    a.truePositives += Math.min(x, y);
    a.official += x;
    a.reported += y;
    if (x !== y) {
      same = false;
      a.differences.push(`${verdict.kind} ${verdict.name}: ${id} official ${x}, ours ${y}`);
    }
  }
  if (!xsdSame)
    a.differences.push(
      `${verdict.kind} ${verdict.name}: XSD official ${verdict.xsd.valid} (line ${verdict.xsd.first_line}), ours ${o.xsdValid} (line ${o.xsdFirstLine})`,
    );
  if (same) a.agreeing++;
}

export function summary(a: Agreement): { fileAgreement: number; recall: number; precision: number } {
  const compared = a.files - a.noVerdict;
  return {
    fileAgreement: compared ? a.agreeing / compared : 1,
    recall: a.official ? a.truePositives / a.official : 1,
    precision: a.reported ? a.truePositives / a.reported : 1,
  };
}
