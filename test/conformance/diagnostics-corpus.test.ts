/**
 * Pro smart diagnostics over the whole corpus, through the real app: every diagnostic of every invoice (and
 * of every PDF/A test file) has a specific explanation, never the generic fallback; and BR-CO-10's context
 * carries the values it compared, checked against the invoice's own amounts.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { GENERIC_TITLE } from '../../src/validation/diagnostics.js';
import { multipart, type Part, proApp } from '../helpers.js';
import { CORPUS } from './corpus.js';

interface Diagnostic {
  rule_id: string;
  title: string;
  explanation: string;
  suggestion: string;
  context: Record<string, unknown> | null;
}

function corpusFiles(): string[] {
  const out: string[] = [];
  for (const top of ['en16931', 'xrechnung', 'zugferd', 'fr-ctc', 'pdfa'])
    for (const e of readdirSync(path.join(CORPUS, top), { recursive: true, withFileTypes: true }))
      if (e.isFile() && /\.(xml|pdf)$/i.test(e.name)) out.push(path.relative(CORPUS, path.join(e.parentPath, e.name)));
  return out.sort();
}

async function validate(app: FastifyInstance, file: string): Promise<{ status: number; diagnostics: Diagnostic[] }> {
  const parts: Part[] = [{ name: 'file', value: readFileSync(path.join(CORPUS, file)), filename: path.basename(file) }];
  // The French CTC invoices are validated with the BR-FR layer, as their verdicts are.
  if (file.startsWith('fr-ctc/')) parts.push({ name: 'rules', value: 'br_fr_ctc' });
  const { payload, headers } = multipart(parts);
  const res = await app.inject({ method: 'POST', url: '/v1/validate', payload, headers });
  return { status: res.statusCode, diagnostics: res.statusCode === 200 ? res.json().diagnostics : [] };
}

describe('pro diagnostics over the corpus', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await proApp();
  });
  after(async () => {
    await app.close();
  });

  test('no diagnostic uses the generic fallback; each names its terms when it has any', { timeout: 1_800_000 }, async () => {
    const files = corpusFiles();
    assert.ok(files.length > 2000, `${files.length} files`);
    let total = 0;
    let generic = 0;
    const genericIds = new Set<string>();
    const ids = new Set<string>();
    for (const file of files) {
      const { diagnostics } = await validate(app, file);
      for (const d of diagnostics) {
        total++;
        ids.add(d.rule_id);
        if (d.title === GENERIC_TITLE) {
          generic++;
          genericIds.add(d.rule_id);
        }
        assert.ok(d.title && d.explanation && d.suggestion, `${file}: ${JSON.stringify(d)}`);
        const terms = (d.context?.terms ?? []) as { id: string; name: string }[];
        for (const t of terms) assert.ok(d.explanation.includes(`${t.name} (${t.id})`), `${file} ${d.rule_id}: ${t.id}`);
      }
    }
    console.log(`diagnostics: ${total} over ${files.length} files, ${ids.size} distinct rule ids, ${generic} generic`);
    assert.ok(total > 10_000, `${total}`);
    assert.equal(generic, 0, `generic fallback for: ${[...genericIds].join(', ')}`);
  });

  test("BR-CO-10's context: the invoice's line net amounts, their sum, the stated BT-106 and the difference", async () => {
    const file = 'xrechnung/instances/cii/cii-br-de-16-negative-tests-bt-95-bt-151.xml';
    const xml = readFileSync(path.join(CORPUS, file), 'utf8');
    const lines = [...xml.matchAll(/<ram:SpecifiedTradeSettlementLineMonetarySummation>\s*<ram:LineTotalAmount>([^<]+)</g)].map(
      (m) => m[1],
    );
    const header = /<ram:SpecifiedTradeSettlementHeaderMonetarySummation>[\s\S]*?<ram:LineTotalAmount>([^<]+)</.exec(xml)?.[1];
    assert.ok(lines.length > 0 && header);
    const { diagnostics } = await validate(app, file);
    const d = diagnostics.find((x) => x.rule_id === 'BR-CO-10');
    assert.ok(d, 'BR-CO-10 fires on this file (official verdict)');
    const compared = d.context?.compared as Record<string, unknown>;
    assert.deepEqual(compared['BT-131'], { values: lines, count: lines.length });
    const sum = lines.reduce((a, v) => a + Math.round(Number.parseFloat(v) * 100), 0);
    assert.equal(compared.sum, (sum / 100).toFixed(2));
    assert.equal(compared['BT-106'], header);
    assert.equal(compared.difference, ((Math.round(Number.parseFloat(header) * 100) - sum) / 100).toFixed(2));
    assert.notEqual(compared.difference, '0.00');
  });
});
