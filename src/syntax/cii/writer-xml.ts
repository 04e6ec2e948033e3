/**
 * A small, fast XML string builder for the CII writer: indented output, correct escaping of text and
 * attribute values, characters that XML 1.0 forbids removed, empty values skipped (no empty elements,
 * PEPPOL-EN16931-R008).
 */

// Control characters, lone surrogates and U+FFFE/U+FFFF cannot appear in XML 1.0 at all.
const INVALID_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const TEXT_SPECIAL = /[&<>\r]/;
const ATTR_SPECIAL = /[&<>"\r\n\t]/;

function stripInvalid(value: string): string {
  INVALID_XML_CHARS.lastIndex = 0;
  return INVALID_XML_CHARS.test(value) ? value.replace(INVALID_XML_CHARS, '') : value;
}

export function escapeText(value: string): string {
  const v = stripInvalid(value);
  if (!TEXT_SPECIAL.test(v)) return v;
  return v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

export function escapeAttr(value: string): string {
  const v = stripInvalid(value);
  if (!ATTR_SPECIAL.test(v)) return v;
  return v
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#13;')
    .replace(/\n/g, '&#10;')
    .replace(/\t/g, '&#9;');
}

const INDENTS: string[] = [];
for (let i = 0; i < 32; i++) INDENTS.push('\n' + '  '.repeat(i));

export type Attrs = Record<string, string | undefined>;

function renderAttrs(attrs: Attrs | undefined): string {
  if (!attrs) return '';
  let out = '';
  for (const key in attrs) {
    const v = attrs[key];
    if (v !== undefined && v !== '') out += ` ${key}="${escapeAttr(v)}"`;
  }
  return out;
}

export class XmlBuilder {
  private out = '<?xml version="1.0" encoding="UTF-8"?>';
  private depth = 0;
  /** True right after open(): close() then writes `<x/>` (an empty content model allows no whitespace). */
  private openEmpty = false;

  /** Open an element; every open() needs its close(). */
  open(name: string, attrs?: Attrs): this {
    this.out += `${INDENTS[this.depth] ?? '\n'}<${name}${renderAttrs(attrs)}>`;
    this.depth++;
    this.openEmpty = true;
    return this;
  }

  close(name: string): this {
    this.depth--;
    if (this.openEmpty) {
      this.out = this.out.slice(0, -1) + '/>';
      this.openEmpty = false;
    } else {
      this.out += `${INDENTS[this.depth] ?? '\n'}</${name.split(' ', 1)[0]}>`;
    }
    return this;
  }

  /** A text element; skipped when the value is absent or empty. */
  leaf(name: string, value: string | undefined, attrs?: Attrs): this {
    if (value === undefined || value === '') return this;
    this.out += `${INDENTS[this.depth] ?? '\n'}<${name}${renderAttrs(attrs)}>${escapeText(value)}</${name}>`;
    this.openEmpty = false;
    return this;
  }

  /** `<wrapper><leaf>value</leaf></wrapper>`, skipped when the value is absent or empty. */
  wrapped(wrapper: string, name: string, value: string | undefined, attrs?: Attrs): this {
    if (value === undefined || value === '') return this;
    return this.open(wrapper).leaf(name, value, attrs).close(wrapper);
  }

  toString(): string {
    return this.out + '\n';
  }
}
