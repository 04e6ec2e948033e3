/**
 * The code-list asserts of the Factur-X profile schematrons (FX-SCH-A-* "value of X is not
 * allowed"), evaluated as data: each generated entry carries the rule context, the tested node and
 * the accepted codes (Factur-X code database 1.09.2). Like the official asserts, an empty value is
 * accepted (the list is checked only when a value is given) and values are compared exactly.
 */
import { elementsNamedAnywhere, type XmlDoc, type XmlElement } from '../../xml/dom.js';
import { CODELISTS } from '../data/codelists.js';
import type { Rule, Violation } from '../types.js';
import { attr, NS, text, where } from '../xrechnung/dom.js';
import { compileMatch, compileSelect, compileStepTest, lastLocalName, type ElementMatcher } from './xpath-match.js';
import { PropertyMap } from '../../util/property-map.js';
import { NO_VIOLATIONS } from '../engine.js';
import { internalize } from '../../util/internalize.js';
import { pushLocated } from '../report-bounds.js';
import type { FxReleaseDelta } from './release-delta-types.js';

/** Elements by local name: the document's shared index (src/xml/dom.ts). */
export function elementsNamed(doc: XmlDoc, local: string): XmlElement[] {
  return elementsNamedAnywhere(doc, local);
}

/**
 * How a context is looked up, compiled once per context string (contexts come from the rule tables,
 * never from documents): a plain absolute path is resolved step by step from the root, anything
 * else is matched against the elements named like its last step. `id` numbers the per-document
 * result slot. Compiling per document (regex test, splitting the path, building string keys) cost
 * more than the lookups themselves on a 26 KB invoice.
 */
type CompiledContext = { id: number } & ({ plain: ContextStep } | { match: ReturnType<typeof compileMatch>; names: string[] });

/**
 * The plain contexts' steps as one trie shared by all contexts (not by documents): contexts share
 * long prefixes (/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/...), so per document each
 * distinct prefix is resolved once (see resolveStep) instead of once per context. A step with
 * predicates (`ram:AdditionalReferencedDocument[ram:TypeCode="916"]`) is a filter of its plain step:
 * contexts of absolute child steps with predicates (a quarter of a profile's contexts) then cost a
 * filter of the few elements at that step, not an upward match from every element named like their last step.
 */
interface ContextStep {
  /** Index into a document's resolved-step array. */
  id: number;
  parent: ContextStep | undefined;
  ns: string;
  local: string;
  next: Map<string, ContextStep>;
  /**
   * The same child steps as parallel arrays of ids and (internalized) names, which resolveChildSteps reads
   * for every document: a few adjacent arrays instead of one object per child step, because that scan is
   * bound by memory access (it cost ~0.6 µs per parent inside the pipeline with the steps as objects).
   */
  kidIds: number[];
  kidLocal: string[];
  kidNs: string[];
  /** For a step with many child steps (a line has ~150 in the catalogues): their indexes in kidIds by local name. */
  kidsByLocal: Map<string, number[]> | undefined;
  /** For a step with predicates: the same step without them, and the name-and-predicates test. */
  base?: ContextStep;
  filter?: ElementMatcher;
  /** The filtered versions of this step, by their step text. */
  filtered?: Map<string, ContextStep>;
}
const contextSteps: ContextStep[] = [];
const topSteps = new Map<string, ContextStep>();
/** By step id: number of the resolveChildSteps scan that last resolved the step (scratch, see there). */
const scanOf: number[] = [];
/** Above this many child steps, a step's children are matched through kidsByLocal instead of a scan of kidLocal. */
const KID_SCAN_MAX = 16;

function newStep(parent: ContextStep | undefined, ns: string, local: string): ContextStep {
  const step: ContextStep = {
    id: contextSteps.length,
    parent,
    ns,
    local: internalize(local),
    next: new Map(),
    kidIds: [],
    kidLocal: [],
    kidNs: [],
    kidsByLocal: undefined,
  };
  contextSteps.push(step);
  scanOf.push(0);
  return step;
}

