/**
 * The ISO 32000 standard security handler, for reading PDFs encrypted with an empty user password (permissions
 * only: what scanners and "protect" buttons produce for supplier invoices). Such a file opens in every viewer
 * without a prompt, so we read it too; a file that needs a password to open stays refused (PDF_ENCRYPTED).
 *
 * Supported: /V 1–2 /R 2–4 (RC4, 40–128 bit), /V 4 /R 4 with crypt filters (/V2 RC4, /AESV2 AES-128, /Identity),
 * /V 5 /R 5–6 (/AESV3 AES-256; R6 with the hash of ISO 32000-2 algorithm 2.B). RC4 is written here: OpenSSL 3
 * no longer offers it by default. All work is bounded: key derivation is a fixed number of hash rounds (R6 at
 * most 64 + 224 rounds over a few KB), decryption is linear in the bytes it is given.
 */
import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import { isDict, nameOf, type PdfDictValue, type PdfValue } from './values.js';

/** The 32-byte padding string of algorithm 2 (ISO 32000-1 §7.6.3.3). */
const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

export type CryptMethod = 'none' | 'rc4' | 'aes128' | 'aes256';

/** The file's encryption, described for answers: e.g. "AES-256 (R6)". */
export interface EncryptionInfo {
  /** The cipher of streams and strings; Identity when the crypt filters store both in clear. */
  algorithm: 'RC4-40' | 'RC4-128' | 'AES-128' | 'AES-256' | 'Identity';
  /** /R of the /Encrypt dictionary. */
  revision: number;
}

/** The file is encrypted in a way we cannot (or may not) read: a user password, another handler, a broken dictionary. */
export class PdfCryptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PdfCryptError';
  }
}

/** RC4 (ARCFOUR): a few lines, and no longer in OpenSSL 3's default provider. */
export function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 0xff;
    const t = s[i];
    s[i] = s[j];
    s[j] = t;
  }
  const out = new Uint8Array(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]) & 0xff;
    const t = s[i];
    s[i] = s[j];
    s[j] = t;
    out[k] = data[k] ^ s[(s[i] + s[j]) & 0xff];
  }
  return out;
}

const md5 = (...parts: Uint8Array[]): Buffer => {
  const h = createHash('md5');
  for (const p of parts) h.update(p);
  return h.digest();
};

/** AES-CBC with the IV as the first 16 bytes (PDF's layout); padding removed. Undecryptable data yields empty bytes. */
function aesDecrypt(key: Uint8Array, data: Uint8Array): Uint8Array {
  if (data.length < 32 || data.length % 16 !== 0) return new Uint8Array(0);
  try {
    const d = createDecipheriv(key.length === 32 ? 'aes-256-cbc' : 'aes-128-cbc', key, data.subarray(0, 16));
    return Buffer.concat([d.update(data.subarray(16)), d.final()]);
  } catch {
    // Bad padding: decrypt without it (some writers pad wrongly); the filters then decide.
    const d = createDecipheriv(key.length === 32 ? 'aes-256-cbc' : 'aes-128-cbc', key, data.subarray(0, 16));
    d.setAutoPadding(false);
    return Buffer.concat([d.update(data.subarray(16)), d.final()]);
  }
}

/** Algorithm 2.B of ISO 32000-2 (R6): the hash of a password with a salt (and, for the owner, the U string). */
function hash2B(password: Uint8Array, salt: Uint8Array, udata: Uint8Array): Buffer {
  let k: Buffer = createHash('sha256').update(password).update(salt).update(udata).digest();
  // At least 64 rounds; then until the last byte of E is at most round - 32 (so at most 256 + 32 rounds in all).
  for (let round = 0; round < 288; round++) {
    const block = Buffer.concat([password, k, udata]);
    const k1 = Buffer.alloc(block.length * 64);
    for (let i = 0; i < 64; i++) block.copy(k1, i * block.length);
    const enc = encryptAes128CbcNoPad(k.subarray(0, 16), k.subarray(16, 32), k1);
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += enc[i];
    const alg = ['sha256', 'sha384', 'sha512'][sum % 3];
    k = createHash(alg).update(enc).digest();
    if (round >= 63 && enc[enc.length - 1] <= round - 31) break;
  }
  return k.subarray(0, 32);
}

