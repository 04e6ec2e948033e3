/**
 * The OpenAPI document is the machine form of the API contract: this test reads the contract's markdown
 * (EINVOICE_SPEC, default ../shared/spec; see scripts/conformance.sh) and compares, field by field, every payload
 * shape it defines with the component of the same name (type, nullability, $ref, required, value list, default,
 * format, extra properties), and every endpoint's statuses, form fields and bodies with the operation. The document
 * may say more than the contract (extra documented fields, value lists the contract leaves open), never otherwise.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { communityApp } from '../helpers.js';
import { parseContract, parseType, type Field, type TypeDesc } from './contract-schema.js';

const SPEC = path.resolve(process.cwd(), process.env.EINVOICE_SPEC ?? '../shared/spec', 'api-spec.md');

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  additionalProperties?: boolean | Schema;
};
type Doc = {
  components: { schemas: Record<string, Schema> };
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content: Record<string, { schema: Schema }> };
        responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
      }
    >
  >;
};

const refName = (s: Schema) => (typeof s.$ref === 'string' ? s.$ref.replace('#/components/schemas/', '') : undefined);

/** A document schema in the contract's terms: primitive types, the $ref, items, format. */
function docType(s: Schema): TypeDesc {
  const ref = refName(s);
  if (ref) return { types: new Set(), ref };
  const choice = s.anyOf ?? s.oneOf;
  if (choice) {
    const out: TypeDesc = { types: new Set() };
    for (const member of choice.map(docType)) {
      for (const t of member.types) out.types.add(t);
      if (member.ref) out.ref = member.ref;
      if (member.items) out.items = member.items;
    }
    return out;
  }
  if (s.type === undefined) return { types: new Set(['any']) };
  const types = new Set((Array.isArray(s.type) ? s.type : [s.type]) as TypeDesc['types'] extends Set<infer T> ? T[] : never);
  return {
    types,
    ...(s.items ? { items: docType(s.items) } : {}),
    ...(typeof s.format === 'string' ? { format: s.format } : {}),
  };
}

const show = (t: TypeDesc): string => `${[...t.types].sort().join('|')}${t.ref ? ` $ref ${t.ref}` : ''}`;

function compareType(c: TypeDesc, s: Schema, where: string, problems: string[]): void {
  const d = docType(s);
  if (show(c) !== show(d)) problems.push(`${where}: contract ${show(c)}, document ${show(d)}`);
  if (c.format && c.format !== d.format) problems.push(`${where}: contract format ${c.format}, document ${d.format ?? 'none'}`);
  if (c.items) {
    if (!s.items) problems.push(`${where}: no items`);
    else compareType(c.items, s.items, `${where}[]`, problems);
  }
  if (c.valuesOf) {
    const values = s.additionalProperties;
    if (typeof values !== 'object') problems.push(`${where}: contract maps strings to ${show(c.valuesOf)}, document does not say`);
    else compareType(c.valuesOf, values, `${where}{}`, problems);
  }
  if (c.fields) compareFields(c.fields, s, where, problems);
}

function compareFields(fields: Record<string, Field>, object: Schema, where: string, problems: string[]): void {
  for (const [name, field] of Object.entries(fields)) {
    // "_meta.limitations": a field of a nested object.
    const steps = name.split('.');
    let owner: Schema | undefined = object;
    for (const step of steps.slice(0, -1)) owner = owner?.properties?.[step];
    const leaf = steps[steps.length - 1];
    const prop = owner?.properties?.[leaf];
    const at = `${where}.${name}`;
    if (!prop) {
      problems.push(`${at}: missing in the document`);
      continue;
    }
    compareType(field.type, prop, at, problems);
    if (field.required !== undefined && (owner?.required ?? []).includes(leaf) !== field.required) {
      problems.push(`${at}: contract says ${field.required ? 'required' : 'optional'}`);
    }
    if (field.enum) {
      const docEnum = (prop.enum ?? prop.items?.enum) as unknown[] | undefined;
      const listed = docEnum?.filter((v) => v !== null).map(String);
      if (!listed || [...listed].sort().join() !== [...field.enum].sort().join()) {
        problems.push(`${at}: contract values ${field.enum.join(', ')}, document ${listed?.join(', ') ?? 'no list'}`);
      } else if (field.type.types.has('null') && prop.enum && !prop.enum.includes(null)) {
        problems.push(`${at}: null is allowed by the contract but not in the document's list`);
      }
    }
    if (field.default !== undefined && JSON.stringify(prop.default) !== JSON.stringify(field.default)) {
      problems.push(`${at}: contract default ${JSON.stringify(field.default)}, document ${JSON.stringify(prop.default)}`);
    }
  }
}

