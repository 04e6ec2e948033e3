/**
 * A small XPath subset, enough for the rule contexts of the Factur-X profile schematrons as the rule
 * catalogue records them (absolute and `//` paths with equality predicates, `not`, `and`, `or`,
 * `upper-case`, `normalize-space`). `compileMatch` turns a context into a predicate on elements, so a
 * data table of contexts can be evaluated in one walk of the document. Unsupported syntax throws at
 * compile time, so a context we cannot express is never silently misread.
 */
import type { XmlElement } from '../../xml/dom.js';
import { NS, attr, text } from '../xrechnung/dom.js';

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
  const re = /\s*(\/\/|\/|\.\.|\.|\[|\]|\(|\)|!=|=|\||@|,|'[^']*'|"[^"]*"|[0-9]+(?:\.[0-9]+)?|[A-Za-z_][\w.-]*:[A-Za-z_][\w.-]*|[A-Za-z_][\w-]*)/y;
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
  constructor(private readonly toks: string[], private readonly src: string) {}
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
// Evaluation

type Value = { kind: 'nodes'; nodes: (XmlElement | string)[] } | { kind: 'str'; v: string } | { kind: 'num'; v: number } | { kind: 'bool'; v: boolean };

function rootOf(el: XmlElement): XmlElement {
  let r = el;
  while (r.parent) r = r.parent;
  return r;
}

function stepMatches(el: XmlElement, s: Step): boolean {
  if (el.local !== s.local || el.ns !== s.ns) return false;
  // A plain loop: this runs for every candidate element of every context on every document.
  for (const p of s.preds) if (!truthy(evaluate(p, el))) return false;
  return true;
}

function select(path: RelPath, ctx: XmlElement): (XmlElement | string)[] {
  let current: (XmlElement | string)[];
  if (path.absolute) {
    // The document node: its only child is the root element.
    const root = rootOf(ctx);
    const [first, ...rest] = path.steps;
    current = first.axis === 'desc' ? descendantsOrSelf(root).filter((e) => stepMatches(e, first)) : stepMatches(root, first) ? [root] : [];
    return applySteps(current, rest);
  }
  return applySteps([ctx], path.steps);
}

function descendantsOrSelf(el: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  const stack = [el];
  while (stack.length) {
    const e = stack.pop()!;
    out.push(e);
    for (let i = e.children.length - 1; i >= 0; i--) stack.push(e.children[i]);
  }
  return out;
}

function applySteps(start: (XmlElement | string)[], steps: Step[]): (XmlElement | string)[] {
  let current = start;
  for (const s of steps) {
    const next: (XmlElement | string)[] = [];
    for (const n of current) {
      if (typeof n === 'string') continue;
      if (s.axis === 'self') {
        if (s.preds.every((p) => truthy(evaluate(p, n)))) next.push(n);
      } else if (s.axis === 'parent') {
        if (n.parent) next.push(n.parent);
      } else if (s.axis === 'attr') {
        const v = attr(n, s.local!);
        if (v !== undefined) next.push(v);
      } else if (s.axis === 'child') {
        for (const c of n.children) if (stepMatches(c, s)) next.push(c);
      } else {
        for (const c of n.children) for (const d of descendantsOrSelf(c)) if (stepMatches(d, s)) next.push(d);
      }
    }
    current = next;
  }
  return current;
}

const stringOf = (n: XmlElement | string): string => (typeof n === 'string' ? n : text(n));