function encryptAes128CbcNoPad(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Buffer {
  const c = createCipheriv('aes-128-cbc', key, iv);
  c.setAutoPadding(false);
  return Buffer.concat([c.update(data), c.final()]);
}

const bytesOf = (v: PdfValue | undefined): Uint8Array | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && v.kind === 'string' ? v.bytes : undefined;
const intOf = (v: PdfValue | undefined, dflt: number): number => (typeof v === 'number' && Number.isInteger(v) ? v : dflt);

/** How strings and streams of one file are decrypted, set up from its /Encrypt dictionary with the empty user password. */
export class StandardSecurityHandler {
  private constructor(
    private readonly fileKey: Uint8Array,
    private readonly stmMethod: CryptMethod,
    private readonly strMethod: CryptMethod,
    /** Crypt filters by name (for streams that name one with a /Crypt filter). */
    private readonly filters: Map<string, CryptMethod>,
    /** /EncryptMetadata false: the XMP stream is stored in clear. */
    readonly encryptMetadata: boolean,
    readonly info: EncryptionInfo,
  ) {}

  /** Set up from the /Encrypt dictionary and the first element of the trailer's /ID. Throws PdfCryptError. */
  static open(encrypt: PdfValue, id0: Uint8Array | undefined): StandardSecurityHandler {
    if (!isDict(encrypt)) throw new PdfCryptError('its /Encrypt entry is not a dictionary');
    const m = encrypt.map;
    const filter = nameOf(m.get('Filter'));
    if (filter !== 'Standard')
      throw new PdfCryptError(`it uses the ${filter ? `"${filter}"` : 'unnamed'} security handler (certificates), not a password`);
    const v = intOf(m.get('V'), 0);
    const r = intOf(m.get('R'), 0);
    const o = bytesOf(m.get('O'));
    const u = bytesOf(m.get('U'));
    const p = intOf(m.get('P'), 0);
    const encryptMetadata = m.get('EncryptMetadata') !== false;
    if (!o || !u) throw new PdfCryptError('its /Encrypt dictionary lacks /O or /U');

    // Crypt filters (V4, V5): the methods for streams and strings.
    const filters = new Map<string, CryptMethod>([['Identity', 'none']]);
    let stm: CryptMethod;
    let str: CryptMethod;
    let keyBytes: number;
    if (v === 4 || v === 5) {
      const cf = m.get('CF');
      if (isDict(cf)) {
        for (const [name, def] of cf.map) {
          if (!isDict(def)) continue;
          const cfm = nameOf(def.map.get('CFM')) ?? 'None';
          filters.set(name, cfm === 'AESV2' ? 'aes128' : cfm === 'AESV3' ? 'aes256' : cfm === 'V2' ? 'rc4' : 'none');
        }
      }
      const pick = (key: string): CryptMethod => {
        const n = nameOf(m.get(key)) ?? 'Identity';
        const method = filters.get(n);
        if (method === undefined) throw new PdfCryptError(`its crypt filter "${n}" is not defined`);
        return method;
      };
      stm = pick('StmF');
      str = pick('StrF');
      keyBytes = v === 5 ? 32 : 16;
    } else if (v === 1 || v === 2) {
      stm = str = 'rc4';
      keyBytes = v === 1 ? 5 : Math.trunc(intOf(m.get('Length'), 40) / 8);
      if (keyBytes < 5 || keyBytes > 16) throw new PdfCryptError(`its key length (${keyBytes * 8} bits) is invalid`);
    } else {
      throw new PdfCryptError(`its encryption version (/V ${v}) is not supported`);
    }
    const uses = (x: CryptMethod) => stm === x || str === x;
    const algorithm: EncryptionInfo['algorithm'] =
      !uses('rc4') && !uses('aes128') && !uses('aes256')
        ? 'Identity'
        : uses('aes256')
          ? 'AES-256'
          : uses('aes128')
            ? 'AES-128'
            : keyBytes <= 5
              ? 'RC4-40'
              : 'RC4-128';

    let fileKey: Uint8Array;
    if (r === 5 || r === 6) {
      if (v !== 5) throw new PdfCryptError(`its /R ${r} needs /V 5`);
      fileKey = StandardSecurityHandler.aes256Key(r, m, o, u);
    } else if (r >= 2 && r <= 4) {
      if (v === 5) throw new PdfCryptError(`its /V 5 needs /R 5 or 6, not ${r}`);
      fileKey = StandardSecurityHandler.rc4Key(r, keyBytes, o, u, p, id0 ?? new Uint8Array(0), encryptMetadata);
    } else {
      throw new PdfCryptError(`its security handler revision (/R ${r}) is not supported`);
    }
    return new StandardSecurityHandler(fileKey, stm, str, filters, encryptMetadata, { algorithm, revision: r });
  }

  /** Algorithms 2 and 6 (R2–R4): the file key from the empty password, checked against /U. */
  private static rc4Key(
    r: number,
    n: number,
    o: Uint8Array,
    u: Uint8Array,
    p: number,
    id0: Uint8Array,
    encryptMetadata: boolean,
  ): Uint8Array {
    const pBytes = Buffer.alloc(4);
    pBytes.writeInt32LE(p | 0);
    const parts: Uint8Array[] = [PAD, o.subarray(0, 32), pBytes, id0];
    if (r >= 4 && !encryptMetadata) parts.push(Buffer.from([0xff, 0xff, 0xff, 0xff]));
    let key: Uint8Array = md5(...parts);
    if (r >= 3) for (let i = 0; i < 50; i++) key = md5(key.subarray(0, n));
    key = key.subarray(0, n);
    let ok: boolean;
    if (r === 2) {
      ok = Buffer.from(rc4(key, PAD)).equals(Buffer.from(u.subarray(0, 32)));
    } else {
      let x = rc4(key, md5(PAD, id0));
      for (let i = 1; i <= 19; i++)
        x = rc4(
          key.map((b) => b ^ i),
          x,
        );
      ok = u.length >= 16 && Buffer.from(x).equals(Buffer.from(u.subarray(0, 16)));
    }
    if (!ok) throw passwordNeeded();
    return key;
  }

  /** Algorithms 2.A/11 (R5, R6): the empty password checked against /U, the file key unwrapped from /UE. */
  private static aes256Key(r: number, m: Map<string, PdfValue>, _o: Uint8Array, u: Uint8Array): Uint8Array {
    const ue = bytesOf(m.get('UE'));
    if (u.length < 48 || !ue || ue.length < 32) throw new PdfCryptError('its /Encrypt dictionary lacks a valid /U or /UE');
    const empty = new Uint8Array(0);
    const h = (salt: Uint8Array): Buffer =>
      r === 6 ? hash2B(empty, salt, empty) : createHash('sha256').update(empty).update(salt).digest();
    if (!h(u.subarray(32, 40)).equals(Buffer.from(u.subarray(0, 32)))) throw passwordNeeded();
    const d = createDecipheriv('aes-256-cbc', h(u.subarray(40, 48)), Buffer.alloc(16));
    d.setAutoPadding(false);
    return Buffer.concat([d.update(ue.subarray(0, 32)), d.final()]);
  }

  /** The key and cipher of object (num, gen) under `method` (algorithm 1; AES-256 uses the file key as it is). */
  private decrypt(method: CryptMethod, num: number, gen: number, data: Uint8Array): Uint8Array {
    if (method === 'none') return data;
    if (method === 'aes256') return aesDecrypt(this.fileKey, data);
    const salt = Buffer.from([num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, gen & 0xff, (gen >> 8) & 0xff]);
    const key = md5(this.fileKey, salt, method === 'aes128' ? Buffer.from('sAlT', 'latin1') : new Uint8Array(0)).subarray(
      0,
      Math.min(this.fileKey.length + 5, 16),
    );
    return method === 'aes128' ? aesDecrypt(key, data) : rc4(key, data);
  }

  /** Decrypt every string inside a value of object (num, gen), in place (nesting is bounded by the parser). */
  decryptStrings(value: PdfValue, num: number, gen: number): void {
    if (this.strMethod === 'none' || typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      for (const item of value) this.decryptStrings(item, num, gen);
      return;
    }
    if (value.kind === 'string') value.bytes = this.decrypt(this.strMethod, num, gen, value.bytes);
    else if (value.kind === 'dict') for (const v of value.map.values()) this.decryptStrings(v, num, gen);
    else if (value.kind === 'stream') this.decryptStrings(value.dict, num, gen);
  }

  /**
   * A stream's data in clear. XRef streams are never encrypted, nor the XMP when /EncryptMetadata is false; a
   * /Crypt filter in the chain names the crypt filter to use (and is taken out of the chain).
   */
  decryptStream(dict: PdfDictValue, raw: Uint8Array, num: number, gen: number): Uint8Array {
    if (nameOf(dict.map.get('Type')) === 'XRef') return raw;
    if (!this.encryptMetadata && nameOf(dict.map.get('Type')) === 'Metadata') return raw;
    let method = this.stmMethod;
    const filter = dict.map.get('Filter');
    const names = Array.isArray(filter) ? filter : filter === undefined || filter === null ? [] : [filter];
    if (names.length > 0 && nameOf(names[0]) === 'Crypt') {
      const parmsRaw = dict.map.get('DecodeParms') ?? dict.map.get('DP');
      const parms = Array.isArray(parmsRaw) ? parmsRaw[0] : parmsRaw;
      const name = (isDict(parms) && nameOf(parms.map.get('Name'))) || 'Identity';
      const named = this.filters.get(name);
      if (named === undefined) throw new PdfCryptError(`a stream names the undefined crypt filter "${name}"`);
      method = named;
      // The chain without /Crypt (and its parameters).
      if (Array.isArray(filter)) {
        dict.map.set('Filter', filter.slice(1));
        if (Array.isArray(parmsRaw)) dict.map.set(dict.map.has('DecodeParms') ? 'DecodeParms' : 'DP', parmsRaw.slice(1));
      } else {
        dict.map.delete('Filter');
        dict.map.delete('DecodeParms');
        dict.map.delete('DP');
      }
    }
    return this.decrypt(method, num, gen, raw);
  }
}

function passwordNeeded(): PdfCryptError {
  return new PdfCryptError('it needs a password to open (only PDFs with an empty user password can be read)');
}
