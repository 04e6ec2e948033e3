/**
 * ISO 19005-2/3 6.2.4.2-1: the profile of an ICCBased colour space is a readable ICC profile of an allowed class
 * (scnr, mntr, prtr, spac), colour space (GRAY, RGB, CMYK, Lab) and version (below 5), with as many components as
 * the colour space's /N. ImageMagick writes grey images with /N 1 (and /Alternate /DeviceGray) around an sRGB
 * profile; other producers leave truncated or empty profile streams.
 *
 * A reader that cannot use the profile paints with the alternate space, which is the device space of /N components
 * (ISO 32000-1 8.6.5.5; poppler and pdf.js do so). The profile is therefore replaced, in its stream, by one that
 * paints as that device space does: N 1 a grey profile with the sRGB tone curve (generated here, ~2 KB: grey g
 * shows as sRGB g/g/g, as DeviceGray does), N 3 the sRGB profile the writer's output intent carries, N 4 our CMYK
 * profile (icc-cmyk.ts, made to paint as viewers paint DeviceCMYK). The colour space keeps its place and its /N;
 * every image or page using it is untouched. A colour space whose /N is not 1, 3 or 4 is reported.
 */
import { getDefaultSRGBProfile, PDFName, PDFNumber, PDFRawStream, PDFRef, type PDFDocument } from '@cantoo/pdf-lib';
import type { Finding } from '../../pdfa/model.js';
import { colourSpaceArrays } from './colourants.js';
import { replaceStreamData } from './content-edit.js';
import { cmykProfile, D50, iccProfile, text, textDescription, xyz } from './icc-cmyk.js';
import type { Repair, RepairOutcome } from './types.js';
import { decodedBytes, streamOf } from './walk.js';

const key = (k: string) => PDFName.of(k);
const INPUT_CLASSES = new Set(['prtr', 'mntr', 'scnr', 'spac']);
const COMPONENTS: Record<string, number> = { GRAY: 1, 'RGB ': 3, CMYK: 4, 'Lab ': 3 };
/** ICC profiles are kilobytes to a few MB. */
const MAX_PROFILE_BYTES = 16 * 1024 * 1024;

/** Entries of the sRGB tone curve (1,024 entries reproduce the common sRGB profiles' curve exactly). */
const TRC_ENTRIES = 1024;

let grey: Uint8Array | undefined;

/** A monitor-class GRAY profile (ICC v2.1, PCS XYZ) whose tone curve is sRGB's: grey g paints as sRGB (g, g, g). */
export function greyProfile(): Uint8Array {
  if (grey) return grey;
  const curve = Buffer.alloc(12 + 2 * TRC_ENTRIES);
  curve.write('curv', 0, 'latin1');
  curve.writeUInt32BE(TRC_ENTRIES, 8);
  for (let i = 0; i < TRC_ENTRIES; i++) {
    const v = i / (TRC_ENTRIES - 1);
    const linear = v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    curve.writeUInt16BE(Math.round(linear * 65535), 12 + 2 * i);
  }
  grey = iccProfile({ cls: 'mntr', space: 'GRAY', pcs: 'XYZ ' }, [
    ['desc', textDescription('einvoice-service Gray (sRGB tone curve)')],
    ['cprt', text('No copyright, use freely')],
    ['wtpt', xyz(D50)],
    ['kTRC', curve],
  ]);
  return grey;
}

/** Why a profile stream cannot serve its colour space, or undefined when it can. */
export function profileFault(bytes: Uint8Array | undefined, n: number | undefined): string | undefined {
  if (!bytes || bytes.length < 128) return 'not a readable ICC profile';
  const at = (a: number) => String.fromCharCode(bytes[a], bytes[a + 1], bytes[a + 2], bytes[a + 3]);
  const cls = at(12);
  const space = at(16);
  if (!INPUT_CLASSES.has(cls) || !(space in COMPONENTS) || bytes[8] >= 5) return `a ${cls}/${space.trim()} profile of version ${bytes[8]}`;
  if (n !== undefined && COMPONENTS[space] !== n) return `a ${space.trim()} profile for ${n} components`;
  return undefined;
}

/** 6.2.4.2-1: every ICCBased colour space whose profile cannot serve it gets the profile of its device equivalent. */
export function iccProfiles_6_2_4_2(doc: PDFDocument): RepairOutcome {
  let changed = 0;
  const unrepaired: Finding[] = [];
  const done = new Set<PDFRawStream>();
  for (const cs of colourSpaceArrays(doc)) {
    if (cs.get(0) !== key('ICCBased')) continue;
    const ref = cs.get(1);
    const s = streamOf(doc, ref);
    if (!(s instanceof PDFRawStream) || done.has(s)) continue;
    done.add(s);
    const nValue = s.dict.lookup(key('N'));
    const n = nValue instanceof PDFNumber ? nValue.asNumber() : undefined;
    const fault = profileFault(decodedBytes(doc, s, MAX_PROFILE_BYTES), n);
    if (!fault) continue;
    const profile = n === 1 ? greyProfile() : n === 3 ? getDefaultSRGBProfile() : n === 4 ? cmykProfile() : undefined;
    const object = ref instanceof PDFRef ? `object ${ref.objectNumber}` : undefined;
    if (!profile) {
      unrepaired.push({
        clause: '6.2.4.2-1',
        message: `ICCBased colour space with /N ${n ?? 'missing'} and ${fault}`,
        ...(object ? { object } : {}),
      });
      continue;
    }
    replaceStreamData(s, profile);
    // The alternate of /N components is what the new profile paints like; a mismatching one would mislead.
    const alternate = s.dict.lookup(key('Alternate'));
    const device = ['DeviceGray', '', 'DeviceRGB', 'DeviceCMYK'][n! - 1];
    if (alternate !== undefined && alternate !== key(device)) s.dict.set(key('Alternate'), key(device));
    changed++;
  }
  return { changed, ...(unrepaired.length ? { unrepaired } : {}) };
}

export const ICC_REPAIRS: Repair[] = [{ name: 'icc-profiles', clauses: ['6.2.4.2-1'], apply: ({ doc }) => iccProfiles_6_2_4_2(doc) }];
