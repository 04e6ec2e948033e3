/**
 * Metadata JSON mutators for /v1/xml and /v1/convert: deep nesting, huge numbers and strings, wrong types,
 * missing and unknown fields, broken JSON, impossible dates. Each returns the JSON text to send.
 */
import { boundaryValue } from './mutate-xml.js';
import type { Rng } from './rng.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonMutator = { name: string; apply: (meta: Json, rng: Rng) => string | null };

const MAX_BYTES = 9 * 1024 * 1024;

/** Every path (array of keys) to a value in the document. */
function paths(v: Json, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (v && typeof v === 'object') {
    for (const [k, c] of Array.isArray(v) ? v.entries() : Object.entries(v)) {
      const p = [...prefix, k];
      out.push(p);
      paths(c as Json, p, out);
    }
  }
  return out;
}

function clone(v: Json): Json {
  return JSON.parse(JSON.stringify(v));
}

function setAt(root: Json, path: (string | number)[], value: Json | undefined): void {
  let cur = root as Record<string | number, Json>;
  for (const k of path.slice(0, -1)) cur = cur[k] as Record<string | number, Json>;
  const last = path[path.length - 1];
  if (value === undefined) {
    if (Array.isArray(cur)) cur.splice(last as number, 1);
    else delete cur[last];
  } else cur[last] = value;
}

function getAt(root: Json, path: (string | number)[]): Json {
  let cur: Json = root;
  for (const k of path) cur = (cur as Record<string | number, Json>)[k];
  return cur;
}

function leafPaths(meta: Json): (string | number)[][] {
  return paths(meta).filter((p) => {
    const v = getAt(meta, p);
    return v === null || typeof v !== 'object';
  });
}

const NUMERIC_KEY = /quantity|price|amount|rate|percentage|total/;
const DATE_KEY = /date|start|end/;

export const JSON_MUTATORS: JsonMutator[] = [
  {
    name: 'json-deep-nesting',
    apply(meta, rng) {
      const n = rng.pick([1000, 100_000, 1_000_000]);
      const open = rng.chance(0.5) ? '[' : '{"a":';
      const close = open === '[' ? ']' : '}';
      const deep = open.repeat(n) + '1' + close.repeat(n);
      const text = JSON.stringify(meta);
      // Put it in place of a field value, or as the whole document.
      if (rng.chance(0.3)) return deep;
      return text.replace(/"notes":|"invoice_number":/, (k) => `"x_deep":${deep},${k}`);
    },
  },
  {
    name: 'json-huge-number',
    apply(meta, rng) {
      const m = clone(meta);
      const ps = leafPaths(m).filter((p) => NUMERIC_KEY.test(String(p[p.length - 1])));
      if (!ps.length) return null;
      const digits = rng.pick([30, 1000, 100_000]);
      for (const p of rng.sample(ps, rng.range(1, 3))) {
        const form = rng.int(5);
        const v =
          form === 0
            ? '9'.repeat(digits)
            : form === 1
              ? `${'9'.repeat(digits)}.${'9'.repeat(digits)}`
              : form === 2
                ? `1e${'9'.repeat(Math.min(digits, 20))}`
                : form === 3
                  ? `-${'9'.repeat(digits)}`
                  : `0.${'0'.repeat(digits)}1`;
        setAt(m, p, v);
      }
      // Also as bare JSON numbers: 1e400 is Infinity to JSON.parse.
      let text = JSON.stringify(m);
      if (rng.chance(0.3))
        text = text.replace(/"quantity":"[^"]*"/, `"quantity":${rng.pick(['1e400', '-1e400', '9'.repeat(400), '1.5e-400', '0.1'])}`);
      return text;
    },
  },
  {
    name: 'json-boundary-value',
    apply(meta, rng) {
      const m = clone(meta);
      const ps = leafPaths(m);
      const p = rng.pick(ps);
      setAt(m, p, boundaryValue(rng));
      return JSON.stringify(m);
    },
  },
  {
    name: 'json-impossible-date',
    apply(meta, rng) {
      const m = clone(meta);
      const ps = leafPaths(m).filter((p) => DATE_KEY.test(String(p[p.length - 1])));
      if (!ps.length) return null;
      setAt(
        m,
        rng.pick(ps),
        rng.pick([
          '20261399',
          '2026-13-99',
          '2026-02-30',
          '0000-00-00',
          '9999-12-31',
          '-2026-01-01',
          '2026-1-1',
          '2026-11-20T10:00:00Z',
          '',
        ]),
      );
      return JSON.stringify(m);
    },
  },
  {
    name: 'json-wrong-type',
    apply(meta, rng) {
      const m = clone(meta);
      const p = rng.pick(paths(m));
      setAt(m, p, rng.pick<Json>([null, true, 0, -1, 1.5, [], {}, [1, 2], { a: 1 }, '', 'x', 1e308]));
      return JSON.stringify(m);
    },
  },
  {
    name: 'json-delete-field',
    apply(meta, rng) {
      const m = clone(meta);
      const p = rng.pick(paths(m));
      setAt(m, p, undefined);
      return JSON.stringify(m);
    },
  },
  {
    name: 'json-unknown-fields',
    apply(meta, rng) {
      const m = clone(meta) as Record<string, Json>;
      const k = rng.pick(['__proto__', 'constructor', 'prototype', 'x'.repeat(100_000), 'toString', '']);
      const text = JSON.stringify(m);
      return text.replace(/^\{/, `{${JSON.stringify(k)}:${rng.pick(['{"polluted":true}', '1', '"x"', 'null'])},`);
    },
  },
  {
    name: 'json-huge-string',
    apply(meta, rng) {
      const m = clone(meta);
      const ps = leafPaths(m).filter((p) => typeof getAt(m, p) === 'string');
      if (!ps.length) return null;
      const p = rng.chance(0.4) && (m as Record<string, Json>).invoice_number !== undefined ? ['invoice_number'] : rng.pick(ps);
      setAt(m, p, rng.pick(['A', 'ä', '\u0000', '"', '\\', '\ud800']).repeat(rng.pick([1000, 200_000, 2_000_000])));
      return JSON.stringify(m);
    },
  },
  {
    name: 'json-many-lines',
    apply(meta, rng) {
      const m = clone(meta) as Record<string, Json>;
      const lines = m.line_items as Json[] | undefined;
      if (!Array.isArray(lines) || !lines.length) return null;
      const n = rng.pick([1000, 20_000, 100_000]);
      const line = JSON.stringify(lines[0]);
      const count = Math.min(n, Math.floor(MAX_BYTES / (line.length + 1)));
      const text = JSON.stringify({ ...m, line_items: [] });
      return text.replace('"line_items":[]', `"line_items":[${Array.from({ length: count }, () => line).join(',')}]`);
    },
  },
  {
    name: 'json-broken',
    apply(meta, rng) {
      const text = JSON.stringify(meta);
      const forms = [
        text.slice(0, rng.int(text.length)),
        text.replace(/,/, ',,'),
        `${text}${text}`,
        text.replace(/"/, "'"),
        `\ufeff${text}`,
        text.replace(/:/, ':NaN,"y":'),
        '',
        'null',
        '[]',
        '"string"',
        '1e999',
        text.replace(/\{/, '{"a":1,"a":2,'),
      ];
      return rng.pick(forms);
    },
  },
];
