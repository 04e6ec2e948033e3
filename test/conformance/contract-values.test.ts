/**
 * Every enumerated field of every answer, over the whole corpus, in both editions, against the API contract's value
 * lists (../shared/spec/api-spec.md, part 2): every corpus PDF and XML goes through /v1/validate, /v1/extract and
 * /v1/serialize of a community and a pro app (in-process, inject, validation inline). An answer that is not 200 is
 * skipped (unusable uploads are 400 by design; community serialize is 403).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { communityApp, multipart, proApp } from '../helpers.js';
import { CORPUS } from './corpus.js';

/** The contract's value lists (part 2 of the spec; part 3 for validation_completeness). */
const CONTRACT = {
  'ValidationErrorDetail.severity': ['error', 'warning'],
  'ValidationResult.format': ['factur-x', 'zugferd', 'ubl', null],
  'DiagnosticDetail.severity': ['error', 'warning', 'info'],
  'ProValidationResult.validation_mode': ['pro_diagnostics'],
  validation_completeness: ['full', 'partial'],
  'SkippedLayer.layer': ['xsd', 'schematron', 'pdfa3b', 'br_fr_ctc'],
  'BusinessReadyInvoice.format': ['factur-x', 'zugferd', 'xrechnung', 'ubl'],
  'BusinessReadyInvoice.profile': ['minimum', 'basic', 'en16931', 'extended', 'xrechnung_3.0'],
  'FallbackApplied.fallback_type': [
    'default_value',
    'placeholder_value',
    'derived_value',
    'coercion',
    'xml_parser_recovery',
    'line_skipped',
    'line_truncated',
  ],
  'FallbackApplied.original_state': ['missing', 'invalid', 'malformed', 'unparseable', 'truncated'],
  '_meta.limitations': ['heuristic_mapping', 'fallback_values_used'],
} as const satisfies Record<string, readonly (string | null)[]>;

type Field = keyof typeof CONTRACT;

function corpusFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...corpusFiles(full));
    else if (/\.(xml|pdf)$/i.test(entry.name)) out.push(full);
  }
  return out.sort();
}

class Checker {
  readonly violations: string[] = [];
  readonly seen = new Map<Field, Set<string>>();
  constructor(private readonly where: string) {}
  at(file: string) {
    return (field: Field, value: unknown) => {
      const allowed = CONTRACT[field] as readonly unknown[];
      if (!this.seen.has(field)) this.seen.set(field, new Set());
      this.seen.get(field)!.add(String(value));
      if (!allowed.includes(value as never)) this.violations.push(`${this.where} ${file}: ${field} = ${JSON.stringify(value)}`);
    };
  }
}

async function post(app: FastifyInstance, url: string, bytes: Buffer, filename: string) {
  const { payload, headers } = multipart([{ name: 'file', value: bytes, filename }]);
  return app.inject({ method: 'POST', url, payload, headers });
}

interface Layered {
  validation_completeness: unknown;
  layers_executed: string[];
  layers_skipped: { layer: string }[];
}

function checkLayers(check: ReturnType<Checker['at']>, body: Layered) {
  check('validation_completeness', body.validation_completeness);
  for (const l of body.layers_executed) check('SkippedLayer.layer', l);
  for (const l of body.layers_skipped) check('SkippedLayer.layer', l.layer);
}

async function runEdition(app: FastifyInstance, edition: 'community' | 'pro', files: string[]): Promise<Checker> {
  const checker = new Checker(edition);
  for (const full of files) {
    const rel = path.relative(CORPUS, full);
    const bytes = readFileSync(full);
    const name = path.basename(full);
    const check = checker.at(rel);

    const v = await post(app, '/v1/validate', bytes, name);
    if (v.statusCode === 200) {
      const body = v.json();
      check('ValidationResult.format', body.format);
      checkLayers(check, body);
      if (edition === 'pro') {
        check('ProValidationResult.validation_mode', body.validation_mode);
        for (const d of body.diagnostics) check('DiagnosticDetail.severity', d.severity);
      } else {
        for (const e of body.errors) check('ValidationErrorDetail.severity', e.severity ?? 'error');
      }
    }

    const x = await post(app, '/v1/extract', bytes, name);
    if (x.statusCode === 200) {
      for (const l of x.json().invoice_json?._meta?.limitations ?? []) check('_meta.limitations', l);
    }

    if (edition === 'pro') {
      const s = await post(app, '/v1/serialize', bytes, name);
      if (s.statusCode === 200) {
        const body = s.json();
        if (body.invoice) {
          check('BusinessReadyInvoice.format', body.invoice.format);
          check('BusinessReadyInvoice.profile', body.invoice.profile);
        }
        for (const f of body.fallbacks_applied ?? []) {
          check('FallbackApplied.fallback_type', f.fallback_type);
          check('FallbackApplied.original_state', f.original_state);
        }
      }
    }
  }
  return checker;
}

test('the contract names these value lists (read from the spec beside the corpus)', (t) => {
  const spec = path.resolve(CORPUS, '../spec/api-spec.md');
  if (!existsSync(spec)) return t.skip(`no spec at ${spec}`);
  const text = readFileSync(spec, 'utf8');
  for (const [field, values] of Object.entries(CONTRACT)) {
    for (const v of values) if (v !== null && v !== 'pro_diagnostics') assert.ok(text.includes(v), `${field}: "${v}" is in the spec`);
  }
});

test('every enumerated field of every answer to every corpus file is in the contract list, in both editions', async () => {
  const files = corpusFiles(CORPUS);
  assert.ok(files.length > 2000, `corpus has ${files.length} PDF/XML files`);
  const env = { WORKERS: '0' };
  const reports: Checker[] = [];
  for (const [edition, make] of [
    ['community', communityApp],
    ['pro', proApp],
  ] as const) {
    const app = await make(env);
    try {
      reports.push(await runEdition(app, edition, files));
    } finally {
      await app.close();
    }
  }
  const violations = reports.flatMap((r) => r.violations);
  assert.deepEqual(violations.slice(0, 20), [], `${violations.length} values outside the contract`);
  // The walk saw the fields it checks (a test that never looks cannot fail).
  const [community, pro] = reports;
  for (const f of ['ValidationErrorDetail.severity', 'ValidationResult.format', 'SkippedLayer.layer', 'validation_completeness'] as const)
    assert.ok(community.seen.get(f)?.size, `community: ${f} seen`);
  for (const f of [
    'DiagnosticDetail.severity',
    'BusinessReadyInvoice.format',
    'BusinessReadyInvoice.profile',
    'FallbackApplied.fallback_type',
  ] as const)
    assert.ok(pro.seen.get(f)?.size, `pro: ${f} seen`);
  // Information-level findings do occur in the corpus: community shows them as warnings, pro as info.
  assert.ok(pro.seen.get('DiagnosticDetail.severity')?.has('info'), 'pro: some info diagnostic');
  assert.ok(community.seen.get('ValidationResult.format')?.has('ubl'), 'community: UBL seen');
});
