/**
 * The API contract's payload shapes (api-spec.md part 2), read from its markdown: the field tables under
 * `### Name` headings (and `Name:` lines), and the sentences that define the smaller shapes ("ErrorDetail has two
 * required strings: ...", "Seller and Buyer have the same optional string-or-null fields: ..."). Whatever part of
 * a type or a note this reader does not understand is an error, so a contract edit cannot be skipped silently.
 */

export type Primitive = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null' | 'any';

export interface TypeDesc {
  types: Set<Primitive>;
  /** A named shape of the contract. */
  ref?: string;
  items?: TypeDesc;
  format?: string;
  /** Inline object fields (`{mode: string (required); ...}`). */
  fields?: Record<string, Field>;
  /** `objects mapping string to string`. */
  valuesOf?: TypeDesc;
}

export interface Field {
  type: TypeDesc;
  /** undefined: the contract does not say. */
  required?: boolean;
  enum?: string[];
  default?: unknown;
}

export interface ContractSchema {
  name: string;
  fields: Record<string, Field>;
  /** The contract allows extra properties. */
  extraAllowed?: boolean;
  /** "All fields are required/optional." */
  allFields?: 'required' | 'optional';
}

const PRIMITIVES = new Set(['string', 'integer', 'number', 'boolean', 'object', 'null', 'any']);

function parseDefault(text: string): unknown {
  const t = text.replace(/`/g, '').trim();
  if (t === 'empty') return [];
  if (t === 'false' || t === 'true') return t === 'true';
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  return t;
}

/** "string or null", "array of LineItemSchema", "{mode: string (required); workers: integer, default 1}", ... */
export function parseType(raw: string): TypeDesc {
  const t = raw.trim();
  if (t.startsWith('{') && t.endsWith('}')) return { types: new Set(['object']), fields: parseInlineObject(t.slice(1, -1)) };
  const arr = /^array of (.+)$/.exec(t);
  if (arr) {
    if (arr[1] === 'objects mapping string to string') {
      return { types: new Set(['array']), items: { types: new Set(['object']), valuesOf: { types: new Set(['string']) } } };
    }
    return { types: new Set(['array']), items: parseType(arr[1]) };
  }
  if (t === 'string (URI reference)') return { types: new Set(['string']), format: 'uri-reference' };
  if (t === 'string, format date') return { types: new Set(['string']), format: 'date' };
  if (t === 'date string or null') return { types: new Set(['string', 'null']), format: 'date' };
  const d: TypeDesc = { types: new Set() };
  for (const part of t.replace(/ \(SemVer\)$/, '').split(/,\s*|\s+or\s+/)) {
    const p = part.trim();
    if (PRIMITIVES.has(p)) d.types.add(p as Primitive);
    else if (/^[A-Z][A-Za-z]+$/.test(p) && !d.ref) d.ref = p;
    else throw new Error(`contract type not understood: "${raw}"`);
  }
  return d;
}

function parseInlineObject(inner: string): Record<string, Field> {
  const fields: Record<string, Field> = {};
  const all = /^(.+):\s*all (strings|numbers)$/.exec(inner.trim());
  if (all) {
    for (const name of all[1].split(/,\s*/))
      fields[name.trim()] = { type: { types: new Set([all[2] === 'strings' ? 'string' : 'number']) } };
    return fields;
  }
  for (const part of inner.split(inner.includes(';') ? ';' : /,\s*(?=\w+:)/)) {
    const m = /^\s*(\w+):\s*(.+?)\s*$/.exec(part);
    if (!m) throw new Error(`contract inline field not understood: "${part}"`);
    let type = m[2];
    const field: Field = { type: { types: new Set() } };
    if (/\(required\)$/.test(type)) {
      field.required = true;
      type = type.replace(/\s*\(required\)$/, '');
    }
    const def = /,\s*default (\S+)$/.exec(type);
    if (def) {
      field.default = parseDefault(def[1]);
      type = type.slice(0, def.index);
    }
    field.type = parseType(type);
    fields[m[1]] = field;
  }
  return fields;
}

const VALUE = '[a-z0-9][\\w.-]*';
const VALUE_LIST = new RegExp(`^(${VALUE}(?:,\\s*${VALUE})*(?:,?\\s+(?:or|and)\\s+${VALUE})?)$`);
const splitList = (text: string) =>
  text
    .replace(/\.$/, '')
    .split(/,\s*(?:and\s+|or\s+)?|\s+(?:or|and)\s+/)
    .map((v) => v.replace(/`/g, '').trim())
    .filter(Boolean);

