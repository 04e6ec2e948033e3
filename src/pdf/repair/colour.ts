/**
 * ISO 19005-2/3 6.2.3 (output intents) and 6.2.4.3 (device colour spaces).
 *
 * Output intents: every intent with a destination profile shares one indirect profile stream (6.2.3-2; an intent
 * whose profile differs from the PDF/A one is dropped: only the PDF/A intent matters to a PDF/A reader), no
 * /DestOutputProfileRef (6.2.3-3), and a PDF/A intent whose profile is unusable is dropped (6.2.3-1), so that the
 * writer puts its sRGB intent in its place.
 *
 * Device colour: DeviceRGB needs an RGB output intent, DeviceCMYK a CMYK one, or a Default colour space in the
 * resources. The writer's output intent is sRGB unless the input has its own, so DeviceCMYK content gets
 * DefaultCMYK (our generated profile, icc-cmyk.ts) and, next to a CMYK or grey input intent, DeviceRGB gets
 * DefaultRGB (the sRGB profile the writer's intent uses). Content streams are not touched: Default colour spaces
 * live in the resource dictionaries, one shared profile stream for the whole file.
 */
import { getDefaultSRGBProfile, type PDFDict, PDFName, PDFRawStream, PDFRef, type PDFDocument } from '@cantoo/pdf-lib';
import type { Finding } from '../../pdfa/model.js';
import { cmykProfile } from './icc-cmyk.js';
import type { Repair, RepairOutcome } from './types.js';
import { arrayOf, decodedBytes, dictOf, nameIn, objectByNumber, pageDicts, resourceDicts, streamOf } from './walk.js';

const key = (k: string) => PDFName.of(k);

/** An ICC profile stream's header facts, or undefined when it cannot be read (at most 4 MB decoded). */
function iccHeader(doc: PDFDocument, stream: PDFRawStream): { cls: string; space: string; major: number } | undefined {
  const bytes = profileBytes(doc, stream);
  if (!bytes || bytes.length < 128) return undefined;
  const s = (a: number) => String.fromCharCode(bytes[a], bytes[a + 1], bytes[a + 2], bytes[a + 3]);
  return { cls: s(12), space: s(16), major: bytes[8] };
}

/** ICC profiles are kilobytes to a few MB. */
const MAX_PROFILE_BYTES = 16 * 1024 * 1024;

const profileBytes = (doc: PDFDocument, stream: PDFRawStream) => decodedBytes(doc, stream, MAX_PROFILE_BYTES);

const usableOutputProfile = (h: { cls: string; space: string; major: number } | undefined) =>
  !!h && (h.cls === 'mntr' || h.cls === 'prtr') && ['RGB ', 'CMYK', 'GRAY'].includes(h.space) && h.major < 5;

/** 6.2.3-1 / -2 / -3. */
export function outputIntents_6_2_3(doc: PDFDocument): RepairOutcome {
  const intents = arrayOf(doc, doc.catalog.get(key('OutputIntents')));
  if (!intents) return { changed: 0 };
  let changed = 0;
  const unrepaired: Finding[] = [];
  // 6.2.3-3
  for (const v of intents.asArray()) {
    const oi = dictOf(doc, v);
    if (oi?.has(key('DestOutputProfileRef'))) {
      oi.delete(key('DestOutputProfileRef'));
      changed++;
    }
  }
  // 6.2.3-1: a PDF/A intent whose profile PDF/A cannot use goes (the writer adds the sRGB one when none is left).
  for (let i = intents.size() - 1; i >= 0; i--) {
    const oi = dictOf(doc, intents.get(i));
    if (!oi || nameIn(doc, oi, 'S') !== 'GTS_PDFA1' || !oi.has(key('DestOutputProfile'))) continue;
    const s = streamOf(doc, oi.get(key('DestOutputProfile')));
    if (!(s instanceof PDFRawStream) || !usableOutputProfile(iccHeader(doc, s))) {
      intents.remove(i);
      changed++;
      unrepaired.push({
        clause: '6.2.3-1',
        message:
          'the PDF/A output intent had an unusable ICC profile and was replaced by the sRGB intent: device colours are now read as sRGB',
        object: 'catalog /OutputIntents',
      });
    }
  }
  // 6.2.3-2: one shared indirect profile; intents with another profile (byte for byte) are dropped.
  let shared: PDFRef | undefined;
  let sharedBytes: Uint8Array | undefined;
  const order = [...intents.asArray().keys()].sort((a, b) => {
    const pa = nameIn(doc, dictOf(doc, intents.get(a)) ?? doc.context.obj({}), 'S') === 'GTS_PDFA1' ? 0 : 1;
    const pb = nameIn(doc, dictOf(doc, intents.get(b)) ?? doc.context.obj({}), 'S') === 'GTS_PDFA1' ? 0 : 1;
    return pa - pb || a - b;
  });
  const drop = new Set<number>();
  for (const i of order) {
    const oi = dictOf(doc, intents.get(i));
    const p = oi?.get(key('DestOutputProfile'));
    if (!oi || p === undefined) continue;
    if (!shared) {
      if (p instanceof PDFRef) shared = p;
      else {
        shared = doc.context.register(p);
        oi.set(key('DestOutputProfile'), shared);
        changed++;
      }
      const s = streamOf(doc, shared);
      sharedBytes = s instanceof PDFRawStream ? profileBytes(doc, s) : undefined;
      continue;
    }
    if (p instanceof PDFRef && p.objectNumber === shared.objectNumber) continue;
    const s = streamOf(doc, p);
    const bytes = s instanceof PDFRawStream ? profileBytes(doc, s) : undefined;
    if (bytes && sharedBytes && Buffer.compare(Buffer.from(bytes), Buffer.from(sharedBytes)) === 0)
      oi.set(key('DestOutputProfile'), shared);
    else drop.add(i);
    changed++;
  }
  for (const i of [...drop].sort((a, b) => b - a)) intents.remove(i);
  return { changed, ...(unrepaired.length ? { unrepaired } : {}) };
}