/** Every disagreement between the contract's payload shapes and the document's components. */
export function schemaDisagreements(markdown: string, doc: Doc): string[] {
  const problems: string[] = [];
  for (const [name, shape] of parseContract(markdown)) {
    const component = doc.components.schemas[name];
    if (!component) {
      problems.push(`${name}: no component of that name`);
      continue;
    }
    compareFields(shape.fields, component, name, problems);
    if (shape.extraAllowed && component.additionalProperties !== true)
      problems.push(`${name}: extra properties are allowed by the contract`);
  }
  return problems;
}

interface EndpointContract {
  method: string;
  path: string;
  statuses: Map<string, string | undefined>;
  form: Map<string, { type: string; required: boolean; default?: string; enum?: string[] }>;
  bodies: string[];
}

/** Part 4 (endpoints) and part 7 (error bodies) of the contract. */
function parseEndpoints(markdown: string, names: Set<string>): EndpointContract[] {
  const part = markdown.slice(markdown.indexOf('\n## 4.'), markdown.indexOf('\n## 5.'));
  const out: EndpointContract[] = [];
  for (const section of part.split('\n### ').slice(1)) {
    const [title, ...lines] = section.split('\n');
    const [method, p] = title.split(' ');
    const e: EndpointContract = { method: method.toLowerCase(), path: p, statuses: new Map(), form: new Map(), bodies: [] };
    for (const raw of lines) {
      const line = raw.trim();
      const statuses = /Statuses: (.+)\.$/.exec(line);
      if (statuses) {
        for (const s of statuses[1].split(/,\s*/)) {
          const m = /^(\d{3})(?: \((\w+)\))?$/.exec(s.trim());
          if (!m) throw new Error(`contract status not understood: ${s}`);
          e.statuses.set(m[1], m[2]);
        }
      }
      const bullet = /^- (\d{3}): /.exec(line);
      if (bullet) e.statuses.set(bullet[1], undefined);
      const field = /^- Form field `(\w+)`: ([^,]+), .*\brequired\.$/.exec(line);
      if (field) e.form.set(field[1], { type: /binary|PDF or XML/.test(field[2]) ? 'binary' : 'string', required: true });
      if (/^\| (?!Field|---)/.test(line)) {
        const cells = line
          .replace(/^\||\|$/g, '')
          .split('|')
          .map((c) => c.trim());
        const [name, type, required, ...rest] = cells;
        const notes = rest[rest.length - 1] ?? '';
        const values = [...notes.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
        e.form.set(name, {
          type: type.startsWith('binary') ? 'binary' : type.startsWith('string containing') ? 'string' : type,
          required: required === 'yes',
          ...(rest.length === 2 && rest[0] ? { default: rest[0] } : {}),
          ...(values.length > 1 ? { enum: values } : {}),
        });
      }
      if (/The 200 body is/.test(line)) e.bodies = [...line.matchAll(/\b([A-Z]\w+)\b/g)].map((m) => m[1]).filter((n) => names.has(n));
    }
    out.push(e);
  }
  // The endpoint table's success column ("200, DiagnosticsResponse").
  for (const m of part.matchAll(/^\| (GET|POST) \| (\S+) \| [^|]+ \| 200, (\w+) \|$/gm)) {
    const e = out.find((x) => x.method === m[1].toLowerCase() && x.path === m[2]);
    if (e && names.has(m[3]) && e.bodies.length === 0) e.bodies = [m[3]];
  }
  // Part 7: 422 is HTTPValidationError on (convert, xml, validate, extract, serialize), ProblemDetails on merge.
  const errors = markdown.slice(markdown.indexOf('\n## 7.'), markdown.indexOf('\n## 8.'));
  for (const row of errors.split('\n').filter((l) => /^\| \d{3} \|/.test(l))) {
    const [status, when, body] = row
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((c) => c.trim());
    if (!names.has(body)) continue;
    const named = /\(([^)]+)\)/.exec(when)?.[1].split(/,\s*/);
    const mergeOnly = /^merge:/.test(when);
    for (const e of out) {
      if (!e.statuses.has(status)) continue;
      const short = e.path.replace('/v1/', '');
      if ((named && named.includes(short)) || (mergeOnly && short === 'merge') || (!named && !mergeOnly)) {
        e.statuses.set(status, e.statuses.get(status) ?? body);
      }
    }
  }
  return out;
}