/** Enumerations and defaults from a table's Notes cell; other notes are prose. */
export function parseNotes(notes: string): { enum?: string[]; default?: unknown } {
  const out: { enum?: string[]; default?: unknown } = {};
  const clauses = notes.split(/;\s*/);
  for (const clause of clauses) {
    const c = clause.trim();
    let m: RegExpExecArray | null;
    if ((m = /^one of (.+)$/.exec(c))) out.enum = splitList(m[1]);
    else if ((m = /^detected: (.+)$/.exec(c))) out.enum = splitList(m[1]);
    else if ((m = /^always `([^`]+)`$/.exec(c))) out.enum = [m[1]];
    else if (/^`[^`]+`(?:,?\s+(?:or|and)\s+`[^`]+`|,\s*`[^`]+`)+$/.test(c)) out.enum = splitList(c);
    else if (VALUE_LIST.test(c) && /\s(or|and)\s/.test(c)) out.enum = splitList(c);
    else if ((m = /^default (.+)$/.exec(c))) out.default = m[1] === 'the same' ? out.enum?.[0] : parseDefault(m[1]);
    else if (/`\w+` if /.test(c)) out.enum = [...c.matchAll(/`(\w+)` if /g)].map((x) => x[1]);
  }
  return out;
}

function tableRows(lines: string[], start: number): { header: string[]; rows: string[][]; end: number } | null {
  let i = start;
  while (i < lines.length && lines[i].trim() === '') i++;
  if (!lines[i]?.trim().startsWith('|')) return null;
  const cells = (l: string) =>
    l
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((c) => c.trim());
  const header = cells(lines[i]).map((h) => h.toLowerCase());
  const rows: string[][] = [];
  for (i += 2; i < lines.length && lines[i].trim().startsWith('|'); i++) rows.push(cells(lines[i]));
  return { header, rows, end: i };
}

function fromTable(name: string, header: string[], rows: string[][]): ContractSchema {
  const col = (n: string) => header.indexOf(n);
  if (col('field') < 0 || col('type') < 0) throw new Error(`contract table of ${name} has no Field/Type columns`);
  const fields: Record<string, Field> = {};
  for (const r of rows) {
    let type = r[col('type')];
    const field: Field = { type: { types: new Set() } };
    const def = type.startsWith('{') ? null : /,\s*default (\S+)$/.exec(type);
    if (def) {
      field.default = parseDefault(def[1]);
      type = type.slice(0, def.index);
    }
    field.type = parseType(type);
    if (col('required') >= 0) field.required = r[col('required')] === 'yes';
    if (col('notes') >= 0 && r[col('notes')]) Object.assign(field, parseNotes(r[col('notes')]));
    fields[r[col('field')]] = field;
  }
  return { name, fields };
}

/** Every payload shape of the contract's part 2, by name. */
export function parseContract(markdown: string): Map<string, ContractSchema> {
  const start = markdown.indexOf('\n## 2.');
  const end = markdown.indexOf('\n## 3.');
  if (start < 0 || end < 0) throw new Error('contract: part 2 (resources and their fields) not found');
  const lines = markdown.slice(start, end).split('\n');
  const schemas = new Map<string, ContractSchema>();
  const add = (s: ContractSchema) => {
    const known = schemas.get(s.name);
    schemas.set(
      s.name,
      known
        ? {
            ...known,
            fields: { ...known.fields, ...s.fields },
            extraAllowed: known.extraAllowed || s.extraAllowed,
            allFields: known.allFields ?? s.allFields,
          }
        : s,
    );
  };
  let current: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    const heading = /^### ([A-Z]\w+)/.exec(line);
    const label = /^([A-Z]\w+):$/.exec(line);
    if (heading || label) {
      current = (heading ?? label)![1];
      const table = tableRows(lines, i + 1);
      if (table) {
        add(fromTable(current, table.header, table.rows));
        i = table.end - 1;
      }
      continue;
    }
    if (line.startsWith('|') && current) {
      // A table after the heading's sentences (InvoiceJson, DiagnosticsResponse).
      const table = tableRows(lines, i);
      if (table) {
        add(fromTable(current, table.header, table.rows));
        i = table.end - 1;
      }
      continue;
    }
    if (!line) continue;
    readSentences(line, current, add);
  }
  for (const s of schemas.values()) {
    if (s.allFields) for (const f of Object.values(s.fields)) f.required = s.allFields === 'required';
  }
  return schemas;
}

