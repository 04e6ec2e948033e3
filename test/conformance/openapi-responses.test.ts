/**
 * Real answers agree with the OpenAPI document: every corpus invoice through /v1/validate (community and pro),
 * /v1/extract and pro /v1/serialize, a sample of the PDF/A corpus through pro /v1/validate, and the error answers
 * of every operation, each checked (ajv, JSON Schema draft 2020-12 as OpenAPI 3.1 uses it) against the schema the
 * document gives for its operation, status and content type. An undocumented status or content type fails too.
 * Failures are grouped by operation, field and value, with one example file each.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { communityApp, multipart, proApp, type Part } from '../helpers.js';
import { CORPUS } from './corpus.js';
import { readCorpusVerdicts } from './corpus-helpers.js';

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> };

/** The document's id for ajv (a URL that is never fetched). */
const DOC_ID = 'https://einvoice-service.invalid/openapi.json';
const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Checks answers against the document; collects what disagrees. */
class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  /** "operation status field: problem" → how often, and one example. */
  readonly failures = new Map<string, { count: number; example: string }>();
  checked = 0;

  constructor(private readonly doc: Doc) {
    addFormats.default(this.ajv);
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema(doc as object, DOC_ID);
  }

  private component(name: string): ValidateFunction {
    const validate = this.ajv.getSchema(`${DOC_ID}#/components/schemas/${name}`);
    if (!validate) throw new Error(`no component ${name}`);
    return validate;
  }

  private fail(key: string, example: string): void {
    const f = this.failures.get(key);
    if (f) f.count++;
    else this.failures.set(key, { count: 1, example });
  }

  check(method: string, url: string, res: LightMyRequestResponse, example: string): void {
    this.checked++;
    const op = `${method} ${url}`;
    const responses = this.doc.paths[url]?.[method.toLowerCase()]?.responses;
    const status = String(res.statusCode);
    const type = String(res.headers['content-type'] ?? '').split(';')[0];
    if (!responses?.[status]) {
      this.fail(`${op} ${status}: status not documented`, example);
      return;
    }
    if (!responses[status].content?.[type]) {
      this.fail(`${op} ${status}: content type ${type} not documented`, example);
      return;
    }
    if (!/json$/.test(type)) return;
    const key = `${DOC_ID}#/paths/${pointer(url)}/${method.toLowerCase()}/responses/${status}/content/${pointer(type)}/schema`;
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.getSchema(key);
      if (!validate) throw new Error(`no schema at ${key}`);
      this.validators.set(key, validate);
    }
    const body = res.json();
    if (validate(body)) return;
    // oneOf (validate's 200): report against the branch the answer is meant for, not the noise of both.
    let errors = validate.errors ?? [];
    if (errors.some((e) => e.keyword === 'oneOf')) {
      const branch = typeof body === 'object' && body !== null && 'error_count' in body ? 'ProValidationResult' : 'ValidationResult';
      const meant = this.component(branch);
      if (meant(body)) {
        this.fail(`${op} ${status}: matches more than one oneOf branch`, example);
        return;
      }
      errors = meant.errors ?? [];
    }
    for (const e of errors) {
      const field = e.instancePath.replace(/\/\d+/g, '/*');
      const value = e.keyword === 'enum' || e.keyword === 'type' ? ` ${JSON.stringify(fieldValue(body, e.instancePath))}` : '';
      this.fail(`${op} ${status} ${field || '/'}: ${e.message}${value}`, example);
    }
  }
}

function fieldValue(body: unknown, instancePath: string): unknown {
  let v = body;
  for (const step of instancePath.split('/').slice(1)) v = (v as Record<string, unknown> | undefined)?.[step];
  return v;
}

async function post(app: FastifyInstance, url: string, parts: Part[], headers: Record<string, string> = {}) {
  const form = multipart(parts);
  return app.inject({ method: 'POST', url, payload: form.payload, headers: { ...form.headers, ...headers } });
}

async function served(): Promise<Doc> {
  const app = await communityApp();
  try {
    return (await app.inject({ url: '/openapi.json' })).json() as Doc;
  } finally {
    await app.close();
  }
}