export function endpointDisagreements(markdown: string, doc: Doc): string[] {
  const problems: string[] = [];
  const names = new Set(parseContract(markdown).keys());
  const endpoints = parseEndpoints(markdown, names);
  if (endpoints.length !== 10) problems.push(`contract: ${endpoints.length} endpoints read, 10 expected`);
  for (const e of endpoints) {
    const op = doc.paths[e.path]?.[e.method];
    const where = `${e.method.toUpperCase()} ${e.path}`;
    if (!op) {
      problems.push(`${where}: no operation`);
      continue;
    }
    for (const [status, body] of e.statuses) {
      const response = op.responses[status];
      if (!response) problems.push(`${where}: status ${status} not listed`);
      else if (body && !Object.values(response.content ?? {}).some((c) => refName(c.schema) === body)) {
        problems.push(`${where}: ${status} is not ${body}`);
      }
    }
    if (e.bodies.length > 0) {
      const schema = op.responses['200']?.content?.['application/json']?.schema;
      const named = schema ? (refName(schema) ? [refName(schema)] : (schema.oneOf ?? schema.anyOf ?? []).map(refName)) : [];
      if (named.join() !== e.bodies.join()) problems.push(`${where}: 200 body ${named.join(' | ')}, contract ${e.bodies.join(' | ')}`);
    }
    const form = Object.values(op.requestBody?.content ?? {})[0]?.schema;
    for (const [name, f] of e.form) {
      const prop = form?.properties?.[name];
      if (!prop) {
        problems.push(`${where}: form field ${name} missing`);
        continue;
      }
      if (f.type === 'binary') {
        if (prop.type !== 'string' || prop.format !== 'binary') problems.push(`${where}: form field ${name} is not a binary file`);
      } else compareType(parseType(f.type), prop, `${where} form ${name}`, problems);
      const required = (form?.required ?? []).includes(name);
      if (required !== f.required && !(f.required && !required && OPTIONAL_BY_DESIGN[where]?.[name]))
        problems.push(`${where}: form field ${name} required should be ${f.required}`);
      if (f.default !== undefined && String(prop.default) !== f.default) problems.push(`${where}: form field ${name} default ${f.default}`);
      if (f.enum) {
        const listed = (prop.enum ?? []).filter((v) => v !== null).map(String);
        if (listed.sort().join() !== [...f.enum].sort().join()) problems.push(`${where}: form field ${name} values ${f.enum.join(', ')}`);
      }
    }
  }
  return problems;
}

const markdown = readFileSync(SPEC, 'utf8');

async function servedDocument(): Promise<Doc> {
  const app = await communityApp();
  try {
    return (await app.inject({ url: '/openapi.json' })).json() as Doc;
  } finally {
    await app.close();
  }
}

/**
 * Contract-required form fields the service accepts without, each for a documented reason: every request the
 * contract allows is still served as the contract says; only a request it would refuse gets more.
 */