function stepUnder(parent: ContextStep | undefined, ns: string, local: string): ContextStep {
  const siblings = parent ? parent.next : topSteps;
  const key = `${ns} ${local}`;
  let step = siblings.get(key);
  if (!step) {
    step = newStep(parent, ns, local);
    siblings.set(key, step);
    if (parent) {
      const index = parent.kidIds.length;
      parent.kidIds.push(step.id);
      parent.kidLocal.push(step.local);
      parent.kidNs.push(ns);
      if (parent.kidsByLocal) addKid(parent.kidsByLocal, step.local, index);
      else if (parent.kidIds.length > KID_SCAN_MAX) {
        parent.kidsByLocal = new Map();
        for (let i = 0; i < parent.kidIds.length; i++) addKid(parent.kidsByLocal, parent.kidLocal[i], i);
      }
    }
  }
  return step;
}

function addKid(byLocal: Map<string, number[]>, local: string, index: number): void {
  const sameName = byLocal.get(local);
  if (sameName) sameName.push(index);
  else byLocal.set(local, [index]);
}

/** The step `text` (a name with predicates) as a filter of the plain step `base`. */
function filteredStep(base: ContextStep, text: string): ContextStep {
  base.filtered ??= new Map();
  let step = base.filtered.get(text);
  if (!step) {
    const filter = compileStepTest(text);
    step = newStep(base.parent, base.ns, base.local);
    step.base = base;
    step.filter = filter;
    base.filtered.set(text, step);
  }
  return step;
}

/**
 * The steps of an absolute path of child steps, predicates included (`/a:B/a:C[p]/a:D`), split at
 * the slashes outside predicates and quotes; undefined for anything else (`//`, unions, other axes).
 */