/** Colour space of the PDF/A output intent the written file will have: the input's, else the writer's sRGB. */
function outputIntentSpace(doc: PDFDocument): string {
  const intents = arrayOf(doc, doc.catalog.get(key('OutputIntents')));
  for (const v of intents?.asArray() ?? []) {
    const oi = dictOf(doc, v);
    if (!oi || nameIn(doc, oi, 'S') !== 'GTS_PDFA1') continue;
    const s = streamOf(doc, oi.get(key('DestOutputProfile')));
    const h = s instanceof PDFRawStream ? iccHeader(doc, s) : undefined;
    return h?.space ?? 'RGB ';
  }
  return 'RGB ';
}

/**
 * 6.2.4.3-2 / -3 / -4: DefaultRGB / DefaultCMYK in every resource dictionary of the pages (and of the forms,
 * patterns, glyphs and appearances drawn on them), when the output intent does not cover the family. DeviceGray is
 * covered by any PDF/A output intent, which the writer guarantees.
 */
export function deviceColour_6_2_4_3(doc: PDFDocument, findings: readonly Finding[]): RepairOutcome {
  const space = outputIntentSpace(doc);
  const needCmyk = findings.some((f) => f.clause === '6.2.4.3-3') && space !== 'CMYK';
  const needRgb = findings.some((f) => f.clause === '6.2.4.3-2') && space !== 'RGB ';
  if (!needCmyk && !needRgb) return { changed: 0 };
  const ctx = doc.context;
  const defaults: [string, PDFRef][] = [];
  if (needCmyk)
    defaults.push(['DefaultCMYK', ctx.register(ctx.obj([key('ICCBased'), ctx.register(ctx.flateStream(cmykProfile(), { N: 4 }))]))]);
  if (needRgb)
    defaults.push([
      'DefaultRGB',
      ctx.register(ctx.obj([key('ICCBased'), ctx.register(ctx.flateStream(getDefaultSRGBProfile(), { N: 3 }))])),
    ]);
  let changed = 0;
  const give = (res: PDFDict): void => {
    let cs = dictOf(doc, res.get(key('ColorSpace')));
    if (!cs) {
      cs = ctx.obj({});
      res.set(key('ColorSpace'), cs);
    }
    for (const [k, ref] of defaults)
      if (!cs.has(key(k))) {
        cs.set(key(k), ref);
        changed++;
      }
  };
  // Pages without resources get a dictionary of their own (an inherited one is shared with the page-tree node).
  for (const page of pageDicts(doc))
    if (!dictOf(doc, page.get(key('Resources'))) && !inheritsResources(doc, page)) page.set(key('Resources'), ctx.obj({}));
  for (const { res } of resourceDicts(doc)) give(res);
  // A form's transparency group colour space is judged against the form's own resources.
  for (const f of findings) {
    const m = /^transparency group of object (\d+)$/.exec(f.object ?? '');
    const s = m ? streamOf(doc, objectByNumber(doc, Number(m[1]))?.ref) : undefined;
    if (!s) continue;
    let res = dictOf(doc, s.dict.get(key('Resources')));
    if (!res) {
      res = ctx.obj({});
      s.dict.set(key('Resources'), res);
    }
    give(res);
  }
  return { changed };
}

function inheritsResources(doc: PDFDocument, page: PDFDict): boolean {
  let node = dictOf(doc, page.get(key('Parent')));
  for (let d = 0; node && d < 64; d++) {
    if (dictOf(doc, node.get(key('Resources')))) return true;
    node = dictOf(doc, node.get(key('Parent')));
  }
  return false;
}

export const COLOUR_REPAIRS: Repair[] = [
  { name: 'output-intents', clauses: ['6.2.3-1', '6.2.3-2', '6.2.3-3'], apply: ({ doc }) => outputIntents_6_2_3(doc) },
  {
    name: 'default-colour-spaces',
    clauses: ['6.2.4.3-2', '6.2.4.3-3', '6.2.4.3-4'],
    apply: ({ doc, findings }) => deviceColour_6_2_4_3(doc, findings),
  },
];
