/**
 * Structural asserts of the Factur-X profile schematrons (FX-SCH-A-*: "element X must occur exactly
 * once / at most n times / at least once here", "attribute @x is required here"), evaluated as data:
 * the tests from ./structure.table.ts, the rule contexts from the generated catalogue.
 */
import type { Rule, Violation } from '../types.js';
import type { XmlDoc, XmlElement } from '../../xml/dom.js';
import { attr, where } from '../xrechnung/dom.js';
import { FX_STRUCTURE_CONTEXTS } from './catalogue.data.js';
import { contextHandle, contextNodes, type ContextHandle } from './codelists.js';
import { structureTests, type StructureTest } from './structure.table.js';
import { compileCount, singleChildStep } from './xpath-match.js';
import { PropertyMap } from '../../util/property-map.js';
import { NO_VIOLATIONS } from '../engine.js';
import { pushLocated } from '../report-bounds.js';

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

/** The structural asserts of one rule context, evaluated together (see violationsOf). */
interface ContextGroup {
  context: string;
  /** The context compiled once (see contextHandle). */
  handle: ContextHandle | string;
  ids: string[];
  /** Result slot of the group's first assert; its asserts have consecutive slots. */
  firstSlot: number;
  /** Scratch counts of one node, reused: evaluation is synchronous and never re-entered. */
  counts: Int32Array;
  /** Per assert: its test, or undefined when it is a child count (then `bounds` says what holds). */
  tests: (NodeTest | undefined)[];
  bounds: ({ op: '=' | '<=' | '>='; n: number } | undefined)[];
  /**
   * The child counts as parallel arrays, compared name by name: a group counts a handful of names, and
   * a scan of a few adjacent pointers costs less than a lookup in one of 87 Maps spread over the heap
   * (the Map lookups were half of this evaluation's time). singleChildStep gives internalized names,
   * like the parser's, so each compare is a pointer compare.
   */
  countedLocal: string[];
  countedNs: string[];
  countedIndex: number[];
}

/**
 * Per document: the violations of every structural assert by slot, filled one context group at a
 * time. A hidden property of the document, not a WeakMap (whose entries the young-generation GC keeps
 * alive and promotes), and an array by slot, not a Map by id (~200 ids set per typical invoice).
 */
const results = new PropertyMap<XmlDoc, (readonly Violation[] | undefined)[]>('fxStructure');
let slotCount = 0;

function holds(count: number, bound: { op: '=' | '<=' | '>='; n: number }): boolean {
  return bound.op === '=' ? count === bound.n : bound.op === '<=' ? count <= bound.n : count >= bound.n;
}

function violationsOf(doc: XmlDoc, slot: number, group: ContextGroup): readonly Violation[] {
  let bySlot = results.get(doc);
  if (!bySlot) results.set(doc, (bySlot = new Array<readonly Violation[] | undefined>(slotCount)));
  const found = bySlot[slot];
  if (found) return found;
  evaluateGroup(doc, group, bySlot);
  return bySlot[slot]!;
}

function evaluateGroup(doc: XmlDoc, group: ContextGroup, bySlot: (readonly Violation[] | undefined)[]): void {
  // One pass over the context's nodes runs all of its asserts while each node is at hand, and one
  // pass over each node's children counts every name the asserts count: a line context carries ~20
  // asserts, and one walk per assert over 10,000 lines cost 5 ms each. Lists are made only for
  // asserts that fail: most contexts of a profile are absent from a typical invoice.
  const size = group.ids.length;
  const counts = group.counts;
  let lists: Violation[][] | undefined;
  for (const node of contextNodes(doc, group.handle)) {
    counts.fill(0);
    const children = node.children;
    const countedLocal = group.countedLocal;
    for (let c = 0; c < children.length; c++) {
      const local = children[c].local;
      for (let k = 0; k < countedLocal.length; k++) {
        if (countedLocal[k] === local && group.countedNs[k] === children[c].ns) counts[group.countedIndex[k]]++;
      }
    }
    for (let i = 0; i < size; i++) {
      const test = group.tests[i];
      const ok = test ? test(node) : holds(counts[i], group.bounds[i]!);
      if (ok) continue;
      lists ??= [];
      lists[i] = pushLocated(lists[i], node, where);
    }
  }
  for (let i = 0; i < size; i++) bySlot[group.firstSlot + i] = lists?.[i] ?? NO_VIOLATIONS;
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
    let group = groups.get(context);
    if (!group)
      groups.set(
        context,
        (group = {
          context,
          handle: contextHandle(context),
          ids: [],
          firstSlot: 0,
          counts: new Int32Array(0),
          tests: [],
          bounds: [],
          countedLocal: [],
          countedNs: [],
          countedIndex: [],
        }),
      );
    const index = group.ids.length;
    group.ids.push(id);
    const single = t.kind === 'count' ? singleChildStep(t.child) : undefined;
    if (t.kind === 'count' && single) {
      group.tests.push(undefined);
      group.bounds.push({ op: t.op, n: t.n });
      group.countedLocal.push(single.local);
      group.countedNs.push(single.ns);
      group.countedIndex.push(index);
    } else {
      let test: NodeTest;
      if (t.kind === 'attr') test = (node) => attr(node, t.name) !== undefined;
      else {
        const count = compileCount(t.child);
        const bound = { op: t.op, n: t.n };
        test = (node) => holds(count(node), bound);
      }
      group.tests.push(test);
      group.bounds.push(undefined);
    }
    const inGroup = group;
    rules.push({
      id,
      severity: 'error',
      message: message(t, context),
      check: (ctx) => violationsOf(ctx.doc, inGroup.firstSlot + index, inGroup),
    });
  }
  for (const group of groups.values()) {
    group.firstSlot = slotCount;
    slotCount += group.ids.length;
    group.counts = new Int32Array(group.ids.length);
  }
  cached = rules;
  return rules;
}