function readSentences(para: string, current: string | undefined, add: (s: ContractSchema) => void): void {
  let m: RegExpExecArray | null;
  const strings = (required: boolean, nullable: boolean): Field => ({
    type: { types: new Set(nullable ? ['string', 'null'] : ['string']) },
    required,
  });
  // "ErrorDetail has two required strings: `code` and `message`." / "Seller and Buyer have the same optional string-or-null fields: ..."
  if (
    (m =
      /^(\w+)(?: and (\w+))? ha(?:s|ve) (?:the same )?(?:\w+ )?(required|optional) (strings|string-or-null fields)(?::\s*([^.]+))?\./.exec(
        para,
      ))
  ) {
    const required = m[3] === 'required';
    const nullable = m[4] !== 'strings';
    const names = m[5] ? splitList(m[5]) : [...para.matchAll(/`(\w+)` (?:is|says)\b/g)].map((x) => x[1]);
    if (names.length === 0) throw new Error(`contract: no field names in "${para}"`);
    for (const schema of [m[1], m[2]].filter(Boolean) as string[]) {
      const fields: Record<string, Field> = {};
      for (const n of names) fields[n] = strings(required, nullable);
      const listed = /the names listed are ([^.]+)\./.exec(para);
      if (listed) {
        const field = /`(\w+)` is a \w+ name, and the names listed/.exec(para)?.[1];
        if (!field || !fields[field]) throw new Error(`contract: which field the names of "${para}" belong to`);
        fields[field].enum = splitList(listed[1]);
      }
      add({ name: schema, fields });
    }
    return;
  }
  // "All four fields are required strings: category, rate, basis_amount, tax_amount." (under a heading)
  if ((m = /^All \w+ fields are (required|optional) strings: ([^.]+)\./.exec(para)) && current) {
    add({ name: current, fields: Object.fromEntries(splitList(m[2]).map((n) => [n, strings(m![1] === 'required', false)])) });
    return;
  }
  if (/^All fields are (required|optional)\./.test(para) && current) {
    // Said before or after the table: applied once every table is read (parseContract).
    add({ name: current, fields: {}, allFields: /required/.test(para.split('.')[0]) ? 'required' : 'optional' });
    if (/Extra properties are allowed/.test(para)) add({ name: current, fields: {}, extraAllowed: true });
    return;
  }
  // HTTPValidationError: "`detail` is an array of ValidationError. Each item has required `loc` (...), ... It has optional `input` (any) ..."
  if ((m = /^`(\w+)` is an array of ([A-Z]\w+)\. Each item (.+)$/.exec(para)) && current) {
    add({ name: current, fields: { [m[1]]: { type: { types: new Set(['array']), items: { types: new Set(), ref: m[2] } } } } });
    const item: Record<string, Field> = {};
    let required = false;
    for (const part of m[3].matchAll(/\b(required|optional)\b|`(\w+)` \(([^)]+)\)/g)) {
      if (part[1]) required = part[1] === 'required';
      else item[part[2]] = { type: parseType(part[3]), required };
    }
    add({ name: m[2], fields: item });
    return;
  }
  // "`_meta.limitations` is an array of strings. ... Two values appear: `heuristic_mapping` and `fallback_values_used`."
  if ((m = /^`(\w+)\.(\w+)` is an array of strings\..*values appear: (.+)$/.exec(para)) && current) {
    add({
      name: current,
      fields: {
        [`${m[1]}.${m[2]}`]: { type: { types: new Set(['array']), items: { types: new Set(['string']) } }, enum: splitList(m[3]) },
      },
    });
  }
}
