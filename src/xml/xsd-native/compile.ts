/**
 * Compiles a set of XSD files (a main schema and the schemas it imports) into the structure the
 * validator walks: per element declaration its type; per complex type its attributes and either a
 * simple value type or its content model as a deterministic automaton over child element names.
 *
 * Only the part of XML Schema 1.0 the Factur-X XSDs use is implemented. Anything else (facets,
 * wildcards, derivation of complex types, substitution groups, defaults, nillable, includes, ...)
 * makes compilation throw, so that a future schema version cannot be half-checked silently.
 */
import { parseXml, type XmlElement } from '../dom.js';
import { BUILTIN_SIMPLE_TYPES, type SimpleTypeDef } from './simple-types.js';

export const XSD_NS = 'http://www.w3.org/2001/XMLSchema';

export interface ElementDecl {
  ns: string;
  local: string;
  type: TypeDef;
}

export type TypeDef = SimpleTypeDef | ComplexTypeDef;

export interface AttributeDecl {
  local: string;
  required: boolean;
  type: SimpleTypeDef;
}

export interface ComplexTypeDef {
  kind: 'complex';
  name: string;
  attributes: AttributeDecl[];
  required: AttributeDecl[];
  /** Simple content: the value's type. Null for element-only (or empty) content, see `start`. */
  value: SimpleTypeDef | null;
  /** Element-only content: the automaton's start state. */
  start: ContentState | null;
  /**
   * Empty content (no particle, or one that can match nothing but the empty sequence): XML Schema then
   * allows no character data at all, not even whitespace, and no child element.
   */
  empty: boolean;
  /**
   * Wildcard content (`xsd:any processContents="lax"`, UBL's ExtensionContent): any well-formed children,
   * not looked into. Only the UBL structure (src/xml/ubl/schema.ts) sets it; the XSD compiler never does.
   */
  anyContent?: boolean;
}

/** One state of a content model's deterministic automaton. */
export interface ContentState {
  accepting: boolean;
  /**
   * The transitions, in schema order. A list, not a map: states have few transitions, and comparing the
   * child's name with each is cheaper than hashing names the parser sliced out of the document.
   */
  next: Transition[];
  /** The declarations that may come next, in schema order (for messages). */
  expected: ElementDecl[];
}

export interface Transition {
  local: string;
  ns: string;
  decl: ElementDecl;
  to: ContentState;
}

export interface CompiledSchema {
  /** Global element declarations by `${ns} ${local}`: the allowed root elements. */
  roots: Map<string, ElementDecl>;
}

/** Reads a schema file by the name the importing schema gives (schemaLocation). */
export type SchemaFileReader = (name: string) => string;

/** Beyond this many unrolled occurrences a content model would grow too large: refuse rather than guess. */
const MAX_UNROLLED_OCCURS = 64;

export class XsdCompileError extends Error {
  constructor(message: string) {
    super(`XSD not supported by the native validator: ${message}`);
    this.name = 'XsdCompileError';
  }
}

interface SchemaDoc {
  file: string;
  targetNamespace: string;
  qualifiedElements: boolean;
  prefixes: Map<string, string>;
  types: Map<string, XmlElement>;
}

const UNBOUNDED = Number.POSITIVE_INFINITY;

/** Compile `mainFile` and every schema it imports (by namespace, each namespace from one file). */
export function compileSchemaSet(mainFile: string, read: SchemaFileReader): CompiledSchema {
  return new Compiler(read).compile(mainFile);
}

class Compiler {
  private readonly byNamespace = new Map<string, SchemaDoc>();
  private readonly complexTypes = new Map<string, ComplexTypeDef>();
  private readonly simpleTypes = new Map<string, SimpleTypeDef>();
  private readonly roots = new Map<string, ElementDecl>();
  /** Global element declarations, compiled after every file is loaded (types may live in later imports). */
  private readonly pendingRoots: { schema: SchemaDoc; el: XmlElement }[] = [];

  constructor(private readonly read: SchemaFileReader) {}

