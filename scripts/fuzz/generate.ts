/**
 * Turns (seed, input number) into one request: which kind of input (XML, PDF, metadata JSON), which
 * endpoint reads it, which seed and which mutators. The rest of a request (the other part of /v1/merge and
 * /v1/convert) is an honest seed.
 */
import type { Endpoint, FuzzCase } from './harness.js';
import { JSON_MUTATORS } from './mutate-json.js';
import { PDF_MUTATORS } from './mutate-pdf.js';
import { XML_MUTATORS } from './mutate-xml.js';
import type { Rng } from './rng.js';
import type { Seeds } from './seeds.js';

export type Kind = 'xml' | 'pdf' | 'json';

/** Which endpoints read which kind of mutated input, and how the rest of the request is filled in. */
export const ROUTES: Record<Kind, Endpoint[]> = {
  xml: ['/v1/validate', '/v1/extract', '/v1/serialize', '/v1/merge'],
  pdf: ['/v1/validate', '/v1/extract', '/v1/serialize', '/v1/merge', '/v1/convert'],
  json: ['/v1/xml', '/v1/convert'],
};

export function makeCase(endpoint: Endpoint, kind: Kind, data: Buffer, seeds: Seeds, rng: Rng): FuzzCase {
  const domestic = Buffer.from(JSON.stringify(seeds.metadata[0].value));
  if (endpoint === '/v1/xml') return { endpoint, encoding: 'urlencoded', mutated: 'metadata', parts: [{ name: 'metadata', data }] };
  if (endpoint === '/v1/convert') {
    return kind === 'json'
      ? {
          endpoint,
          encoding: 'multipart',
          mutated: 'metadata',
          parts: [
            { name: 'pdf', data: seeds.plainPdf, filename: 'invoice.pdf', contentType: 'application/pdf' },
            { name: 'metadata', data },
          ],
        }
      : {
          endpoint,
          encoding: 'multipart',
          mutated: 'pdf',
          parts: [
            { name: 'pdf', data, filename: 'invoice.pdf', contentType: 'application/pdf' },
            { name: 'metadata', data: domestic },
          ],
        };
  }
  if (endpoint === '/v1/merge') {
    const pdf = kind === 'pdf' ? data : seeds.pdfa3Pdf;
    const xml = kind === 'xml' ? data : seeds.mergeXml;
    const parts = [
      { name: 'pdf', data: pdf, filename: 'in.pdf', contentType: 'application/pdf' },
      { name: 'xml', data: xml, filename: 'invoice.xml', contentType: 'application/xml' },
    ];
    if (rng.chance(0.2)) parts.push({ name: 'format', data: Buffer.from(rng.pick(['factur-x', 'zugferd', 'xrechnung'])) } as never);
    return { endpoint, encoding: 'multipart', mutated: kind === 'pdf' ? 'pdf' : 'xml', parts };
  }
  const filename = kind === 'pdf' ? 'invoice.pdf' : 'invoice.xml';
  return {
    endpoint,
    encoding: 'multipart',
    mutated: 'file',
    parts: [{ name: 'file', data, filename, contentType: kind === 'pdf' ? 'application/pdf' : 'application/xml' }],
  };
}

export interface Generated {
  kind: Kind;
  mutator: string;
  seedName: string;
  case: FuzzCase;
}

/** Input number i of a run: depends only on (seed, i), never on earlier inputs or answers. */
export function generate(i: number, base: Rng, seeds: Seeds, endpoints: Endpoint[]): Generated | null {
  const rng = base.fork(i + 1);
  const r = rng.next();
  const kind: Kind = r < 0.4 ? 'xml' : r < 0.82 ? 'pdf' : 'json';
  const eps = ROUTES[kind].filter((e) => endpoints.includes(e));
  if (!eps.length) return null;
  const endpoint = rng.pick(eps);
  for (let attempt = 0; attempt < 8; attempt++) {
    let data: Buffer | null = null;
    let names: string[] = [];
    let seedName = '';
    if (kind === 'xml') {
      const seed = rng.pick(seeds.xml);
      seedName = seed.name;
      data = seed.data;
      const n = rng.chance(0.75) ? 1 : rng.range(2, 3);
      for (let k = 0; k < n && data; k++) {
        const m = rng.pick(XML_MUTATORS);
        const out = m.apply(data, rng);
        if (out) {
          data = out;
          names.push(m.name);
        }
      }
    } else if (kind === 'pdf') {
      const xml = rng.pick(seeds.xml.filter((s) => !s.name.startsWith('corpus:')));
      if (rng.chance(0.5)) {
        const synth = PDF_MUTATORS.filter((m) => m.synthetic);
        const m = rng.pick(synth);
        seedName = `synthetic(${xml.name})`;
        data = m.apply(Buffer.alloc(0), rng, xml.data);
        names = [m.name];
        // Sometimes damage the synthetic file further.
        if (data && rng.chance(0.2)) {
          const d = rng.pick(PDF_MUTATORS.filter((x) => !x.synthetic));
          const out = d.apply(data, rng, xml.data);
          if (out) {
            data = out;
            names.push(d.name);
          }
        }
      } else {
        const seed = rng.pick(seeds.pdf);
        seedName = seed.name;
        data = seed.data;
        const n = rng.chance(0.75) ? 1 : rng.range(2, 3);
        for (let k = 0; k < n && data; k++) {
          const m = rng.pick(PDF_MUTATORS.filter((x) => !x.synthetic));
          const out = m.apply(data, rng, xml.data);
          if (out) {
            data = out;
            names.push(m.name);
          }
        }
      }
    } else {
      const seed = rng.pick(seeds.metadata);
      seedName = `metadata:${seed.name}`;
      const m = rng.pick(JSON_MUTATORS);
      const text = m.apply(JSON.parse(JSON.stringify(seed.value)), rng);
      data = text === null ? null : Buffer.from(text, 'utf8');
      names = [m.name];
    }
    if (data && names.length) return { kind, mutator: names.join('+'), seedName, case: makeCase(endpoint, kind, data, seeds, rng) };
  }
  return null;
}
