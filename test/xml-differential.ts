/**
 * The differential oracle of the XML parser tests: our parser (src/xml/dom.ts) against saxes on the same
 * input. Shared by test/xml-parser.test.ts and the corpus run in test/conformance/xml-parser-corpus.test.ts.
 */
import { decodeXmlBytes, parseXml, XmlParseError, type XmlDoc } from '../src/xml/dom.js';
import { saxesTree, treeDifference, type ReferenceResult } from './saxes-reference.js';

export type Verdict =
  | 'ok'
  | 'XML_MALFORMED'
  | 'XML_DTD_FORBIDDEN'
  | 'XML_TOO_DEEP'
  | 'XML_TOO_LARGE'
  | 'XML_ENCODING'
  | 'XML_ENCODING_UNSUPPORTED';

/** What dom.ts does to text before parsing: one BOM off, leading whitespace off. */
function prepared(text: string): string {
  return (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/^[\s\uFEFF]+/, '');
}

export function ours(input: string | Uint8Array): { verdict: Verdict; doc?: XmlDoc; error?: XmlParseError } {
  try {
    const doc = parseXml(input);
    return { verdict: 'ok', doc };
  } catch (err) {
    if (!(err instanceof XmlParseError)) throw err;
    return { verdict: err.code, error: err };
  }
}

function reference(
  input: string | Uint8Array,
): ReferenceResult | { ok: false; code: 'XML_ENCODING' | 'XML_ENCODING_UNSUPPORTED'; message: string } {
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    try {
      text = decodeXmlBytes(input).text;
    } catch (err) {
      // Decoding is shared (saxes takes text): the reference keeps the decoder's own code.
      const code = err instanceof XmlParseError && err.code === 'XML_ENCODING_UNSUPPORTED' ? err.code : 'XML_ENCODING';
      return { ok: false, code, message: (err as Error).message };
    }
  }
  return saxesTree(prepared(text), { strictQNames: true });
}

/** Disagreement between our parser and the reference on `input`, or null when they agree. */
export function disagreement(input: string | Uint8Array): string | null {
  const mine = ours(input);
  const theirs = reference(input);
  if (theirs.ok && mine.doc) {
    const d = treeDifference(mine.doc.root, theirs.root);
    if (d) return `trees differ: ${d}`;
    if (mine.doc.elementCount !== theirs.elementCount) return `element counts ${mine.doc.elementCount} vs ${theirs.elementCount}`;
    return null;
  }
  if (!theirs.ok && !mine.doc) {
    if (theirs.code === mine.verdict) return null;
    // Note 4: a DOCTYPE is refused at its keyword.
    if (mine.verdict === 'XML_DTD_FORBIDDEN' && theirs.code === 'XML_MALFORMED') {
      const text = typeof input === 'string' ? input : decodeXmlBytes(input).text;
      if (text.includes('<!DOCTYPE')) return null;
    }
    return `codes differ: ours ${mine.verdict} (${mine.error?.message}), saxes ${theirs.code} (${theirs.message})`;
  }
  // Note 5: our only error for a PI target followed by neither whitespace nor '?>' (saxes: '?' + anything).
  if (theirs.ok && mine.error?.message.endsWith('malformed processing instruction')) return null;
  return theirs.ok ? `saxes accepts, we reject: ${mine.error?.message}` : `saxes rejects (${theirs.message}), we accept`;
}
