/**
 * Structural asserts of the Factur-X profile schematrons (FX-SCH-A-*: "element X must occur exactly
 * once / at most n times / at least once here", "attribute @x is required here"), evaluated as data:
 * the tests from ./structure.table.ts, the rule contexts from the generated catalogue.
 */
import type { Rule, Violation } from '../types.js';
import type { XmlDoc, XmlElement } from '../../xml/dom.js';
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

type NodeTest = (node: XmlElement) => boolean;

/** The structural asserts of one rule context, evaluated together (see structureRules). */
interface ContextGroup {
  context: string;
  ids: string[];
  tests: NodeTest[];
}

/** Per document: the violations of every structural assert, filled one context group at a time. */
const results = new WeakMap<XmlDoc, Map<string, Violation[]>>();

function violationsOf(doc: XmlDoc, id: string, group: ContextGroup): Violation[] {
  let byId = results.get(doc);
  if (!byId) results.set(doc, (byId = new Map()));
  let found = byId.get(id);
  if (found) return found;
  // One pass over the context's nodes runs all of its asserts while each node is at hand: a
  // 10,000-line invoice has ~20 asserts per line context, and one pass per assert cost 5 ms each.
  const lists = group.ids.map((): Violation[] => []);
  for (const node of contextNodes(doc, group.context)) {
    for (let i = 0; i < group.tests.length; i++) if (!group.tests[i](node)) lists[i].push({ location: where(node) });
  }
  for (let i = 0; i < group.ids.length; i++) byId.set(group.ids[i], lists[i]);
  found = byId.get(id)!;
  return found;
}

let cached: Rule[] | undefined;

/** One rule per structural assert; buildProfileRules keeps those the profile carries, with its severity. */
export function structureRules(_set?: string): Rule[] {
  if (cached) return cached;
  const rules: Rule[] = [];
  const groups = new Map<string, ContextGroup>();
  for (const [id, t] of structureTests()) {
    const context = FX_STRUCTURE_CONTEXTS[id];
    if (context === undefined) continue;
    let test: NodeTest;
    if (t.kind === 'attr') test = (node) => attr(node, t.name) !== undefined;
    else {
      const count = compileCount(t.child);
      test = (node) => {
        const n = count(node);
        return t.op === '=' ? n === t.n : t.op === '<=' ? n <= t.n : n >= t.n;
      };
    }
    let group = groups.get(context);
    if (!group) groups.set(context, (group = { context, ids: [], tests: [] }));
    group.ids.push(id);
    group.tests.push(test);
    const inGroup = group;
    rules.push({
      id,
      severity: 'error',
      message: message(t, context),
      check: (ctx) => violationsOf(ctx.doc, id, inGroup),
    });
  }
  cached = rules;
  return rules;
}
