/**
 * A small XPath subset, enough for the rule contexts of the Factur-X profile schematrons as the rule
 * catalogue records them (absolute and `//` paths with equality predicates, `not`, `and`, `or`,
 * `upper-case`, `normalize-space`). `compileMatch` turns a context into a predicate on elements, so a
 * data table of contexts can be evaluated in one walk of the document. Unsupported syntax throws at
 * compile time, so a context we cannot express is never silently misread.
 */
import type { XmlElement } from '../../xml/dom.js';
import { NS, attr, text } from '../xrechnung/dom.js';
import { internalize } from '../../util/internalize.js';

type Expr =
  | { t: 'or' | 'and'; a: Expr; b: Expr }
  | { t: 'not'; e: Expr }
  | { t: 'cmp'; op: '=' | '!='; a: Expr; b: Expr }
  | { t: 'lit'; v: string }
  | { t: 'num'; v: number }
  | { t: 'fn'; name: 'upper-case' | 'normalize-space' | 'true' | 'false'; args: Expr[] }
  | { t: 'path'; path: RelPath };

interface Step {
  axis: 'child' | 'desc' | 'self' | 'parent' | 'attr';
  ns?: string;
  local?: string;
  preds: Expr[];
}
interface RelPath {
  absolute: boolean;
  steps: Step[];
}

// ---------------------------------------------------------------------------------------------
// Tokenizer and parser

function tokenize(src: string): string[] {
  const out: string[] = [];
  const re =
    /\s*(\/\/|\/|\.\.|\.|\[|\]|\(|\)|!=|=|\||@|,|'[^']*'|"[^"]*"|[0-9]+(?:\.[0-9]+)?|[A-Za-z_][\w.-]*:[A-Za-z_][\w.-]*|[A-Za-z_][\w-]*)/y;
  let pos = 0;
  while (pos < src.length) {
    if (/^\s*$/.test(src.slice(pos))) break;
    re.lastIndex = pos;
    const m = re.exec(src);
    if (!m) throw new Error(`unsupported context syntax at ${pos}: ${src}`);
    out.push(m[1]);
    pos = re.lastIndex;
  }
  return out;
}

class Parser {
  private i = 0;
  constructor(
    private readonly toks: string[],
    private readonly src: string,
  ) {}
  peek(): string | undefined {
    return this.toks[this.i];
  }
  next(): string {
    const t = this.toks[this.i++];
    if (t === undefined) throw new Error(`unexpected end of ${this.src}`);
    return t;
  }
  expect(t: string): void {
    const n = this.next();
    if (n !== t) throw new Error(`expected ${t} but got ${n} in ${this.src}`);
  }
  done(): boolean {
    return this.i >= this.toks.length;
  }

  union(): RelPath[] {
    const paths = [this.path()];
    while (this.peek() === '|') {
      this.next();
      paths.push(this.path());
    }
    return paths;
  }

  path(): RelPath {
    const steps: Step[] = [];
    let absolute = false;
    let axis: Step['axis'] = 'child';
    if (this.peek() === '/' || this.peek() === '//') {
      absolute = true;
      if (this.next() === '//') axis = 'desc';
    }
    for (;;) {
      steps.push(this.step(axis));
      const p = this.peek();
      if (p === '/') axis = 'child';
      else if (p === '//') axis = 'desc';
      else break;
      this.next();
    }
    return { absolute, steps };
  }

  step(axis: Step['axis']): Step {
    const t = this.next();
    let step: Step;
    if (t === '.') step = { axis: 'self', preds: [] };
    else if (t === '..') step = { axis: 'parent', preds: [] };
    else if (t === '@') step = { axis: 'attr', local: this.next(), preds: [] };
    else if (t.includes(':')) {
      const [prefix, local] = t.split(':');
      const ns = NS[prefix];
      if (ns === undefined) throw new Error(`unknown prefix ${prefix} in ${this.src}`);
      step = { axis, ns, local, preds: [] };
    } else throw new Error(`unsupported step ${t} in ${this.src}`);
    while (this.peek() === '[') {
      this.next();
      step.preds.push(this.expr());
      this.expect(']');
    }
    return step;
  }