function childSteps(context: string): string[] | undefined {
  if (!context.startsWith('/') || context.startsWith('//')) return undefined;
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 1;
  for (let i = 1; i < context.length; i++) {
    const c = context[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (depth === 0 && (c === '|' || c === ' ')) return undefined;
    else if (depth === 0 && c === '/') {
      if (i === start) return undefined;
      parts.push(context.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0 || quote || start >= context.length) return undefined;
  parts.push(context.slice(start));
  return parts.every((part) => STEP_WITH_PREDICATES.test(part)) ? parts : undefined;
}
const STEP_WITH_PREDICATES = /^[A-Za-z]+:[A-Za-z_][\w.-]*(?:\[.*\])?$/s;

/** The trie step of an absolute path of child steps (some with predicates), or undefined when it does not fit. */
function stepOfChildPath(context: string): ContextStep | undefined {
  const parts = childSteps(context);
  if (!parts || parts[0].includes('[')) return undefined;
  try {
    let step: ContextStep | undefined;
    for (const part of parts) {
      const bracket = part.indexOf('[');
      const name = bracket < 0 ? part : part.slice(0, bracket);
      const [prefix, local] = name.split(':');
      const ns = NS[prefix];
      if (ns === undefined) return undefined;
      step = stepUnder(step, ns, local);
      if (bracket >= 0) step = filteredStep(step, part);
    }
    return step;
  } catch {
    return undefined; // a predicate we cannot compile: the context is matched as a whole (and fails there, as before)
  }
}

const compiledContexts = new Map<string, CompiledContext>();

function compileContext(context: string): CompiledContext {
  let c = compiledContexts.get(context);
  if (c) return c;
  const id = compiledContexts.size;
  // An absolute path of child steps (with or without predicates) is a trie step; anything else, and a
  // path with an unknown prefix (which compileMatch refuses), is matched element by element.
  const step = stepOfChildPath(context);
  c = step ? { id, plain: step } : { id, match: compileMatch(context), names: [...new Set(lastLocalName(context))] };
  compiledContexts.set(context, c);
  return c;
}

/**
 * What one document's lookups found, in an array indexed by context-step id (a
 * Map per document, or an index of every element path, cost ~100 KB of garbage per invoice; most
 * profile contexts name elements the invoice does not have, and are settled at their first
 * missing step).
 */
interface DocLookups {
  /** Elements at a context step; null when there are none. */
  steps: (XmlElement[] | null | undefined)[];
  /** Contexts that are not a path of steps, matched element by element (none in the current catalogues). */
  matched: Map<number, XmlElement[]> | undefined;
}
const lookups = new PropertyMap<XmlDoc, DocLookups>();

/**
 * The elements a rule context matches, in document order. Cached per document: the code-list,
 * structural and not-used rules of a profile share many contexts. Callers must not modify the
 * returned array.
 */
export function contextNodes(doc: XmlDoc, context: string | ContextHandle): XmlElement[] {
  let state = lookups.get(doc);
  // Sized up front: filled at scattered ids, a growing array went through dictionary mode (~30 KB of garbage per invoice).
  // A path context's elements are its last step's, so the steps are all there is to cache (a second
  // array by context id was 7 KB more per invoice).
  if (!state) lookups.set(doc, (state = { steps: new Array(contextSteps.length), matched: undefined }));
  const compiled = typeof context === 'string' ? compileContext(context) : context;
  if ('plain' in compiled) return resolveStep(doc, state, compiled.plain) ?? NONE;
  state.matched ??= new Map();
  let out = state.matched.get(compiled.id);
  if (out) return out;
  out = [];
  for (const name of compiled.names) for (const el of elementsNamed(doc, name)) if (compiled.match(el)) out.push(el);
  state.matched.set(compiled.id, out);
  return out;
}

/** A rule context compiled ahead, for contextNodes (what it costs per call is then one array read). */
export type ContextHandle = CompiledContext;

/**
 * Compile a rule table's context when the table is built, not at each of its lookups (~350 per typical
 * invoice for fx-en16931). A context that does not compile stays a string, so it fails when used, as before.
 */
export function contextHandle(context: string): ContextHandle | string {
  try {
    return compileContext(context);
  } catch {
    return context;
  }
}

const NONE: XmlElement[] = [];

/**
 * The document's elements at a context step, resolving (and remembering) its parent steps first.
 * Parents come in document order and each one's children in order, so the result is in document order.
 */
function resolveStep(doc: XmlDoc, state: DocLookups, step: ContextStep): XmlElement[] | null {
  const known = state.steps[step.id];
  if (known !== undefined) return known;
  if (step.base) {
    let found: XmlElement[] | null = null;
    const all = resolveStep(doc, state, step.base);
    if (all) for (const el of all) if (step.filter!(el)) (found ??= []).push(el);
    state.steps[step.id] = found;
    return found;
  }
  if (!step.parent) {
    const found = doc.root.local === step.local && doc.root.ns === step.ns ? [doc.root] : null;
    state.steps[step.id] = found;
    return found;
  }
  resolveChildSteps(state, step.parent, resolveStep(doc, state, step.parent));
  return state.steps[step.id] ?? null;
}

/**
 * Resolve every not yet resolved child step of `parent` in one scan of the parents' children: a
 * line context has ~150 child steps in the profile catalogues, and scanning all 10,000 lines' children
 * once per step (comparing names each time) cost ~50 ms on a 10,000-line invoice.
 */
function resolveChildSteps(state: DocLookups, parent: ContextStep, parents: XmlElement[] | null): void {
  // The steps this scan resolves start as "none" and carry its number; no list or Map per scan (most
  // parents of a typical invoice's profile contexts are absent, and then nothing else is done).
  const scan = ++scans;
  let todo = 0;
  const steps = state.steps;
  const ids = parent.kidIds;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (steps[id] !== undefined) continue;
    steps[id] = null;
    scanOf[id] = scan;
    todo++;
  }
  if (todo === 0 || !parents) return;
  const kidLocal = parent.kidLocal;
  const kidNs = parent.kidNs;
  const byLocal = parent.kidsByLocal;
  for (let k = 0; k < parents.length; k++) {
    const children = parents[k].children;
    for (let i = 0; i < children.length; i++) {
      const c = children[i];
      if (byLocal === undefined) {
        for (let j = 0; j < kidLocal.length; j++) if (kidLocal[j] === c.local && kidNs[j] === c.ns) take(steps, ids[j], scan, c);
      } else {
        const named = byLocal.get(c.local);
        if (named !== undefined) for (let j = 0; j < named.length; j++) if (kidNs[named[j]] === c.ns) take(steps, ids[named[j]], scan, c);
      }
    }
  }
}

/** Add `el` to step `id`, unless an earlier scan resolved the step (its context was compiled before: it keeps its list). */
function take(steps: (XmlElement[] | null | undefined)[], id: number, scan: number, el: XmlElement): void {
  if (scanOf[id] !== scan) return;
  const list = steps[id];
  if (list) list.push(el);
  else steps[id] = [el];
}
let scans = 0;

/**
 * The official assert on one context node: string-length($value) = 0 or the code database holds
 * $value (as a general comparison: some selected value is listed). Every catalogued target is the
 * node itself or one of its attributes, read directly; other paths go through the XPath selection.
 */
function compileCodeTest(target: string, accepted: ReadonlySet<string>): (node: XmlElement) => boolean {
  if (target === '.') {
    return (node) => {
      const v = text(node);
      return v === '' || accepted.has(v);
    };
  }
  const attribute = /^@([A-Za-z_][\w.-]*)$/.exec(target)?.[1];
  if (attribute !== undefined) {
    return (node) => {
      const v = attr(node, attribute);
      return v === undefined || v === '' || accepted.has(v);
    };
  }
  const select = compileSelect(target);
  return (node) => {
    const values = select(node);
    return values.length === 0 || (values.length === 1 && values[0] === '') || values.some((v) => accepted.has(v));
  };
}

function describeTarget(target: string): string {
  return target === '.' ? 'value' : target.startsWith('@') ? `attribute ${target}` : target;
}

export function codeListRules(set: string, delta?: FxReleaseDelta): Rule[] {
  const entries = CODELISTS[set] ?? {};
  const rules: Rule[] = [];
  const make = (id: string, context: string, target: string, codes: Set<string>): Rule => {
    const handle = contextHandle(context);
    const allowed = compileCodeTest(target, codes);
    const contextName = lastLocalName(context)[0];
    return {
      id,
      severity: 'error',
      message: `The ${describeTarget(target)} of ${contextName.replace(/\[.*$/, '')} is not a code this profile allows.`,
      check(ctx) {
        let out: Violation[] | undefined;
        const nodes = contextNodes(ctx.doc, handle);
        for (let i = 0; i < nodes.length; i++) if (!allowed(nodes[i])) out = pushLocated(out, nodes[i], where);
        return out ?? NO_VIOLATIONS;
      },
    };
  };
  for (const [id, entry] of Object.entries(entries)) {
    if (!id.startsWith('FX-SCH-A-') || !entry.context || !entry.target || !entry.guarded) continue;
    const codes = new Set(entry.codes);
    // An older release's list: the bundled one with the codes that release adds and lacks.
    const diff = delta?.codes[id];
    if (diff) {
      for (const c of diff.remove) codes.delete(c);
      for (const c of diff.add) codes.add(c);
    }
    rules.push(make(id, entry.context, entry.target, codes));
  }
  // An older release's code-list asserts at contexts the bundled release no longer checks. Their ids are
  // shared with other asserts in that release: the table id is made unique, findings carry the release's id.
  delta?.extraCodes.forEach((e, n) => {
    rules.push({ ...make(`${e.id}#old${n}`, e.context, e.target, new Set(e.codes)), reportId: e.id });
  });
  return rules;
}

export type { XmlElement };
