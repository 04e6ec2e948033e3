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