  expr(): Expr {
    let a = this.andExpr();
    while (this.peek() === 'or') {
      this.next();
      a = { t: 'or', a, b: this.andExpr() };
    }
    return a;
  }
  andExpr(): Expr {
    let a = this.cmp();
    while (this.peek() === 'and') {
      this.next();
      a = { t: 'and', a, b: this.cmp() };
    }
    return a;
  }
  cmp(): Expr {
    const a = this.primary();
    const p = this.peek();
    if (p === '=' || p === '!=') {
      this.next();
      return { t: 'cmp', op: p, a, b: this.primary() };
    }
    return a;
  }
  primary(): Expr {
    const t = this.peek();
    if (t === undefined) throw new Error(`unexpected end of ${this.src}`);
    if (t.startsWith("'") || t.startsWith('"')) {
      this.next();
      return { t: 'lit', v: t.slice(1, -1) };
    }
    if (/^[0-9]/.test(t)) {
      this.next();
      return { t: 'num', v: Number(t) };
    }
    if (t === '(') {
      this.next();
      const e = this.expr();
      this.expect(')');
      return e;
    }
    if (t === 'not') {
      this.next();
      this.expect('(');
      const e = this.expr();
      this.expect(')');
      return { t: 'not', e };
    }
    if (t === 'upper-case' || t === 'normalize-space' || t === 'true' || t === 'false') {
      this.next();
      this.expect('(');
      const args: Expr[] = [];
      if (this.peek() !== ')') {
        args.push(this.expr());
        while (this.peek() === ',') {
          this.next();
          args.push(this.expr());
        }
      }
      this.expect(')');
      return { t: 'fn', name: t, args };
    }
    return { t: 'path', path: this.path() };
  }
}

// ---------------------------------------------------------------------------------------------
// Evaluation: expressions and paths are compiled once into closures. A path is a walker that hands
// each selected node to a visitor, which can stop the walk (existence and comparisons stop at the
// first hit; counting never builds an array). The first version interpreted the expression tree per
// node and built a Value object and an array per step: ~200 KB of garbage per invoice.

type Node = XmlElement | string;
/** Called for each selected node; returns true to stop the walk. */
type Visit = (n: Node) => boolean;
/** Walks the nodes a path selects from `ctx`; returns true when the visitor stopped it. */
type Walker = (ctx: XmlElement, visit: Visit) => boolean;
type Test = (el: XmlElement) => boolean;

/** An operand of a comparison or a function, by what it is known to be at compile time. */
type Operand =
  | { kind: 'str'; value: (ctx: XmlElement) => string }
  | { kind: 'num'; value: number }
  | { kind: 'bool'; value: (ctx: XmlElement) => boolean }
  | { kind: 'nodes'; walk: Walker };

const stringOf = (n: Node): string => (typeof n === 'string' ? n : text(n));

function rootOf(el: XmlElement): XmlElement {
  let r = el;
  while (r.parent) r = r.parent;
  return r;
}

/** Name test plus predicates of an element step. */
function stepTest(s: Step): Test {
  const { local, ns } = s;
  const preds = s.preds.map(compileBool);
  if (preds.length === 0) return (el) => el.local === local && el.ns === ns;
  return (el) => {
    if (el.local !== local || el.ns !== ns) return false;
    for (const p of preds) if (!p(el)) return false;
    return true;
  };
}

/** Visit every descendant of `el` (not `el` itself) that passes `test`, in document order. */
function walkDescendants(el: XmlElement, test: Test, rest: Walker, visit: Visit): boolean {
  for (const c of el.children) {
    if (test(c) && rest(c, visit)) return true;
    if (c.children.length && walkDescendants(c, test, rest, visit)) return true;
  }
  return false;
}

