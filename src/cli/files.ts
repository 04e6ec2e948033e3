/**
 * The input list of `einvoice validate`: files as given, folders walked recursively (PDF and XML), globs
 * expanded; in a stable order (each argument's files sorted by path), without duplicates; and `--shard i/n`.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

const INVOICE_EXT = /\.(pdf|xml)$/i;
const GLOB_CHARS = /[*?[{]/;

/** Every PDF/XML file under `dir`, sorted, to `take`, until `full()`; unreadable subfolders are skipped (they are not invoices). */
function walk(dir: string, take: (file: string) => void, full: () => boolean): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (full()) return;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, take, full);
    else if ((e.isFile() || e.isSymbolicLink()) && INVOICE_EXT.test(e.name)) take(p);
  }
}

/** A glob (`*`, `**`, `?`, `[abc]`, `{a,b}`) as a regular expression over '/'-separated paths. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        // "**/" matches any number of folders (also none); "**" at the end anything.
        if (glob[i + 2] === '/') {
          re += '(?:.*/)?';
          i += 2;
        } else {
          re += '.*';
          i += 1;
        }
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        re += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (c === '{') {
      const end = glob.indexOf('}', i + 1);
      if (end < 0) re += '\\{';
      else {
        re += `(?:${glob
          .slice(i + 1, end)
          .split(',')
          .map((s) => s.replace(/[.+^$()|\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
          .join('|')})`;
        i = end;
      }
    } else re += c.replace(/[.+^$()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Files matching a glob: walk from its fixed leading folders, keep what matches (any file type the glob names). */
function expandGlob(glob: string): string[] {
  const norm = glob.split(path.sep).join('/');
  const parts = norm.split('/');
  const fixed: string[] = [];
  for (const p of parts) {
    if (GLOB_CHARS.test(p)) break;
    fixed.push(p);
  }
  const base = fixed.length === 0 ? '.' : fixed.join('/') || '/';
  const re = globToRegExp(norm.startsWith('./') ? norm.slice(2) : norm);
  const all: string[] = [];
  const walkAll = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const p = dir === '.' ? e.name : `${dir}/${e.name}`;
      if (e.isDirectory()) walkAll(p);
      else if (re.test(p)) all.push(p);
    }
  };
  walkAll(base);
  return all;
}

/**
 * The files the arguments name, in argument order (each folder's and glob's files sorted), each once.
 * An argument that names nothing is an InputError (exit 2): a typo must not pass as "0 files, all valid".
 * With `limit`, the listing stops at that many files (the first ones, as the whole list would begin): enough to
 * tell whether a batch is large without walking all of it (the arguments after that point are not checked).
 */
export function collectInputs(args: readonly string[], limit = Number.POSITIVE_INFINITY): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const full = () => out.length >= limit;
  const add = (p: string) => {
    const key = path.resolve(p);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(p);
    }
  };
  for (const arg of args) {
    if (full()) break;
    let st;
    try {
      st = statSync(arg);
    } catch {
      st = undefined;
    }
    if (st?.isDirectory()) {
      walk(arg, add, full);
    } else if (st) add(arg);
    else if (GLOB_CHARS.test(arg)) {
      const found = expandGlob(arg);
      if (found.length === 0) throw new InputError(`no file matches ${arg}`);
      found.forEach(add);
    } else throw new InputError(`no such file or folder: ${arg}`);
  }
  return out.length > limit ? out.slice(0, limit) : out; // a glob's files come at once
}

export interface Shard {
  index: number; // 1-based
  count: number;
}

/**
 * "i/n" with 1 ≤ i ≤ n (--shard); zero-based, "i/n" with 0 ≤ i < n (--shard-index: Kubernetes' JOB_COMPLETION_INDEX
 * and other orchestrators' array indexes count from 0, and a container without a shell cannot add 1).
 */
export function parseShard(text: string, zeroBased = false): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) + (zeroBased ? 1 : 0) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count)
    throw new InputError(
      zeroBased
        ? `--shard-index must be i/n with 0 <= i < n (e.g. 0/4), got "${text}"`
        : `--shard must be i/n with 1 <= i <= n (e.g. 1/4), got "${text}"`,
    );
  return { index, count };
}

/** FNV-1a over the UTF-16 code units: stable across processes, machines and Node versions. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * The files of shard i of n: those whose path (as listed, '/'-separated) hashes to i-1 modulo n. A file's shard
 * depends on its path only, so every pod given the same arguments agrees without coordination, the shards are
 * disjoint and their union is the whole list, and adding files does not move the others.
 */
export function shardOf(files: readonly string[], shard: Shard): string[] {
  if (shard.count === 1) return [...files];
  return files.filter((f) => fnv1a(f.split(path.sep).join('/')) % shard.count === shard.index - 1);
}