  compile(mainFile: string): CompiledSchema {
    this.load(mainFile, null);
    for (const { schema, el } of this.pendingRoots) {
      const decl = this.elementDecl(schema, el, schema.targetNamespace);
      this.roots.set(`${decl.ns} ${decl.local}`, decl);
    }
    if (this.roots.size === 0) throw new XsdCompileError(`${mainFile} declares no global element`);
    return { roots: this.roots };
  }

  private load(file: string, expectedNamespace: string | null): void {
    const text = this.read(file);
    const root = parseXml(text).root;
    if (root.ns !== XSD_NS || root.local !== 'schema') throw new XsdCompileError(`${file} is not an xs:schema`);
    allowAttributes(root, ['targetNamespace', 'elementFormDefault', 'attributeFormDefault', 'version', 'id'], file);
    if ((attrOf(root, 'attributeFormDefault') ?? 'unqualified') !== 'unqualified') {
      throw new XsdCompileError(`${file}: attributeFormDefault="qualified"`);
    }
    const targetNamespace = attrOf(root, 'targetNamespace') ?? '';
    if (expectedNamespace !== null && targetNamespace !== expectedNamespace) {
      throw new XsdCompileError(`${file} has target namespace ${targetNamespace}, imported as ${expectedNamespace}`);
    }
    if (this.byNamespace.has(targetNamespace)) throw new XsdCompileError(`two schema files for namespace ${targetNamespace}`);
    const schema: SchemaDoc = {
      file,
      targetNamespace,
      qualifiedElements: attrOf(root, 'elementFormDefault') === 'qualified',
      prefixes: namespaceDeclarations(text, file),
      types: new Map(),
    };
    this.byNamespace.set(targetNamespace, schema);

    const imports: { namespace: string; location: string }[] = [];
    for (const child of xsdChildren(root, file)) {
      switch (child.local) {
        case 'import': {
          allowAttributes(child, ['namespace', 'schemaLocation', 'id'], file);
          const namespace = attrOf(child, 'namespace');
          const location = attrOf(child, 'schemaLocation');
          if (namespace === undefined || location === undefined)
            throw new XsdCompileError(`${file}: xs:import needs namespace and schemaLocation`);
          imports.push({ namespace, location });
          break;
        }
        case 'complexType':
        case 'simpleType': {
          const name = attrOf(child, 'name');
          if (!name) throw new XsdCompileError(`${file}: global xs:${child.local} without a name`);
          if (schema.types.has(name)) throw new XsdCompileError(`${file}: type ${name} defined twice`);
          schema.types.set(name, child);
          break;
        }
        case 'element':
          this.pendingRoots.push({ schema, el: child });
          break;
        default:
          throw unsupported(child, file);
      }
    }
    for (const { namespace, location } of imports) {
      if (!this.byNamespace.has(namespace)) this.load(location, namespace);
    }
  }

  // ---- types ----------------------------------------------------------------------------------

  private typeByName(schema: SchemaDoc, qname: string): TypeDef {
    const { ns, local } = resolveQName(schema, qname);
    if (ns === XSD_NS) return builtin(local, schema.file);
    const owner = this.byNamespace.get(ns);
    const def = owner?.types.get(local);
    if (!owner || !def) throw new XsdCompileError(`${schema.file}: type ${qname} is not defined`);
    return def.local === 'complexType' ? this.namedComplexType(owner, def, local) : this.namedSimpleType(owner, def, local);
  }

  private simpleTypeByName(schema: SchemaDoc, qname: string): SimpleTypeDef {
    const type = this.typeByName(schema, qname);
    if (type.kind !== 'simple') throw new XsdCompileError(`${schema.file}: ${qname} is a complex type where a simple type is needed`);
    return type;
  }

  private namedSimpleType(schema: SchemaDoc, el: XmlElement, name: string): SimpleTypeDef {
    const key = `${schema.targetNamespace} ${name}`;
    let def = this.simpleTypes.get(key);
    if (!def) {
      def = this.simpleType(schema, el, prefixed(schema, schema.targetNamespace, name));
      this.simpleTypes.set(key, def);
    }
    return def;
  }

