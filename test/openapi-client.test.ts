/**
 * A client generated from the served /openapi.json is a good client: openapi-typescript (the usual generator)
 * turns the document into TypeScript types, and the project's tsc type-checks, in a temporary folder, a typed call
 * of every operation plus real answers of the running app (every operation, success and error) written as typed
 * literals. A wrong type, a value outside a contract list, an answer field the document does not declare or a
 * missing operationId / named response component fails the test. `@ts-expect-error` lines prove the check bites.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { register } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { STATUS_EXAMPLES } from '../src/cdar/examples.js';
import { communityApp, multipart, proApp, type Part } from './helpers.js';
import { facturxPdf, FX_EN16931_XML, readFixture } from './fixtures.js';
import { makeBasePdf } from './hybrid-fixtures.js';
import { METADATA_EXAMPLES } from '../src/metadata/examples.js';

// openapi-typescript builds its output with the TypeScript 5 compiler API, which TypeScript 7 (the project's
// compiler) no longer ships: its `typescript` import is pointed at the typescript-5 devDependency.
register(
  `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier === 'typescript' && context.parentURL?.includes('/node_modules/openapi-typescript/')) return next('typescript-5', context);
  return next(specifier, context);
}`)}`,
  import.meta.url,
);

const run = promisify(execFile);
const TSC = join(process.cwd(), 'node_modules', '.bin', 'tsc');
const JSON_TYPES = /^application\/(.+\+)?json$/;

type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};
type Operation = {
  operationId?: string;
  summary?: string;
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, { type?: unknown }>; required?: string[] } }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
};

/** The component names a response schema stands for: one $ref, or a oneOf/anyOf of $refs; null for anything inline. */
function namedComponents(schema: Record<string, unknown>): string[] | null {
  const refName = (s: unknown) => {
    const ref = (s as { $ref?: unknown }).$ref;
    return typeof ref === 'string' && ref.startsWith('#/components/schemas/') ? ref.slice('#/components/schemas/'.length) : null;
  };
  const one = refName(schema);
  if (one) return [one];
  const choice = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
  if (!Array.isArray(choice) || Object.keys(schema).some((k) => k !== 'oneOf' && k !== 'anyOf' && k !== 'description')) return null;
  const names = choice.map(refName);
  return names.every((n): n is string => n !== null) ? names : null;
}

function operations(doc: Doc): { path: string; method: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
}

/** What the document gets wrong for a generated client (empty when nothing). */
export function clientProblems(doc: Doc): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const { path, method, op } of operations(doc)) {
    const where = `${method.toUpperCase()} ${path}`;
    if (!op.operationId) problems.push(`${where}: no operationId`);
    else if (ids.has(op.operationId)) problems.push(`${where}: operationId ${op.operationId} used twice`);
    else ids.add(op.operationId);
    if (!op.summary?.trim()) problems.push(`${where}: no summary`);
    for (const [status, response] of Object.entries(op.responses)) {
      for (const [type, media] of Object.entries(response.content ?? {})) {
        if (!JSON_TYPES.test(type)) continue;
        const names = namedComponents(media.schema);
        if (!names) problems.push(`${where} ${status} ${type}: the schema is not a named component`);
        else for (const n of names) if (!doc.components.schemas[n]) problems.push(`${where} ${status}: no component ${n}`);
      }
    }
    const body = op.requestBody?.content ?? {};
    if (body['multipart/form-data'] || body['application/x-www-form-urlencoded']) {
      for (const status of ['413', '415']) {
        const schema = op.responses[status]?.content?.['application/problem+json']?.schema;
        if (!schema || namedComponents(schema)?.[0] !== 'ProblemDetails')
          problems.push(`${where}: upload endpoint without ${status} ProblemDetails`);
      }
    }
  }
  return problems;
}

test('the document passes the client checks, and the checks catch what they look for', async () => {
  const app = await communityApp();
  const doc = (await app.inject({ url: '/openapi.json' })).json() as Doc;
  await app.close();
  assert.deepEqual(clientProblems(doc), []);
  assert.equal(operations(doc).length, 13, 'thirteen operations: nine under /v1 and four operational ones');

  // The same document with the faults the checks are there for.
  const broken = structuredClone(doc);
  const extract = broken.paths['/v1/extract'].post;
  delete extract.operationId;
  extract.responses['200'].content!['application/json'].schema = { type: 'object', properties: {} };
  delete broken.paths['/v1/merge'].post.responses['415'];
  broken.paths['/health'].get.summary = '';
  assert.deepEqual(clientProblems(broken), [
    'GET /health: no summary',
    'POST /v1/extract: no operationId',
    'POST /v1/extract 200 application/json: the schema is not a named component',
    'POST /v1/merge: upload endpoint without 415 ProblemDetails',
  ]);
});

