/**
 * JSON nesting depth, bounded before anything parses or walks a document: JSON.parse itself copes with
 * 100,000 nested arrays, but every recursive walk after it (null clean-up, schema validation) overflows
 * the stack, which answered 500. Invoice metadata nests 4-5 levels (document → line_items → line →
 * allowance); MAX_JSON_DEPTH leaves ample room.
 */

/** Deepest nesting of arrays and objects accepted in a JSON body or metadata field. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether the JSON text nests arrays/objects deeper than `max`: one linear pass over the text counting
 * `[` and `{` outside strings (escapes inside strings skipped). Says nothing about validity: the
 * parser judges that afterwards; a text that is not JSON at all just gets a meaningless depth.
 */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** The same bound for an already parsed value (an object handed over in-process): an iterative walk. */
export function valueTooDeep(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d + 1 > max) return true;
    for (const k in v as Record<string, unknown>) stack.push([(v as Record<string, unknown>)[k], d + 1]);
  }
  return false;
}

export function jsonTooDeepMessage(what: string): string {
  return `${what} nests arrays/objects deeper than ${MAX_JSON_DEPTH} levels (limit MAX_JSON_DEPTH = ${MAX_JSON_DEPTH})`;
}
