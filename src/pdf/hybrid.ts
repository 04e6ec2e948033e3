/**
 * The embedding entry point, with the container vocabulary of ./container.ts. Free of the PDF library:
 * `embedInvoiceXml` loads embed.ts (and with it @cantoo/pdf-lib, ~400 modules) on first use, so start-up
 * does not pay for it.
 */
import { EmbedError, type EmbedOptions, type EmbedResult } from './container.js';

export {
  DEFAULT_PRODUCER,
  EmbedError,
  HYBRID_FORMATS,
  hybridFlavour,
  type EmbedOptions,
  type EmbedResult,
  type HybridFlavour,
  type HybridFormat,
} from './container.js';

/**
 * Embed invoice XML into a PDF (see embed.ts): the gate vets the file (full-read.ts), then the library
 * does the work, on this thread for a small sound file, else in the PDF worker (pool.ts). Throws EmbedError for input that cannot be used (PDF_LIMIT
 * when the file is over a limit or its parse overran the worker's time or memory), PoolBusyError when
 * the PDF worker's queue is full.
 */
export async function embedInvoiceXml(pdfBytes: Uint8Array, opts: EmbedOptions): Promise<EmbedResult> {
  const { gateForEmbed, INLINE_EMBED_MAX_BYTES } = await import('./full-read.js');
  const { inline, signature } = gateForEmbed(pdfBytes);
  if (signature && !opts.allowSignatureInvalidation) {
    throw new EmbedError(
      'PDF_SIGNED',
      `The PDF is digitally signed (${signature}); embedding the invoice XML rewrites the file and would invalidate the signature. Embed into the unsigned PDF and sign afterwards, or allow the signature to be invalidated (allow_signature_invalidation=true)`,
    );
  }
  let answer;
  // A large XML goes to the worker as well: deflating, hashing and reading back 47 MB of XML held the event
  // loop for 2 s.
  if (inline && opts.xml.length <= INLINE_EMBED_MAX_BYTES) {
    // Small and sound: on this thread (see INLINE_EMBED_MAX_BYTES in full-read.ts for the measurement).
    answer = await (await import('./embed.js')).embedInWorker(pdfBytes, opts);
  } else {
    const { runPdfTask, PdfWorkerOverrunError } = await import('./pool.js');
    try {
      answer = await runPdfTask({ kind: 'embed', bytes: pdfBytes.slice(), opts });
    } catch (err) {
      if (err instanceof PdfWorkerOverrunError) throw new EmbedError('PDF_LIMIT', `The PDF exceeds a processing limit: ${err.message}`);
      throw err;
    }
  }
  if ('embedded' in answer) return signature ? { ...answer.embedded, signatureInvalidated: true } : answer.embedded;
  if ('embedError' in answer) throw new EmbedError(answer.embedError.code as EmbedError['code'], answer.embedError.message);
  throw new EmbedError('PDF_UNREADABLE', 'The PDF could not be read');
}