test('every answer to every corpus file validates against the operation schema of the OpenAPI document', async () => {
  const checker = new ResponseChecker(await served());
  const community = await communityApp();
  const pro = await proApp();
  try {
    const files = readCorpusVerdicts<{ file: string }>().map((v) => v.file);
    assert.ok(files.length > 1000, `corpus read: ${files.length} files`);
    for (const file of files) {
      const part: Part[] = [{ name: 'file', value: readFileSync(path.join(CORPUS, file)), filename: path.basename(file) }];
      checker.check('POST', '/v1/validate', await post(community, '/v1/validate', part), file);
      checker.check('POST', '/v1/validate', await post(pro, '/v1/validate', part), file);
      checker.check('POST', '/v1/extract', await post(community, '/v1/extract', part), file);
      checker.check('POST', '/v1/serialize', await post(pro, '/v1/serialize', part), file);
    }
    // PDF/A diagnostics: every 8th file of the veraPDF corpus through pro /v1/validate.
    const pdfa = readFileSync(path.join(CORPUS, 'pdfa/manifest.tsv'), 'utf8')
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((l) => l.split('\t')[0])
      .filter((_, i) => i % 8 === 0);
    assert.ok(pdfa.length > 50);
    for (const file of pdfa) {
      const part: Part[] = [{ name: 'file', value: readFileSync(path.join(CORPUS, 'pdfa', file)), filename: path.basename(file) }];
      checker.check('POST', '/v1/validate', await post(pro, '/v1/validate', part), `pdfa/${file}`);
    }
  } finally {
    await community.close();
    await pro.close();
  }
  const report = Object.fromEntries([...checker.failures].map(([k, v]) => [k, `${v.count}× e.g. ${v.example}`]));
  assert.deepEqual(report, {}, `answers that disagree with the OpenAPI document (of ${checker.checked})`);
});

test('error answers of every operation validate against the document', async () => {
  const checker = new ResponseChecker(await served());
  const community = await communityApp({ MAX_UPLOAD_SIZE_MB: '1', DIAGNOSTICS_TOKEN: 'diag' });
  const pro = await proApp();
  const invoice = readFileSync(path.join(CORPUS, 'en16931/examples/cii/CII_business_example_01.xml'));
  const big = Buffer.alloc(1_200_000, 0x20);
  try {
    const uploads: [string, Part[]][] = [
      ['/v1/validate', [{ name: 'file', value: invoice, filename: 'a.xml' }]],
      ['/v1/extract', [{ name: 'file', value: invoice, filename: 'a.xml' }]],
      ['/v1/serialize', [{ name: 'file', value: invoice, filename: 'a.xml' }]],
      [
        '/v1/convert',
        [
          { name: 'pdf', value: 'x', filename: 'a.pdf' },
          { name: 'metadata', value: '{}' },
        ],
      ],
      [
        '/v1/merge',
        [
          { name: 'pdf', value: 'x', filename: 'a.pdf' },
          { name: 'xml', value: invoice, filename: 'a.xml' },
        ],
      ],
      ['/v1/xml', [{ name: 'metadata', value: '{}' }]],
    ];
    const statuses = new Map<string, Set<number>>();
    const record = (url: string, res: LightMyRequestResponse, example: string) => {
      checker.check('POST', url, res, example);
      statuses.set(url, (statuses.get(url) ?? new Set()).add(res.statusCode));
    };
    for (const [url, parts] of uploads) {
      record(url, await post(community, url, parts), 'as is (400/403/422)');
      record(url, await post(community, url, [{ name: 'other', value: 'x' }]), 'no part (422)');
      record(url, await post(community, url, [...parts, { name: 'padding', value: big, filename: 'big.bin' }]), 'over the limit (413)');
      record(
        url,
        await community.inject({ method: 'POST', url, payload: 'x', headers: { 'content-type': 'application/octet-stream' } }),
        'octet-stream (415)',
      );
      record(url, await post(pro, url, [{ name: 'file', value: 'neither', filename: 'x.txt' }, ...parts.slice(1)]), 'unusable file');
    }
    // Community serialize answers 403 before looking at the body or its type: its 415 comes from the pro edition.
    record(
      '/v1/serialize',
      await pro.inject({ method: 'POST', url: '/v1/serialize', payload: 'x', headers: { 'content-type': 'application/octet-stream' } }),
      'octet-stream (415, pro)',
    );
    for (const [url, want] of [
      ['/v1/validate', [400, 413, 415, 422]],
      ['/v1/extract', [400, 413, 415, 422]],
      ['/v1/convert', [400, 413, 415, 422]],
      ['/v1/merge', [400, 413, 415, 422]],
      ['/v1/xml', [413, 415, 422]],
      ['/v1/serialize', [403, 415]],
    ] as const) {
      for (const s of want) assert.ok(statuses.get(url)?.has(s), `${url} answered ${s}: ${[...(statuses.get(url) ?? [])].join(', ')}`);
    }
    for (const [url, headers] of [
      ['/diagnostics', {}],
      ['/diagnostics', { authorization: 'Bearer wrong' }],
      ['/diagnostics', { authorization: 'Bearer diag' }],
      ['/metrics', {}],
      ['/health', {}],
      ['/healthz', {}],
    ] as const) {
      checker.check('GET', url, await community.inject({ url, headers }), `GET ${url}`);
      checker.check('GET', url, await pro.inject({ url, headers }), `GET ${url} (pro)`);
    }
  } finally {
    await community.close();
    await pro.close();
  }
  const report = Object.fromEntries([...checker.failures].map(([k, v]) => [k, `${v.count}× e.g. ${v.example}`]));
  assert.deepEqual(report, {}, `answers that disagree with the OpenAPI document (of ${checker.checked})`);
});