  /** xs:simpleType: only a restriction of another simple type without facets (all the Factur-X XSDs use). */
  private simpleType(schema: SchemaDoc, el: XmlElement, name: string): SimpleTypeDef {
    allowAttributes(el, ['name', 'id'], schema.file);
    const [restriction, ...rest] = xsdChildren(el, schema.file);
    if (!restriction || rest.length > 0 || restriction.local !== 'restriction')
      throw unsupported(rest[0] ?? restriction ?? el, schema.file);
    allowAttributes(restriction, ['base', 'id'], schema.file);
    const facet = xsdChildren(restriction, schema.file)[0];
    if (facet) throw new XsdCompileError(`${schema.file}: facet xs:${facet.local} in ${name} is not implemented`);
    const base = attrOf(restriction, 'base');
    if (!base) throw new XsdCompileError(`${schema.file}: xs:restriction without base in ${name}`);
    // A restriction without facets has its base's value space: reuse its checker.
    return { ...this.simpleTypeByName(schema, base), name };
  }

  private namedComplexType(schema: SchemaDoc, el: XmlElement, name: string): ComplexTypeDef {
    const key = `${schema.targetNamespace} ${name}`;
    let def = this.complexTypes.get(key);
    if (!def) {
      // Registered before its content is compiled: content models refer to their own type recursively.
      def = emptyComplexType(prefixed(schema, schema.targetNamespace, name));
      this.complexTypes.set(key, def);
      this.fillComplexType(schema, el, def);
    }
    return def;
  }

  private fillComplexType(schema: SchemaDoc, el: XmlElement, def: ComplexTypeDef): void {
    allowAttributes(el, ['name', 'id', 'mixed', 'abstract'], schema.file);
    if ((attrOf(el, 'mixed') ?? 'false') !== 'false') throw new XsdCompileError(`${schema.file}: mixed content in ${def.name}`);
    if ((attrOf(el, 'abstract') ?? 'false') !== 'false') throw new XsdCompileError(`${schema.file}: abstract type ${def.name}`);
    let particle: Particle | null = null;
    for (const child of xsdChildren(el, schema.file)) {
      if (
        (child.local === 'sequence' || child.local === 'choice') &&
        particle === null &&
        def.value === null &&
        def.attributes.length === 0
      ) {
        particle = this.group(schema, child);
      } else if (child.local === 'simpleContent' && particle === null && def.value === null && def.attributes.length === 0) {
        this.simpleContent(schema, child, def);
      } else if (child.local === 'attribute') {
        this.addAttribute(schema, child, def);
      } else {
        throw unsupported(child, schema.file);
      }
    }
    // No particle and no simple content: empty content, an automaton that accepts nothing but the end.
    if (def.value === null) {
      def.start = buildAutomaton(particle ?? { kind: 'sequence', items: [], min: 1, max: 1 }, def.name);
      def.empty = def.start.next.length === 0;
    }
  }

  private simpleContent(schema: SchemaDoc, el: XmlElement, def: ComplexTypeDef): void {
    allowAttributes(el, ['id'], schema.file);
    const [extension, ...rest] = xsdChildren(el, schema.file);
    if (!extension || rest.length > 0 || extension.local !== 'extension') throw unsupported(rest[0] ?? extension ?? el, schema.file);
    allowAttributes(extension, ['base', 'id'], schema.file);
    const base = attrOf(extension, 'base');
    if (!base) throw new XsdCompileError(`${schema.file}: xs:extension without base in ${def.name}`);
    // Extending a complex type would inherit its attributes: not implemented, so the base must be simple.
    def.value = this.simpleTypeByName(schema, base);
    for (const child of xsdChildren(extension, schema.file)) {
      if (child.local !== 'attribute') throw unsupported(child, schema.file);
      this.addAttribute(schema, child, def);
    }
  }

