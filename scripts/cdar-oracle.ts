/**
 * The official artefacts for CDAR lifecycle messages, for scripts/cdar-verdicts.ts: FNFE-MPE's compiled BR-FR-CDV
 * XSLT (both editions) run by SaxonJS (Saxonica's xslt3 npm package, not a dependency: `npm install --no-save
 * xslt3@2.7.0`), and the CDAR D22B XSD checked by libxml2-wasm (a devDependency), both read from a checkout of
 * fnfempe/France_RFE (FRANCE_RFE). Nothing of the artefacts is copied: the compiled stylesheets go to the temp folder.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { ParseOption, XmlBufferInputProvider, XmlDocument, XmlValidateError, XsdValidator, xmlRegisterInputProvider } from 'libxml2-wasm';

const CDAR_DIR = 'FNFE_RFE_INVOICE/CDAR';
export const EDITIONS = { fatal: 'BR-FR-CDV-Schematron-CDAR.xslt', warning: 'BR-FR-CDV-Schematron-CDAR_WARNING.xslt' } as const;
export type Edition = keyof typeof EDITIONS;

export interface OfficialFinding {
  id: string;
  flag: string;
  location: string;
}

export interface XsdVerdict {
  valid: boolean;
  errors: { message: string; line: number }[];
}

type Saxon = { transform(o: Record<string, unknown>, mode: 'sync'): { principalResult: string } };

export class CdarOracle {
  private readonly saxon: Saxon;
  private readonly sefs = new Map<Edition, string>();
  private validator: XsdValidator | undefined;

  constructor(readonly rfe: string) {
    const require = createRequire(path.join(process.cwd(), 'package.json'));
    try {
      this.saxon = require('saxon-js') as Saxon;
    } catch {
      throw new Error('SaxonJS is missing: run `npm install --no-save xslt3@2.7.0` first.');
    }
    if (!existsSync(path.join(rfe, CDAR_DIR)))
      throw new Error(`${rfe} has no ${CDAR_DIR}: FRANCE_RFE must be a checkout of fnfempe/France_RFE 1.4.0.x`);
  }

  /** The stylesheet compiled to SaxonJS's SEF once (cached in the temp folder by the XSLT's hash). */
  private sef(edition: Edition): string {
    const known = this.sefs.get(edition);
    if (known) return known;
    const xslt = path.join(this.rfe, CDAR_DIR, '2xslt', EDITIONS[edition]);
    const hash = createHash('sha256').update(readFileSync(xslt)).digest('hex').slice(0, 16);
    const dir = path.join(os.tmpdir(), 'einvoice-cdar');
    mkdirSync(dir, { recursive: true });
    const sef = path.join(dir, `${edition}-${hash}.sef.json`);
    if (!existsSync(sef)) {
      const require = createRequire(path.join(process.cwd(), 'package.json'));
      execFileSync(process.execPath, [require.resolve('xslt3/xslt3.js'), `-xsl:${xslt}`, `-export:${sef}`, '-nogo'], { stdio: 'inherit' });
    }
    this.sefs.set(edition, sef);
    return sef;
  }

  /** The failed asserts of one message, or undefined when the stylesheet stops on a dynamic error (no verdict). */
  schematron(xml: string, edition: Edition = 'fatal'): OfficialFinding[] | undefined {
    let r: { principalResult: string };
    try {
      r = this.saxon.transform({ stylesheetFileName: this.sef(edition), sourceText: xml, destination: 'serialized' }, 'sync');
    } catch {
      return undefined;
    }
    const out: OfficialFinding[] = [];
    for (const m of r.principalResult.match(/<svrl:failed-assert[\s\S]*?>/g) ?? []) {
      const id = /\bid="([^"]*)"/.exec(m)?.[1] ?? 'NOID';
      const flag = /\bflag="([^"]*)"/.exec(m)?.[1] ?? 'fatal';
      const location = (/\blocation="([^"]*)"/.exec(m)?.[1] ?? '').replace(/\[namespace-uri\(\)='[^']*'\]/g, '').replace(/\*:/g, '');
      out.push({ id, flag, location });
    }
    return out;
  }

  /** libxml2's verdict under the official CDAR D22B XSD (served from memory; libxml2 never reads the file system). */
  xsd(xml: string): XsdVerdict {
    const option = ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE;
    if (!this.validator) {
      const dir = path.join(this.rfe, CDAR_DIR, '1xsd-CDAR_D22B_uncoupled');
      const files: Record<string, Uint8Array> = {};
      for (const name of readdirSync(dir))
        if (name.endsWith('.xsd')) files[`cdar-xsd/${name}`] = new Uint8Array(readFileSync(path.join(dir, name)));
      if (!xmlRegisterInputProvider(new XmlBufferInputProvider(files))) throw new Error('libxml2 refused the XSD input provider');
      const main = 'CrossDomainAcknowledgementAndResponse_100pD22B.xsd';
      const doc = XmlDocument.fromBuffer(files[`cdar-xsd/${main}`], { url: `cdar-xsd/${main}`, option });
      try {
        this.validator = XsdValidator.fromDoc(doc);
      } finally {
        doc.dispose();
      }
    }
    let doc: XmlDocument;
    try {
      doc = XmlDocument.fromString(xml, { option });
    } catch (err) {
      const details = (err as { details?: { message: string; line: number }[] }).details ?? [];
      return { valid: false, errors: details.map((d) => ({ message: d.message.trim(), line: d.line })) };
    }
    try {
      this.validator.validate(doc);
      return { valid: true, errors: [] };
    } catch (err) {
      if (err instanceof XmlValidateError)
        return { valid: false, errors: err.details.map((d) => ({ message: d.message.trim(), line: d.line })) };
      throw err;
    } finally {
      doc.dispose();
    }
  }

  /** The assert ids of the schematron, with their flags, in document order (from the .sch: the rule-id list). */
  assertIds(edition: Edition = 'fatal'): { id: string; flag: string; context: string; test: string }[] {
    const sch = path.join(this.rfe, CDAR_DIR, 'schematron', EDITIONS[edition].replace(/\.xslt$/, '.sch'));
    const text = readFileSync(sch, 'utf8');
    const out: { id: string; flag: string; context: string; test: string }[] = [];
    let context = '';
    for (const m of text.matchAll(/<rule\s+context="([^"]*)"|<assert\s+test="([^"]*)"\s+flag="([^"]*)"\s+id="([^"]*)"/g)) {
      if (m[1] !== undefined) context = m[1];
      else out.push({ id: m[4], flag: m[3], context, test: m[2] });
    }
    return out;
  }
}