/** The walker of steps[i..] from a context node. */
function compileSteps(steps: Step[], i: number): Walker {
  if (i === steps.length) return (ctx, visit) => visit(ctx);
  const s = steps[i];
  if (s.axis === 'attr') {
    if (i !== steps.length - 1) throw new Error('an attribute step must be the last step');
    const local = s.local!;
    return (ctx, visit) => {
      const v = attr(ctx, local);
      return v !== undefined && visit(v);
    };
  }
  const rest = compileSteps(steps, i + 1);
  if (s.axis === 'parent') return (ctx, visit) => ctx.parent !== null && rest(ctx.parent, visit);
  if (s.axis === 'self') {
    const preds = s.preds.map(compileBool);
    return (ctx, visit) => {
      for (const p of preds) if (!p(ctx)) return false;
      return rest(ctx, visit);
    };
  }
  const test = stepTest(s);
  if (s.axis === 'child') {
    return (ctx, visit) => {
      for (const c of ctx.children) if (test(c) && rest(c, visit)) return true;
      return false;
    };
  }
  return (ctx, visit) => walkDescendants(ctx, test, rest, visit);
}

function compilePath(path: RelPath): Walker {
  if (!path.absolute) return compileSteps(path.steps, 0);
  // Absolute: from the document node, whose only child is the root element.
  const first = path.steps[0];
  const firstTest = stepTest(first);
  const rest = compileSteps(path.steps, 1);
  if (first.axis === 'desc') {
    return (ctx, visit) => {
      const root = rootOf(ctx);
      return (firstTest(root) && rest(root, visit)) || walkDescendants(root, firstTest, rest, visit);
    };
  }
  return (ctx, visit) => {
    const root = rootOf(ctx);
    return firstTest(root) && rest(root, visit);
  };
}

const STOP: Visit = () => true;

function compileOperand(e: Expr): Operand {
  switch (e.t) {
    case 'lit': {
      const v = e.v;
      return { kind: 'str', value: () => v };
    }
    case 'num':
      return { kind: 'num', value: e.v };
    case 'path':
      return { kind: 'nodes', walk: compilePath(e.path) };
    case 'fn': {
      if (e.name === 'true' || e.name === 'false') {
        const v = e.name === 'true';
        return { kind: 'bool', value: () => v };
      }
      const arg = compileString(e.args[0]);
      return e.name === 'upper-case'
        ? { kind: 'str', value: (ctx) => arg(ctx).toUpperCase() }
        : {
            kind: 'str',
            value: (ctx) =>
              arg(ctx)
                .replace(/[ \t\r\n]+/g, ' ')
                .trim(),
          };
    }
    default:
      return { kind: 'bool', value: compileBool(e) };
  }
}

/** XPath string(): the first selected node's string value, or the value itself. */
function compileString(e: Expr): (ctx: XmlElement) => string {
  const op = compileOperand(e);
  switch (op.kind) {
    case 'str':
      return op.value;
    case 'num': {
      const v = String(op.value);
      return () => v;
    }
    case 'bool':
      return (ctx) => String(op.value(ctx));
    case 'nodes':
      return (ctx) => {
        let first = '';
        op.walk(ctx, (n) => ((first = stringOf(n)), true));
        return first;
      };
  }
}

type Atom = string | number | boolean;

function atomsEqual(x: Atom, y: Atom): boolean {
  if (typeof x === 'boolean' || typeof y === 'boolean') return Boolean(x) === Boolean(y);
  if (typeof x === 'number' || typeof y === 'number') return Number(x) === Number(y);
  return x === y;
}

/** The atoms of an operand (general comparisons of two node-sets only; not on the hot path). */
function atomsOf(op: Operand, ctx: XmlElement): Atom[] {
  if (op.kind === 'nodes') {
    const out: Atom[] = [];
    op.walk(ctx, (n) => (out.push(stringOf(n)), false));
    return out;
  }
  return [op.kind === 'num' ? op.value : op.value(ctx)];
}

/**
 * `p:A/p:B = 'x'` (or `!=`, or ending on an attribute): child steps without predicates against a literal, the
 * usual predicate of the profile contexts (`[ram:TypeCode="916"]`, `[ram:ChargeIndicator/udt:Indicator="true"]`).
 * Compiled to a plain nested loop: the general walker made a visitor closure per call, and these filters are
 * run on every element of their base step in every document.
 */
