/**
 * The engine's own copy of a string: V8 internalizes property keys, so the key a one-property object
 * literal gets is the internalized string. Two internalized strings with the same characters are
 * the same object, and `===` between them is a pointer compare. The XML parser gives element names
 * this way; tables that compare their names with element names do too.
 */
export function internalize(s: string): string {
  for (const key in { [s]: 0 }) return key;
  return s;
}
