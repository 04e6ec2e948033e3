/**
 * A WeakMap replacement for per-document caches: the value is stored on the key object itself, under a
 * private, non-enumerable symbol, so it lives exactly as long as the key.
 *
 * Why not WeakMap: V8's scavenger (young-generation GC) keeps the values of WeakMap entries with
 * young keys alive and promotes them, and only a full mark-compact clears the entries. Per-document
 * caches keyed by the parsed document, its elements or the model therefore dragged every invoice's
 * tree and model into the old generation: scavenges took 7-14 ms instead of under 1 ms, and GC was a
 * fifth of a request's CPU time. A property on the key is ordinary data, collected with the key.
 *
 * Invisible to JSON.stringify, structuredClone, Object.keys and object spread (non-enumerable symbol).
 * Keys must be extensible objects (not frozen).
 */
export class PropertyMap<K extends object, V> {
  private readonly slot: symbol;

  constructor(name = 'cache') {
    this.slot = Symbol(name);
  }

  get(key: K): V | undefined {
    return (key as Record<symbol, V | undefined>)[this.slot];
  }

  has(key: K): boolean {
    return (key as Record<symbol, V | undefined>)[this.slot] !== undefined;
  }

  set(key: K, value: V): this {
    if (Object.prototype.hasOwnProperty.call(key, this.slot)) (key as Record<symbol, V>)[this.slot] = value;
    else Object.defineProperty(key, this.slot, { value, writable: true, enumerable: false, configurable: true });
    return this;
  }

  delete(key: K): boolean {
    if (!Object.prototype.hasOwnProperty.call(key, this.slot)) return false;
    (key as Record<symbol, V | undefined>)[this.slot] = undefined;
    return true;
  }
}

/**
 * `compute` memoised per key object (a parsed document, its index, an element): the value is computed on the first
 * ask and stored on the key. Parsed documents are never changed, so a rule that would recount the whole invoice for
 * every line or settlement computes such a value once per document.
 */
export function perDocument<K extends object, T>(compute: (key: K) => T): (key: K) => T {
  const cache = new PropertyMap<K, T>();
  return (key) => {
    if (cache.has(key)) return cache.get(key) as T;
    const value = compute(key);
    cache.set(key, value);
    return value;
  };
}