function literalCompare(path: Expr, literal: Expr, equal: boolean): Test | undefined {
  if (path.t !== 'path' || literal.t !== 'lit' || path.path.absolute) return undefined;
  const steps = path.path.steps;
  const last = steps[steps.length - 1];
  const attribute = last?.axis === 'attr' ? last.local! : undefined;
  const elementSteps = attribute === undefined ? steps : steps.slice(0, -1);
  if (elementSteps.some((s) => s.axis !== 'child' || s.preds.length > 0)) return undefined;
  const locals = elementSteps.map((s) => internalize(s.local!));
  const namespaces = elementSteps.map((s) => s.ns!);
  const value = literal.v;
  const from = (el: XmlElement, i: number): boolean => {
    if (i === locals.length) {
      const v = attribute === undefined ? text(el) : attr(el, attribute);
      return v !== undefined && (v === value) === equal;
    }
    const children = el.children;
    for (let k = 0; k < children.length; k++) {
      const c = children[k];
      if (c.local === locals[i] && c.ns === namespaces[i] && from(c, i + 1)) return true;
    }
    return false;
  };
  return (ctx) => from(ctx, 0);
}

/** XPath general comparison: true when some pair of atoms compares as `op` says. */
function compileCompare(e: Extract<Expr, { t: 'cmp' }>): Test {
  const fast = literalCompare(e.a, e.b, e.op === '=') ?? literalCompare(e.b, e.a, e.op === '=');
  if (fast) return fast;
  const a = compileOperand(e.a);
  const b = compileOperand(e.b);
  const equal = e.op === '=';
  const hit = (x: Atom, y: Atom) => atomsEqual(x, y) === equal;
  // The usual shape: a node-set against one value. Walk the nodes, stop at the first hit.
  const single =
    (nodes: Walker, other: Operand, swap: boolean): Test =>
    (ctx) => {
      const y: Atom = other.kind === 'num' ? other.value : (other as { value: (c: XmlElement) => Atom }).value(ctx);
      return nodes(ctx, (n) => (swap ? hit(y, stringOf(n)) : hit(stringOf(n), y)));
    };
  if (a.kind === 'nodes' && b.kind !== 'nodes') return single(a.walk, b, false);
  if (b.kind === 'nodes' && a.kind !== 'nodes') return single(b.walk, a, true);
  return (ctx) => {
    const xs = atomsOf(a, ctx);
    const ys = atomsOf(b, ctx);
    return xs.some((x) => ys.some((y) => hit(x, y)));
  };
}

/** An expression as a boolean (XPath boolean(): a node-set is true when not empty). */
function compileBool(e: Expr): Test {
  switch (e.t) {
    case 'not': {
      const inner = compileBool(e.e);
      return (ctx) => !inner(ctx);
    }
    case 'and': {
      const x = compileBool(e.a);
      const y = compileBool(e.b);
      return (ctx) => x(ctx) && y(ctx);
    }
    case 'or': {
      const x = compileBool(e.a);
      const y = compileBool(e.b);
      return (ctx) => x(ctx) || y(ctx);
    }
    case 'cmp':
      return compileCompare(e);
    case 'lit': {
      const v = e.v !== '';
      return () => v;
    }
    case 'num': {
      const v = e.v !== 0;
      return () => v;
    }
    case 'path': {
      const walk = compilePath(e.path);
      return (ctx) => walk(ctx, STOP);
    }
    case 'fn': {
      if (e.name === 'true' || e.name === 'false') {
        const v = e.name === 'true';
        return () => v;
      }
      const str = compileString(e);
      return (ctx) => str(ctx) !== '';
    }
  }
}