const OPTIONAL_BY_DESIGN: Record<string, Record<string, string>> = {
  'POST /v1/convert': {
    pdf: 'issue #32: without a pdf part the service draws the invoice as PDF/A-3b and embeds the XML (docs/api.md)',
  },
};

test('the contract is read whole: every payload shape and endpoint it defines', () => {
  const shapes = parseContract(markdown);
  for (const name of [
    'AddressSchema',
    'PartySchema',
    'LineItemSchema',
    'TaxBreakdownSchema',
    'BusinessReadyInvoice',
    'SerializationResponse',
    'FallbackApplied',
    'ExtractionResult',
    'ErrorDetail',
    'InvoiceJson',
    'Seller',
    'Buyer',
    'Totals',
    'TaxBreakdownItem',
    'LineItem',
    'ValidationErrorDetail',
    'ValidationResult',
    'ProValidationResult',
    'DiagnosticDetail',
    'SkippedLayer',
    'ProblemDetails',
    'HTTPValidationError',
    'ValidationError',
    'DiagnosticsResponse',
  ]) {
    assert.ok(Object.keys(shapes.get(name)?.fields ?? {}).length > 0, `${name} read from the contract`);
  }
  assert.deepEqual(shapes.get('ValidationErrorDetail')?.fields.severity.enum, ['error', 'warning']);
  assert.deepEqual(shapes.get('DiagnosticDetail')?.fields.severity.enum, ['error', 'warning', 'info']);
  assert.deepEqual(shapes.get('ValidationResult')?.fields.format.enum, ['factur-x', 'zugferd', 'ubl']);
  assert.equal(shapes.get('InvoiceJson')?.extraAllowed, true);
  assert.equal(shapes.get('DiagnosticsResponse')?.fields.runtime_config.required, true);
});

test('every payload shape of the contract agrees field by field with the OpenAPI component of its name', async () => {
  const doc = await servedDocument();
  assert.deepEqual(schemaDisagreements(markdown, doc), []);

  // The comparison bites: a severity outside the contract, a field made optional, a lost default, a lost $ref.
  const broken = structuredClone(doc);
  const s = broken.components.schemas;
  s.ValidationErrorDetail.properties!.severity.enum = ['error', 'warning', 'information'];
  s.DiagnosticDetail.required = ['rule_id', 'severity', 'title', 'explanation'];
  delete s.BusinessReadyInvoice.properties!.currency.default;
  s.ExtractionResult.properties!.invoice_json = { type: ['object', 'null'] };
  s.ValidationResult.properties!.format.enum = ['factur-x', 'zugferd', 'ubl', 'xrechnung', null];
  assert.deepEqual(schemaDisagreements(markdown, broken).sort(), [
    'BusinessReadyInvoice.currency: contract default "EUR", document undefined',
    'DiagnosticDetail.suggestion: contract says required',
    'ExtractionResult.invoice_json: contract null $ref InvoiceJson, document null|object',
    'ValidationErrorDetail.severity: contract values error, warning, document error, warning, information',
    'ValidationResult.format: contract values factur-x, zugferd, ubl, document factur-x, zugferd, ubl, xrechnung',
  ]);
});

test('every endpoint of the contract has its statuses, form fields and bodies in the OpenAPI operation', async () => {
  const doc = await servedDocument();
  assert.deepEqual(endpointDisagreements(markdown, doc), []);

  const broken = structuredClone(doc);
  delete broken.paths['/v1/merge'].post.responses['409'];
  const validateForm = Object.values(broken.paths['/v1/validate'].post.requestBody!.content)[0].schema;
  validateForm.properties!.validate_pdfa.default = false;
  broken.paths['/v1/convert'].post.responses['422'].content = {
    'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetails' } },
  };
  assert.deepEqual(endpointDisagreements(markdown, broken).sort(), [
    'POST /v1/convert: 422 is not HTTPValidationError',
    'POST /v1/merge: status 409 not listed',
    'POST /v1/validate: form field validate_pdfa default true',
  ]);
});
