/**
 * Structural asserts of the Factur-X profile schematrons (FX-SCH-A-*: "element X must occur exactly
 * once / at most n times / at least once here", "attribute @x is required here"), evaluated as data:
 * the tests from ./structure.table.ts, the rule contexts from the generated catalogue.
 */
import type { Rule } from '../types.js';
import { attr, where } from '../xrechnung/dom.js';
import { FX_STRUCTURE_CONTEXTS } from './catalogue.data.js';
import { contextNodes } from './codelists.js';
import { structureTests, type StructureTest } from './structure.table.js';
import { compileCount } from './xpath-match.js';

function label(child: string): string {
  return child.replace(/^ram:/, '');
}

function message(t: StructureTest, context: string): string {
  const where = (context.split('/').pop() ?? context).replace(/^\w+:/, '').replace(/\[.*$/, '');
  if (t.kind === 'attr') return `The attribute @${t.name} is required on ${where}.`;
  const what = label(t.child);
  if (t.op === '=') return `${what} must occur exactly ${t.n === 1 ? 'once' : `${t.n} times`} in ${where}.`;
  if (t.op === '<=') return `${what} may occur at most ${t.n === 1 ? 'once' : `${t.n} times`} in ${where}.`;
  return `${what} must occur at least ${t.n === 1 ? 'once' : `${t.n} times`} in ${where}.`;
}

let cached: Rule[] | undefined;

/** One rule per structural assert; buildProfileRules keeps those the profile carries, with its severity. */
export function structureRules(_set?: string): Rule[] {
  if (cached) return cached;
  const rules: Rule[] = [];
  for (const [id, t] of structureTests()) {
    const context = FX_STRUCTURE_CONTEXTS[id];
    if (context === undefined) continue;
    let test: (node: Parameters<typeof attr>[0]) => boolean;
    if (t.kind === 'attr') test = (node) => attr(node, t.name) !== undefined;
    else {
      const count = compileCount(t.child);
      test = (node) => {
        const n = count(node);
        return t.op === '=' ? n === t.n : t.op === '<=' ? n <= t.n : n >= t.n;
      };
    }
    rules.push({
      id,
      severity: 'error',
      message: message(t, context),
      check(ctx) {
        const out = [];
        for (const node of contextNodes(ctx.doc, context)) if (!test(node)) out.push({ location: where(node) });
        return out;
      },
    });
  }
  cached = rules;
  return rules;
}