function evaluate(e: Expr, ctx: XmlElement): Value {
  switch (e.t) {
    case 'lit':
      return { kind: 'str', v: e.v };
    case 'num':
      return { kind: 'num', v: e.v };
    case 'path':
      return { kind: 'nodes', nodes: select(e.path, ctx) };
    case 'not':
      return { kind: 'bool', v: !truthy(evaluate(e.e, ctx)) };
    case 'and':
      return { kind: 'bool', v: truthy(evaluate(e.a, ctx)) && truthy(evaluate(e.b, ctx)) };
    case 'or':
      return { kind: 'bool', v: truthy(evaluate(e.a, ctx)) || truthy(evaluate(e.b, ctx)) };
    case 'fn': {
      if (e.name === 'true') return { kind: 'bool', v: true };
      if (e.name === 'false') return { kind: 'bool', v: false };
      const s = asString(evaluate(e.args[0], ctx));
      return { kind: 'str', v: e.name === 'upper-case' ? s.toUpperCase() : s.replace(/[ \t\r\n]+/g, ' ').trim() };
    }
    case 'cmp': {
      const a = atoms(evaluate(e.a, ctx));
      const b = atoms(evaluate(e.b, ctx));
      const eq = (x: string | number | boolean, y: string | number | boolean) => {
        if (typeof x === 'boolean' || typeof y === 'boolean') return Boolean(x) === Boolean(y);
        if (typeof x === 'number' || typeof y === 'number') return Number(x) === Number(y);
        return x === y;
      };
      const hit = a.some((x) => b.some((y) => (e.op === '=' ? eq(x, y) : !eq(x, y))));
      return { kind: 'bool', v: hit };
    }
  }
}

function atoms(v: Value): (string | number | boolean)[] {
  if (v.kind === 'nodes') return v.nodes.map(stringOf);
  return [v.v];
}

function asString(v: Value): string {
  if (v.kind === 'nodes') return v.nodes.length ? stringOf(v.nodes[0]) : '';
  return String(v.v);
}

function truthy(v: Value): boolean {
  if (v.kind === 'nodes') return v.nodes.length > 0;
  if (v.kind === 'bool') return v.v;
  if (v.kind === 'num') return v.v !== 0;
  return v.v !== '';
}

/** Does `el` match the last step of `path` and, going up, the steps before it (XSLT match semantics)? */
function matchesPath(el: XmlElement, path: RelPath): boolean {
  return matchFrom(path, el, path.steps.length - 1);
}

/** Does `node` match step `i` of `path` and its ancestors the steps before it? (Top level: no closure per call.) */
function matchFrom(path: RelPath, node: XmlElement, i: number): boolean {
  const s = path.steps[i];
  if (s.axis !== 'child' && s.axis !== 'desc') throw new Error('only element steps are supported in match patterns');
  if (!stepMatches(node, s)) return false;
  if (i === 0) {
    if (!path.absolute) return true;
    return s.axis === 'desc' ? true : node.parent === null;
  }
  if (s.axis === 'child') return node.parent !== null && matchFrom(path, node.parent, i - 1);
  for (let p = node.parent; p; p = p.parent) if (matchFrom(path, p, i - 1)) return true;
  return false;
}

export type ElementMatcher = (el: XmlElement) => boolean;

const matchCache = new Map<string, ElementMatcher>();

/** Compile a Schematron rule context (a union of paths) into a predicate on elements. */
export function compileMatch(context: string): ElementMatcher {
  let m = matchCache.get(context);
  if (m) return m;
  const p = new Parser(tokenize(context), context);
  const paths = p.union();
  if (!p.done()) throw new Error(`trailing syntax in ${context}`);
  m =
    paths.length === 1
      ? (el) => matchesPath(el, paths[0])
      : (el) => {
          for (const path of paths) if (matchesPath(el, path)) return true;
          return false;
        };
  matchCache.set(context, m);
  return m;
}

/** Compile a relative selection (a rule's target such as `@schemeID` or `ram:TypeCode`); returns the selected string values. */
export function compileSelect(path: string): (ctx: XmlElement) => string[] {
  const p = new Parser(tokenize(path), path);
  const rel = p.path();
  if (!p.done()) throw new Error(`trailing syntax in ${path}`);
  return (ctx) => select(rel, ctx).map(stringOf);
}

/**
 * Compile a relative selection and return how many nodes it selects: the structural asserts only
 * count, and turning every selected element into its string value first was most of their cost.
 */
export function compileCount(path: string): (ctx: XmlElement) => number {
  const p = new Parser(tokenize(path), path);
  const rel = p.path();
  if (!p.done()) throw new Error(`trailing syntax in ${path}`);
  return (ctx) => select(rel, ctx).length;
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