/** Does `node` match step `i` of `path` and its ancestors the steps before it (XSLT match semantics)? */
function compileMatchPath(path: RelPath): Test {
  const tests = path.steps.map((s) => {
    if (s.axis !== 'child' && s.axis !== 'desc') throw new Error('only element steps are supported in match patterns');
    return stepTest(s);
  });
  const from = (node: XmlElement, i: number): boolean => {
    if (!tests[i](node)) return false;
    const s = path.steps[i];
    if (i === 0) return !path.absolute || s.axis === 'desc' || node.parent === null;
    if (s.axis === 'child') return node.parent !== null && from(node.parent, i - 1);
    for (let p = node.parent; p; p = p.parent) if (from(p, i - 1)) return true;
    return false;
  };
  const last = path.steps.length - 1;
  return (el) => from(el, last);
}

export type ElementMatcher = (el: XmlElement) => boolean;

const matchCache = new Map<string, ElementMatcher>();

/** Compile a Schematron rule context (a union of paths) into a predicate on elements. */
export function compileMatch(context: string): ElementMatcher {
  let m = matchCache.get(context);
  if (m) return m;
  const p = new Parser(tokenize(context), context);
  const paths = p.union().map(compileMatchPath);
  if (!p.done()) throw new Error(`trailing syntax in ${context}`);
  m =
    paths.length === 1
      ? paths[0]
      : (el) => {
          for (const path of paths) if (path(el)) return true;
          return false;
        };
  matchCache.set(context, m);
  return m;
}

/**
 * Compile one element step of a context (`ram:Name[predicate]...`) into its name test plus predicates,
 * evaluated on the element itself: contexts of absolute child steps are then selected top down (see
 * codelists.ts), which gives the same elements as matching the whole context against each candidate.
 */
export function compileStepTest(step: string): ElementMatcher {
  const p = new Parser(tokenize(step), step);
  const s = p.step('child');
  if (!p.done()) throw new Error(`trailing syntax in ${step}`);
  return stepTest(s);
}

function compileRelative(path: string): Walker {
  const p = new Parser(tokenize(path), path);
  const rel = p.path();
  if (!p.done()) throw new Error(`trailing syntax in ${path}`);
  return compilePath(rel);
}

/** Compile a relative selection (a rule's target such as `@schemeID` or `ram:TypeCode`); returns the selected string values. */
export function compileSelect(path: string): (ctx: XmlElement) => string[] {
  const walk = compileRelative(path);
  return (ctx) => {
    const out: string[] = [];
    walk(ctx, (n) => (out.push(stringOf(n)), false));
    return out;
  };
}

const SINGLE_CHILD_STEP = /^([A-Za-z_][\w.-]*):([A-Za-z_][\w.-]*)$/;

/** The element a relative path names when it is one child step without predicates (`ram:ID`). */
export function singleChildStep(path: string): { ns: string; local: string } | undefined {
  const m = SINGLE_CHILD_STEP.exec(path);
  if (!m) return undefined;
  const ns = NS[m[1]];
  if (ns === undefined) throw new Error(`unknown prefix ${m[1]} in ${path}`);
  // Internalized like the parser's element names, so comparing with them is a pointer compare.
  return { ns, local: internalize(m[2]) };
}

/** Compile a relative selection and return how many nodes it selects (the structural asserts only count). */
export function compileCount(path: string): (ctx: XmlElement) => number {
  const single = singleChildStep(path);
  if (single) {
    // The usual structural assert, `count(p:Name)`: a plain loop, no walker and no visitor closure per call.
    const { ns, local } = single;
    return (ctx) => {
      let n = 0;
      const children = ctx.children;
      for (let i = 0; i < children.length; i++) if (children[i].local === local && children[i].ns === ns) n++;
      return n;
    };
  }
  const walk = compileRelative(path);
  return (ctx) => {
    let n = 0;
    walk(ctx, () => (n++, false));
    return n;
  };
}

const lastNameCache = new Map<string, string[]>();

/** The last element name(s) a context ends with (used to index contexts by element name). */
export function lastLocalName(context: string): string[] {
  let names = lastNameCache.get(context);
  if (!names) {
    const p = new Parser(tokenize(context), context);
    names = p.union().map((path) => path.steps[path.steps.length - 1].local ?? '*');
    lastNameCache.set(context, names);
  }
  return names;
}