interface Sample {
  operationId: string;
  status: number;
  body: unknown;
}

async function answer(app: FastifyInstance, operationId: string, url: string, parts?: Part[], headers: Record<string, string> = {}) {
  const form = parts ? multipart(parts) : undefined;
  const res = await app.inject({
    method: form ? 'POST' : 'GET',
    url,
    ...(form ? { payload: form.payload } : {}),
    headers: { ...(form?.headers ?? {}), ...headers },
  });
  assert.match(String(res.headers['content-type']), /json/, `${operationId} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  return { operationId, status: res.statusCode, body: res.json() } satisfies Sample;
}

/** Real answers of every operation, success and error, from the community and the pro app. */
async function realAnswers(): Promise<Sample[]> {
  const community = await communityApp({ DIAGNOSTICS_TOKEN: 'diag-token' });
  const pro = await proApp({ METRICS_ENABLED: 'true', METRICS_TOKEN: 'metrics-token' });
  const cii = readFixture(FX_EN16931_XML);
  const ubl = readFixture('cen/examples/ubl/ubl-tc434-example1.xml');
  const hybrid = await facturxPdf();
  const plainPdf = Buffer.from(await makeBasePdf());
  const metadata = JSON.stringify(METADATA_EXAMPLES.domestic);
  const file = (value: Buffer | string, filename: string): Part[] => [{ name: 'file', value, filename }];
  try {
    const samples: Sample[] = [];
    for (const app of [community, pro]) {
      for (const [bytes, name] of [
        [cii, 'invoice.xml'],
        [ubl, 'invoice.xml'],
        [hybrid, 'invoice.pdf'],
        [plainPdf, 'plain.pdf'],
      ] as const) {
        samples.push(await answer(app, 'validateInvoice', '/v1/validate', file(bytes, name)));
        samples.push(await answer(app, 'extractInvoice', '/v1/extract', file(bytes, name)));
        samples.push(await answer(app, 'serializeInvoice', '/v1/serialize', file(bytes, name)));
      }
      samples.push(await answer(app, 'validateInvoice', '/v1/validate', file('neither PDF nor XML', 'x.txt')));
      samples.push(await answer(app, 'validateInvoice', '/v1/validate', [{ name: 'other', value: 'x' }]));
      samples.push(await answer(app, 'extractInvoice', '/v1/extract', [{ name: 'other', value: 'x' }]));
    }
    samples.push(await answer(community, 'generateInvoiceXml', '/v1/xml', [{ name: 'metadata', value: '{"invoice_number": 1}' }]));
    samples.push(await answer(community, 'generateInvoiceXml', '/v1/xml', [{ name: 'metadata', value: 'not json' }]));
    samples.push(
      await answer(community, 'convertInvoice', '/v1/convert', [
        { name: 'pdf', value: 'not a pdf', filename: 'a.pdf' },
        { name: 'metadata', value: metadata },
      ]),
    );
    samples.push(
      await answer(community, 'mergeInvoice', '/v1/merge', [
        { name: 'pdf', value: hybrid, filename: 'a.pdf' },
        { name: 'xml', value: cii, filename: 'a.xml' },
      ]),
    );
    samples.push(
      await answer(community, 'mergeInvoice', '/v1/merge', [
        { name: 'pdf', value: plainPdf, filename: 'a.pdf' },
        { name: 'xml', value: cii, filename: 'a.xml' },
      ]),
    );
    // /v1/render answers HTML on success (text/html, no JSON body to type); its JSON answers are the errors.
    samples.push(await answer(community, 'renderInvoice', '/v1/render', file(plainPdf, 'plain.pdf')));
    samples.push(await answer(community, 'renderInvoice', '/v1/render', [{ name: 'other', value: 'x' }]));
    samples.push(
      await answer(community, 'transformInvoice', '/v1/transform', [...file(cii, 'invoice.xml'), { name: 'to', value: 'ubl' }], {
        accept: 'application/json',
      }),
    );
    samples.push(
      await answer(community, 'transformInvoice', '/v1/transform', [...file(ubl, 'invoice.xml'), { name: 'to', value: 'json' }]),
    );
    samples.push(
      await answer(community, 'transformInvoice', '/v1/transform', file('neither', 'x.txt').concat({ name: 'to', value: 'cii' })),
    );
    for (const [payload, accept] of [
      [STATUS_EXAMPLES.status_205.value, 'application/json'],
      [{ message_id: 1 }, 'application/json'],
      [{ ...STATUS_EXAMPLES.status_207.value, details: [] }, 'application/json'],
    ] as const) {
      const res = await community.inject({ method: 'POST', url: '/v1/status', payload, headers: { accept } });
      samples.push({ operationId: 'buildStatusMessage', status: res.statusCode, body: res.json() });
    }
    samples.push(await answer(community, 'getHealth', '/health'));
    samples.push(await answer(community, 'getReadiness', '/healthz'));
    samples.push(await answer(community, 'getDiagnostics', '/diagnostics', undefined, { authorization: 'Bearer diag-token' }));
    samples.push(await answer(pro, 'getDiagnostics', '/diagnostics'));
    samples.push(await answer(community, 'getMetrics', '/metrics'));
    samples.push(await answer(pro, 'getMetrics', '/metrics', undefined, { authorization: 'Bearer wrong' }));
    return samples;
  } finally {
    await community.close();
    await pro.close();
  }
}

/** A literal of a request body's required fields, typed from the generated client. */
function bodyLiteral(op: Operation): string | null {
  const content = op.requestBody?.content ?? {};
  const type = Object.keys(content)[0];
  if (!type) return null;
  // A JSON body with examples (POST /v1/status): its first example, which must type-check as the body.
  const example = Object.values((content[type] as { examples?: Record<string, { value: unknown }> }).examples ?? {})[0];
  if (example) return JSON.stringify(example.value);
  const schema = content[type].schema;
  const literal = (name: string) => {
    const prop = schema.properties?.[name] as { type?: string; enum?: unknown[] } | undefined;
    if (prop?.enum?.length) return JSON.stringify(prop.enum[0]);
    return prop?.type === 'boolean' ? 'true' : '""';
  };
  const fields = (schema.required ?? []).map((name) => `${JSON.stringify(name)}: ${literal(name)}`);
  return `{ ${fields.join(', ')} }`;
}

test('a client generated with openapi-typescript type-checks a call of every operation and every real answer', async () => {
  const app = await communityApp();
  const doc = (await app.inject({ url: '/openapi.json' })).json() as Doc;
  await app.close();
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const generated = astToString(await openapiTS(doc as unknown as Parameters<typeof openapiTS>[0]));
  assert.match(generated, /export interface operations \{/);

  const calls = operations(doc).map(({ path, method, op }, i) => {
    const body = bodyLiteral(op);
    return [
      `export async function call${i}() {`,
      `  const res = await call(${JSON.stringify(path)}, ${JSON.stringify(method)}${body ? `, ${body}` : ''});`,
      `  const op: operations[${JSON.stringify(op.operationId)}] = null as unknown as paths[${JSON.stringify(path)}][${JSON.stringify(method)}];`,
      '  return [res, op] as const;',
      '}',
    ].join('\n');
  });

  const samples = await realAnswers();
  const seen = new Set(samples.map((s) => s.operationId));
  for (const { op } of operations(doc)) assert.ok(seen.has(op.operationId!), `a real answer of ${op.operationId}`);
  const literals = samples.map(
    (s, i) => `export const answer${i}: Body<${JSON.stringify(s.operationId)}, ${s.status}> = ${JSON.stringify(s.body, null, 1)};`,
  );

  const check = `import type { components, operations, paths } from './api.js';

type Schemas = components['schemas'];
/** The JSON body where an answer has one (extract also answers its XML to Accept: application/xml), else the only one. */
type Content<R> = R extends { content: infer C }
  ? [keyof C & \`application/\${string}json\`] extends [never]
    ? C[keyof C]
    : C[keyof C & \`application/\${string}json\`]
  : never;
/** The JSON body of an operation's answer with that status. */
type Body<K extends keyof operations, S extends number> = S extends keyof operations[K]['responses']
  ? Content<operations[K]['responses'][S]>
  : { __no_such_status: S };
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const expect = <T extends true>(): T => true as T;
type FormOf<Op> = Op extends { requestBody: { content: infer C } } ? C[keyof C] : Op extends { requestBody?: { content: infer C } } ? C[keyof C] : never;

/** A typed call: the path's request body in, the 200 JSON body out. */
declare function call<P extends keyof paths, M extends keyof paths[P] & ('get' | 'post')>(
  path: P,
  method: M,
  ...body: FormOf<paths[P][M]> extends never ? [] : [FormOf<paths[P][M]>]
): Promise<Content<(paths[P][M] & { responses: { 200: unknown } })['responses'][200]>>;

// Each JSON answer is the component the contract names.
expect<Equals<Body<'extractInvoice', 200>, Schemas['ExtractionResult']>>();
expect<Equals<operations['extractInvoice']['responses'][200]['content']['application/xml'], string>>();
expect<Equals<Body<'validateInvoice', 200>, Schemas['ValidationResult'] | Schemas['ProValidationResult']>>();
expect<Equals<Body<'serializeInvoice', 200>, Schemas['SerializationResponse']>>();
expect<Equals<Body<'getDiagnostics', 200>, Schemas['DiagnosticsResponse']>>();
expect<Equals<Body<'getHealth', 200>, Schemas['HealthResponse']>>();
expect<Equals<Body<'getReadiness', 503>, Schemas['ReadinessResponse']>>();
expect<Equals<Body<'mergeInvoice', 409>, Schemas['ProblemDetails']>>();
expect<Equals<Body<'extractInvoice', 422>, Schemas['HTTPValidationError'] | Schemas['ProblemDetails']>>();
for (const id of ['extractInvoice', 'validateInvoice', 'serializeInvoice', 'generateInvoiceXml', 'convertInvoice', 'mergeInvoice', 'transformInvoice'] as const) {
  expect<Equals<Body<typeof id, 413>, Schemas['ProblemDetails']>>();
  expect<Equals<Body<typeof id, 415>, Schemas['ProblemDetails']>>();
}
// The contract's value lists, as types.
expect<Equals<NonNullable<Schemas['ValidationErrorDetail']['severity']>, 'error' | 'warning'>>();
expect<Equals<Schemas['DiagnosticDetail']['severity'], 'error' | 'warning' | 'info'>>();
expect<Equals<Schemas['ValidationResult']['format'], 'factur-x' | 'zugferd' | 'ubl' | null>>();
expect<Equals<Schemas['BusinessReadyInvoice']['format'], 'factur-x' | 'zugferd' | 'xrechnung' | 'ubl'>>();
expect<Equals<Schemas['BusinessReadyInvoice']['profile'], 'minimum' | 'basic' | 'en16931' | 'extended' | 'xrechnung_3.0'>>();

export async function narrowing() {
  const report = await call('/v1/validate', 'post', { file: '' });
  if ('error_count' in report) return report.diagnostics?.map((d) => d.severity satisfies 'error' | 'warning' | 'info');
  return report.errors.map((e) => e.rule_id);
}

// The checks bite: values outside the contract and calls without their required fields do not compile.
// @ts-expect-error "information" is not a community severity
export const badSeverity: Schemas['ValidationErrorDetail'] = { message: 'm', severity: 'information' };
// @ts-expect-error XRechnung is a flavor, not a format
export const badFormat: Schemas['ValidationResult']['format'] = 'xrechnung';
// @ts-expect-error a field the document does not declare
export const badField: Schemas['SkippedLayer'] = { layer: 'xsd', reason: 'r', extra: 1 };
// @ts-expect-error /v1/extract needs its file
export const badCall = () => call('/v1/extract', 'post', {});

${calls.join('\n\n')}

${literals.join('\n\n')}
`;

  const dir = await mkdtemp(join(tmpdir(), 'einvoice-openapi-client-'));
  try {
    await writeFile(join(dir, 'api.ts'), generated);
    await writeFile(join(dir, 'check.ts'), check);
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: [] },
        files: ['api.ts', 'check.ts'],
      }),
    );
    const out = await run(TSC, ['-p', join(dir, 'tsconfig.json')], {
      maxBuffer: 16 * 1024 * 1024,
      timeout: 300_000,
      killSignal: 'SIGKILL',
    }).then(
      () => '',
      (err: { stdout?: string; stderr?: string }) => `${err.stdout ?? ''}${err.stderr ?? ''}`,
    );
    assert.equal(out, '', `tsc on the generated client:\n${out.slice(0, 6000)}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
