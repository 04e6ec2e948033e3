/**
 * What the PDF pool (./pool.ts) sends its worker (./pdf-worker.ts) and gets back: the protocol both sides
 * import, so that the pool needs nothing of the worker's implementation.
 */
import type { EmbedOptions, EmbedResult } from './container.js';
import type { FullParseAnswer } from './extract-full.js';

export type PdfTask = { kind: 'warm' } | { kind: 'read'; bytes: Uint8Array } | { kind: 'embed'; bytes: Uint8Array; opts: EmbedOptions };

export type PdfTaskAnswer = FullParseAnswer | { embedded: EmbedResult } | { embedError: { code: string; message: string } };