  private addAttribute(schema: SchemaDoc, el: XmlElement, def: ComplexTypeDef): void {
    allowAttributes(el, ['name', 'type', 'use', 'id'], schema.file);
    const local = attrOf(el, 'name');
    const typeName = attrOf(el, 'type');
    const use = attrOf(el, 'use') ?? 'optional';
    if (!local) throw new XsdCompileError(`${schema.file}: xs:attribute without a name in ${def.name}`);
    if (use !== 'optional' && use !== 'required') throw new XsdCompileError(`${schema.file}: attribute ${local} with use="${use}"`);
    const inline = xsdChildren(el, schema.file);
    let type: SimpleTypeDef;
    if (typeName && inline.length === 0) type = this.simpleTypeByName(schema, typeName);
    else if (!typeName && inline.length === 1 && inline[0].local === 'simpleType')
      type = this.simpleType(schema, inline[0], `type of @${local}`);
    else throw new XsdCompileError(`${schema.file}: attribute ${local} without exactly one type (xs:anySimpleType is not implemented)`);
    if (def.attributes.some((a) => a.local === local))
      throw new XsdCompileError(`${schema.file}: attribute ${local} declared twice in ${def.name}`);
    const decl: AttributeDecl = { local, required: use === 'required', type };
    def.attributes.push(decl);
    if (decl.required) def.required.push(decl);
  }

  // ---- particles ------------------------------------------------------------------------------

  private group(schema: SchemaDoc, el: XmlElement): Particle {
    allowAttributes(el, ['minOccurs', 'maxOccurs', 'id'], schema.file);
    const items: Particle[] = [];
    for (const child of xsdChildren(el, schema.file)) {
      if (child.local === 'element') items.push(this.localElement(schema, child));
      else if (child.local === 'sequence' || child.local === 'choice') items.push(this.group(schema, child));
      else throw unsupported(child, schema.file);
    }
    if (el.local === 'choice' && items.length === 0) throw new XsdCompileError(`${schema.file}: empty xs:choice`);
    return { kind: el.local as 'sequence' | 'choice', items, ...occurs(el, schema.file) };
  }

  private localElement(schema: SchemaDoc, el: XmlElement): Particle {
    const namespace = this.elementNamespace(schema, el);
    return { kind: 'element', decl: this.elementDecl(schema, el, namespace), ...occurs(el, schema.file) };
  }

  private elementNamespace(schema: SchemaDoc, el: XmlElement): string {
    const form = attrOf(el, 'form');
    if (form !== undefined && form !== 'qualified' && form !== 'unqualified') throw new XsdCompileError(`${schema.file}: form="${form}"`);
    const qualified = form === undefined ? schema.qualifiedElements : form === 'qualified';
    return qualified ? schema.targetNamespace : '';
  }

  /** An element declaration (global or local): its name and its named or anonymous type. */
  private elementDecl(schema: SchemaDoc, el: XmlElement, namespace: string): ElementDecl {
    allowAttributes(el, ['name', 'type', 'minOccurs', 'maxOccurs', 'form', 'nillable', 'id'], schema.file);
    if ((attrOf(el, 'nillable') ?? 'false') !== 'false')
      throw new XsdCompileError(`${schema.file}: nillable element ${attrOf(el, 'name')}`);
    const local = attrOf(el, 'name');
    if (!local) throw new XsdCompileError(`${schema.file}: xs:element without a name (ref= is not implemented)`);
    const typeName = attrOf(el, 'type');
    const inline = xsdChildren(el, schema.file);
    const decl: ElementDecl = { ns: namespace, local, type: BUILTIN_SIMPLE_TYPES.get('string')! };
    if (typeName && inline.length === 0) {
      decl.type = this.typeByName(schema, typeName);
    } else if (!typeName && inline.length === 1 && inline[0].local === 'complexType') {
      decl.type = emptyComplexType(`anonymous type of ${local}`);
      this.fillComplexType(schema, inline[0], decl.type);
    } else if (!typeName && inline.length === 1 && inline[0].local === 'simpleType') {
      decl.type = this.simpleType(schema, inline[0], `anonymous type of ${local}`);
    } else {
      throw new XsdCompileError(`${schema.file}: element ${local} without exactly one type (xs:anyType is not implemented)`);
    }
    return decl;
  }
}

