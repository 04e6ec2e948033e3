/**
 * Helpers for the syntax-rule tests: mutate a parsed fixture invoice (add the element a rule
 * forbids, duplicate the one it bounds) and read which rules fire.
 */
import { readFileSync } from 'node:fs';
import { parseXml, type XmlDoc, type XmlElement } from '../src/xml/dom.js';
import type { ChildPath, Step, TableRule } from '../src/syntax/syntax-table.js';

import { fixturePath } from './fixtures.js';

/** A curated fixture (test/fixtures/<set>/…), parsed. */
export function loadFixture(rel: string): XmlDoc {
  return parseXml(new Uint8Array(readFileSync(fixturePath(rel))));
}

/** The official verdicts of the curated fixtures (test/fixtures/verdicts.jsonl, taken from the corpus's lists). */
export function fixtureVerdicts<
  V = { file: string; rulesets: string[]; errors: { id: string; ruleset: string }[]; warnings: { id: string; ruleset: string }[] },
>(): V[] {
  return readFileSync(fixturePath('verdicts.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as V);
}

export function newElement(parent: XmlElement, step: Step, text = ''): XmlElement {
  const el: XmlElement = { ns: step.ns, local: step.local, prefix: 'x', attrs: [], children: [], text, parent, line: 0 };
  parent.children = [...parent.children, el]; // parsed trees share one empty array: assign, never push
  return el;
}

/** Follow a child path from `from`, creating the missing elements. */
export function ensure(from: XmlElement, steps: readonly Step[]): XmlElement {
  let cur = from;
  for (const s of steps) {
    cur = cur.children.find((c) => c.local === s.local && c.ns === s.ns) ?? newElement(cur, s);
  }
  return cur;
}

export function setAttr(el: XmlElement, local: string, value: string): void {
  const a = el.attrs.find((x) => x.local === local && x.ns === '');
  if (a) a.value = value;
  else el.attrs = [...el.attrs, { ns: '', local, prefix: '', value }];
}

/** Make a rule's path select something (or more than allowed) under `ctx`. */
export function violateTableRule(ctx: XmlElement, rule: TableRule): void {
  const p: ChildPath = rule.paths[0];
  if (rule.kind === 'absent') {
    const el = ensure(ctx, p.steps);
    if (p.attr) setAttr(el, p.attr, 'x');
    if (!el.text && el.children.length === 0) el.text = 'x';
    return;
  }
  // Counting rule: one more than allowed (exactly-N rules: N + 1).
  const parent = ensure(ctx, p.steps.slice(0, -1));
  const last = p.steps[p.steps.length - 1];
  const have = parent.children.filter((c) => c.local === last.local && c.ns === last.ns).length;
  for (let i = have; i < rule.n + 1; i++) {
    const el = newElement(parent, last, 'x');
    if (p.attr) setAttr(el, p.attr, 'x');
  }
  if (p.attr) for (const c of parent.children) if (c.local === last.local && c.ns === last.ns) setAttr(c, p.attr, 'x');
}

/** Parse `pfx:Local/pfx:Local` with a prefix → namespace map. */
export function steps(text: string, ns: Record<string, string>): Step[] {
  if (!text) return [];
  return text.split('/').map((s) => {
    const [pfx, local] = s.split(':');
    if (!(pfx in ns)) throw new Error(`unknown prefix ${pfx}`);
    return { ns: ns[pfx], local };
  });
}
