/**
 * A tiny JSON Schema builder with TypeBox's call shapes and static types, for the metadata schema.
 *
 * Why not TypeBox itself at run time: its ESM build is ~700 module files, which cost ~150 ms of
 * start-up for five builder functions. TypeBox stays the source of the static types (type-only
 * import, erased at run time); this builder emits the same plain JSON Schema TypeBox would
 * (`required` computed from the members not wrapped in Optional), which ajv validates.
 */
import type { Type as TypeBoxType } from 'typebox';

type Builder = Pick<typeof TypeBoxType, 'Object' | 'String' | 'Optional' | 'Array' | 'Enum'>;
type Schema = Record<string, unknown>;

const optional = new WeakSet<Schema>();

function objectSchema(properties: Record<string, Schema>, options: Schema = {}): Schema {
  const required = Object.keys(properties).filter((k) => !optional.has(properties[k]));
  return { type: 'object', ...(required.length > 0 ? { required } : {}), properties, ...options };
}

export const Type = {
  String: (options: Schema = {}) => ({ type: 'string', ...options }),
  Optional: (schema: Schema) => {
    const copy = { ...schema };
    optional.add(copy);
    return copy;
  },
  Object: objectSchema,
  Array: (items: Schema, options: Schema = {}) => ({ type: 'array', items, ...options }),
  Enum: (values: readonly unknown[], options: Schema = {}) => ({ enum: [...values], ...options }),
} as unknown as Builder;