// ---- content models as automata -----------------------------------------------------------------

type Particle =
  | { kind: 'element'; decl: ElementDecl; min: number; max: number }
  | { kind: 'sequence' | 'choice'; items: Particle[]; min: number; max: number };

interface NfaNode {
  eps: number[];
  edges: { decl: ElementDecl; to: number }[];
}

/**
 * Thompson construction of the particle tree (occurrence ranges unrolled), then subset construction.
 * XML Schema requires content models to be deterministic (Unique Particle Attribution): if one
 * child name could match two different particles from the same state, the schema is refused.
 */
function buildAutomaton(particle: Particle, typeName: string): ContentState {
  const nodes: NfaNode[] = [];
  const node = (): number => nodes.push({ eps: [], edges: [] }) - 1;
  const once = (p: Particle, from: number): number => {
    if (p.kind === 'element') {
      const to = node();
      nodes[from].edges.push({ decl: p.decl, to });
      return to;
    }
    if (p.kind === 'sequence') {
      let at = from;
      for (const item of p.items) at = repeated(item, at);
      return at;
    }
    const end = node();
    for (const item of p.items) nodes[repeated(item, from)].eps.push(end);
    return end;
  };
  const repeated = (p: Particle, from: number): number => {
    if (p.min > MAX_UNROLLED_OCCURS || (p.max !== UNBOUNDED && p.max - p.min > MAX_UNROLLED_OCCURS)) {
      throw new XsdCompileError(`occurrence range ${p.min}..${p.max} in ${typeName} is too large to unroll`);
    }
    let at = from;
    for (let i = 0; i < p.min; i++) at = once(p, at);
    if (p.max === UNBOUNDED) {
      const loop = node();
      nodes[at].eps.push(loop);
      nodes[once(p, loop)].eps.push(loop);
      return loop;
    }
    const end = node();
    nodes[at].eps.push(end);
    for (let i = p.min; i < p.max; i++) {
      at = once(p, at);
      nodes[at].eps.push(end);
    }
    return end;
  };
  const start = node();
  const final = repeated(particle, start);

  const closure = (seeds: number[]): number[] => {
    const seen = new Set(seeds);
    const stack = [...seeds];
    while (stack.length) for (const n of nodes[stack.pop()!].eps) if (!seen.has(n)) seen.add(n), stack.push(n);
    return [...seen].sort((a, b) => a - b);
  };
  const states = new Map<string, ContentState>();
  const work: { set: number[]; state: ContentState }[] = [];
  const stateOf = (set: number[]): ContentState => {
    const key = set.join(',');
    let state = states.get(key);
    if (!state) {
      state = { accepting: set.includes(final), next: [], expected: [] };
      states.set(key, state);
      work.push({ set, state });
    }
    return state;
  };
  stateOf(closure([start]));
  while (work.length) {
    const { set, state } = work.pop()!;
    const targets = new Map<ElementDecl, number[]>();
    for (const n of set) {
      for (const edge of nodes[n].edges) {
        const list = targets.get(edge.decl);
        if (list) list.push(edge.to);
        else targets.set(edge.decl, [edge.to]);
      }
    }
    for (const [decl, to] of targets) {
      if (state.next.some((t) => t.local === decl.local && t.ns === decl.ns)) {
        throw new XsdCompileError(`content model of ${typeName} is not deterministic for element ${decl.local}`);
      }
      state.next.push({ local: decl.local, ns: decl.ns, decl, to: stateOf(closure(to)) });
      state.expected.push(decl);
    }
  }
  return states.values().next().value!;
}

// ---- helpers ------------------------------------------------------------------------------------

function emptyComplexType(name: string): ComplexTypeDef {
  return { kind: 'complex', name, attributes: [], required: [], value: null, start: null, empty: false };
}

