/**
 * ISO 19005-2/3 6.9: optional-content configurations. Each (the default /D and those in /Configs) has a unique,
 * non-empty /Name, lists every optional-content group in /Order when it has an /Order, and no /AS (automatic state
 * changes for printing or viewing, which would make the printed page differ from the one shown). The groups' states
 * (/ON, /OFF, /BaseState) are kept, so the same layers show.
 */
import { type PDFArray, PDFHexString, PDFName, PDFRef, PDFString, type PDFDict, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import type { Repair, RepairOutcome } from './types.js';
import { arrayOf, dictOf, MAX_WALK_NODES } from './walk.js';

const key = (k: string) => PDFName.of(k);

export function optionalContent_6_9(doc: PDFDocument): RepairOutcome {
  const ocp = dictOf(doc, doc.catalog.get(key('OCProperties')));
  if (!ocp) return { changed: 0 };
  let changed = 0;
  const configs: PDFDict[] = [];
  const d = dictOf(doc, ocp.get(key('D')));
  if (d) configs.push(d);
  const list = arrayOf(doc, ocp.get(key('Configs')));
  if (list)
    for (const c of list.asArray()) {
      const x = dictOf(doc, c);
      if (x && !configs.includes(x)) configs.push(x);
    }
  const groups = (arrayOf(doc, ocp.get(key('OCGs')))?.asArray() ?? []).filter((g): g is PDFRef => g instanceof PDFRef);
  const names = new Set<string>();
  configs.forEach((c, i) => {
    // 6.9-1 / 6.9-2: a unique, non-empty name.
    const n = c.lookup(key('Name'));
    const text = n instanceof PDFString || n instanceof PDFHexString ? n.decodeText() : '';
    let unique = text.trim() ? text : i === 0 ? 'Default' : `Configuration ${i + 1}`;
    for (let k = 2; names.has(unique); k++) unique = `${text.trim() || 'Configuration'} (${k})`;
    names.add(unique);
    if (unique !== text) {
      c.set(key('Name'), PDFHexString.fromText(unique));
      changed++;
    }
    // 6.9-4: no /AS.
    if (c.has(key('AS'))) {
      c.delete(key('AS'));
      changed++;
    }
    // 6.9-3: /Order lists every group (the missing ones are appended at its end).
    const order = arrayOf(doc, c.get(key('Order')));
    if (order && groups.length > 0) {
      const listed = new Set<number>();
      const seen = new Set<PDFArray>();
      const walk = (a: PDFArray, depth: number): void => {
        if (seen.has(a) || depth > 16 || seen.size > MAX_WALK_NODES) return;
        seen.add(a);
        for (const x of a.asArray() as PDFObject[]) {
          const nested = arrayOf(doc, x);
          if (nested) walk(nested, depth + 1);
          else if (x instanceof PDFRef) listed.add(x.objectNumber);
        }
      };
      walk(order, 0);
      for (const g of groups)
        if (!listed.has(g.objectNumber)) {
          order.push(g);
          listed.add(g.objectNumber);
          changed++;
        }
    }
  });
  return { changed };
}

export const OPTIONAL_CONTENT_REPAIRS: Repair[] = [
  { name: 'optional-content', clauses: ['6.9-1', '6.9-2', '6.9-3', '6.9-4'], apply: ({ doc }) => optionalContent_6_9(doc) },
];
