/**
 * Seed inputs the repository owns: invoice XML written by the project's own writer from the metadata
 * scenarios (CII per profile, XRechnung CII), a hand-written UBL invoice, hybrid PDFs made with the
 * project's embed function, tiny hand-made PDFs, metadata JSON; plus, when present, a deterministic
 * sample of the shared corpus (never required).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { buildInvoiceXml } from '../../src/metadata/index.js';
import type { InvoiceMetadata } from '../../src/metadata/schema.js';
import { embedInvoiceXml, hybridFlavour } from '../../src/pdf/hybrid.js';
import { SCENARIOS } from '../../test/invoice-scenarios.js';
import { UBL_BASE } from '../../test/br-fr-fixtures.js';
import { basicObjects, buildPdf, pdfa3Base, streamObj } from './pdf-builder.js';
import type { Rng } from './rng.js';

export interface Seed {
  name: string;
  data: Buffer;
}

export interface Seeds {
  xml: Seed[];
  pdf: Seed[];
  /** PDFs that already carry invoice XML (hybrids). */
  hybrid: Seed[];
  metadata: { name: string; value: InvoiceMetadata }[];
  /** A plain PDF for /v1/convert and a PDF/A-3-declared one without XML for /v1/merge. */
  plainPdf: Buffer;
  pdfa3Pdf: Buffer;
  /** A valid invoice XML to pair with a mutated PDF on /v1/merge. */
  mergeXml: Buffer;
  corpusXml: number;
  corpusPdf: number;
}

const PROFILES = ['minimum', 'basic_wl', 'basic', 'en16931', 'extended'] as const;

async function plainPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  // Shapes, not text: pdf-lib's standard fonts are not embedded, and convert/merge refuse to write a PDF/A-3b that
  // fails PDF/A (an honest seed must pass).
  const page = doc.addPage([595, 842]);
  page.drawRectangle({ x: 50, y: 780, width: 120, height: 14, borderWidth: 1 });
  return Buffer.from(await doc.save());
}

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) walk(p, out);
    else if (/\.(xml|pdf)$/i.test(name) && st.size > 0 && st.size <= 4 * 1024 * 1024) out.push(p);
  }
}

/** EINVOICE_CORPUS, default ../shared/corpus relative to the repository root. */
export function corpusDir(): string {
  return resolve(process.env.EINVOICE_CORPUS ?? resolve(process.cwd(), '../shared/corpus'));
}

export async function buildSeeds(rng: Rng, corpusSample: number): Promise<Seeds> {
  const xml: Seed[] = [];
  const metadata: Seeds['metadata'] = [];
  for (const [name, meta] of Object.entries(SCENARIOS)) {
    metadata.push({ name, value: meta });
    if (name === 'xrechnung') {
      xml.push({ name: `cii-xrechnung-${name}`, data: Buffer.from(buildInvoiceXml(meta).xml, 'utf8') });
      continue;
    }
    // Every scenario in the default profile; a few in the other profiles (their writers differ).
    xml.push({ name: `cii-en16931-${name}`, data: Buffer.from(buildInvoiceXml(meta).xml, 'utf8') });
  }
  for (const profile of PROFILES) {
    if (profile === 'en16931') continue;
    xml.push({ name: `cii-${profile}-domestic`, data: Buffer.from(buildInvoiceXml({ ...SCENARIOS.domestic, profile }).xml, 'utf8') });
  }
  xml.push({ name: 'ubl-fr-base', data: Buffer.from(UBL_BASE, 'utf8') });

  const plain = await plainPdf();
  const pdfa3 = pdfa3Base();
  const hybrid: Seed[] = [];
  for (const [name, profile, format] of [
    ['en16931', 'en16931', 'factur-x'],
    ['minimum', 'minimum', 'factur-x'],
    ['xrechnung', 'xrechnung', 'xrechnung'],
  ] as const) {
    const meta = name === 'xrechnung' ? SCENARIOS.xrechnung : { ...SCENARIOS.domestic, profile };
    const x = buildInvoiceXml(meta as InvoiceMetadata).xml;
    const res = await embedInvoiceXml(plain, {
      xml: Buffer.from(x, 'utf8'),
      flavour: hybridFlavour(profile as never, format),
      now: new Date('2026-11-20T10:00:00Z'),
    });
    hybrid.push({ name: `hybrid-${name}`, data: Buffer.from(res.pdf) });
  }
  const pdf: Seed[] = [
    { name: 'plain-pdflib', data: plain },
    { name: 'pdfa3-base', data: pdfa3 },
    { name: 'tiny-table', data: buildPdf(basicObjects(), { trailer: '/Root 1 0 R' }) },
    { name: 'tiny-xrefstream', data: buildPdf(basicObjects(), { xref: 'stream', trailer: '/Root 1 0 R' }) },
    { name: 'tiny-noxref', data: buildPdf([...basicObjects(), streamObj(5, '', Buffer.from('x'))], { xref: 'none' }) },
    ...hybrid,
  ];

  let corpusXml = 0;
  let corpusPdf = 0;
  const dir = corpusDir();
  if (corpusSample > 0 && existsSync(dir)) {
    const files: string[] = [];
    walk(dir, files);
    const xmlFiles = files.filter((f) => /\.xml$/i.test(f));
    const pdfFiles = files.filter((f) => /\.pdf$/i.test(f));
    for (const f of rng.sample(xmlFiles, corpusSample)) {
      xml.push({ name: `corpus:${f.slice(dir.length + 1)}`, data: readFileSync(f) });
      corpusXml++;
    }
    for (const f of rng.sample(pdfFiles, corpusSample)) {
      pdf.push({ name: `corpus:${f.slice(dir.length + 1)}`, data: readFileSync(f) });
      corpusPdf++;
    }
  }
  return {
    xml,
    pdf,
    hybrid,
    metadata,
    plainPdf: plain,
    pdfa3Pdf: pdfa3,
    mergeXml: Buffer.from(buildInvoiceXml(SCENARIOS.domestic).xml, 'utf8'),
    corpusXml,
    corpusPdf,
  };
}