function builtin(local: string, file: string): SimpleTypeDef {
  const type = BUILTIN_SIMPLE_TYPES.get(local);
  if (!type) throw new XsdCompileError(`${file}: builtin type xs:${local} is not implemented`);
  return type;
}

function attrOf(el: XmlElement, local: string): string | undefined {
  for (const a of el.attrs) if (a.local === local && a.ns === '') return a.value;
  return undefined;
}

/** Unqualified attributes other than these are constructs we do not implement (block, final, default, fixed, ref, ...). */
function allowAttributes(el: XmlElement, allowed: string[], file: string): void {
  for (const a of el.attrs) {
    // Attributes in other namespaces are annotations by the XSD spec; they change nothing.
    if (a.ns === '' && !allowed.includes(a.local))
      throw new XsdCompileError(`${file}: attribute ${a.local} on xs:${el.local} (line ${el.line})`);
  }
}

/** The XSD children of an element, annotations left out; anything outside the XSD namespace is refused. */
function xsdChildren(el: XmlElement, file: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of el.children) {
    if (c.ns !== XSD_NS) throw new XsdCompileError(`${file}: foreign element ${c.local} in xs:${el.local} (line ${c.line})`);
    if (c.local !== 'annotation') out.push(c);
  }
  return out;
}

function unsupported(el: XmlElement, file: string): XsdCompileError {
  return new XsdCompileError(`${file}: xs:${el.local} is not implemented here (line ${el.line})`);
}

function occurs(el: XmlElement, file: string): { min: number; max: number } {
  const minText = attrOf(el, 'minOccurs') ?? '1';
  const maxText = attrOf(el, 'maxOccurs') ?? '1';
  const min = Number(minText);
  const max = maxText === 'unbounded' ? UNBOUNDED : Number(maxText);
  if (!/^[0-9]+$/.test(minText) || (maxText !== 'unbounded' && !/^[0-9]+$/.test(maxText)) || max < min || max === 0) {
    throw new XsdCompileError(`${file}: occurrence range ${minText}..${maxText} (line ${el.line})`);
  }
  return { min, max };
}

function resolveQName(schema: SchemaDoc, qname: string): { ns: string; local: string } {
  const colon = qname.indexOf(':');
  const prefix = colon < 0 ? '' : qname.slice(0, colon);
  const local = colon < 0 ? qname : qname.slice(colon + 1);
  const ns = schema.prefixes.get(prefix);
  if (ns === undefined) {
    if (prefix === '') return { ns: '', local };
    throw new XsdCompileError(`${schema.file}: prefix ${prefix} of ${qname} is not declared`);
  }
  return { ns, local };
}

/** A type's name for messages, with the schema's own prefix for its namespace. */
function prefixed(schema: SchemaDoc, ns: string, local: string): string {
  for (const [prefix, uri] of schema.prefixes) if (uri === ns && prefix) return `${prefix}:${local}`;
  return local;
}

/**
 * The namespace declarations of the xs:schema start tag. Our element tree does not keep namespace
 * declarations, and QNames in attribute values (type="ram:...") need them: they are read from the
 * text, and a declaration anywhere else in the file is refused rather than resolved wrongly.
 */
function namespaceDeclarations(text: string, file: string): Map<string, string> {
  const body = text.replace(/<!--[\s\S]*?-->/g, '');
  const startTag = /<(?:[A-Za-z_][\w.-]*:)?schema\b[^>]*>/.exec(body)?.[0];
  if (!startTag) throw new XsdCompileError(`${file}: no xs:schema start tag`);
  const declaration = /\bxmlns(?::([A-Za-z_][\w.-]*))?\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
  const prefixes = new Map<string, string>();
  for (const m of startTag.matchAll(declaration)) prefixes.set(m[1] ?? '', m[2] ?? m[3]);
  const everywhere = [...body.matchAll(declaration)].length;
  if (everywhere !== prefixes.size) throw new XsdCompileError(`${file}: namespace declarations below xs:schema are not implemented`);
  return prefixes;
}
