/**
 * Where the CPU work of the service runs: validation (also for /v1/merge), XML generation (/v1/xml)
 * and extraction (/v1/extract). Small jobs on the calling thread, big ones in worker threads (piscina):
 *
 * - A typical invoice (10–30 KB) validates in well under a millisecond. Sending it to a worker
 *   costs more than the work (structured clone of the bytes and of the result, a thread hop, a
 *   second copy of the rule sets in memory), and on a 2-core machine the hop's CPU is what limits
 *   throughput. So invoices whose XML is at most `inlineMaxBytes` (VALIDATION_INLINE_MAX_KB, default
 *   128 KB: a few milliseconds of work at most) are validated inline.
 * - A bigger invoice goes to the pool, so that it does not stall the event loop for other requests,
 *   and a pathological one is cut off by `timeoutMs` (the worker running it is terminated and
 *   replaced; the request is answered with ValidationTimeoutError). For a PDF the size that counts
 *   is that of the embedded XML (a small PDF can carry a large compressed XML): it is taken out of
 *   the PDF inline, and if it is too big the whole upload is handed to the pool.
 * - Inline jobs that arrive in one turn of the event loop run together and are answered together
 *   (InlineBatch), validations stage by stage: answering each at once put a socket write between every
 *   two validations and cost ~20% of the CPU per request, and running a batch's validations stage by
 *   stage keeps each stage's code and tables in the CPU caches.
 * - Inline work uses one core. With two or more workers (WORKERS >= 2), when the main thread is
 *   saturated (its event-loop utilisation over the last 100 ms is above 80%), small jobs are sent to the
 *   pool as well (up to SPILL_DEPTH waiting per worker), so that
 *   under sustained load both the main thread and the workers work. The same rules apply to XML
 *   generation (the size of the metadata counts) and extraction (the size of the invoice XML).
 * - The pool starts its threads on first need and lets idle ones go, so a service that only sees
 *   typical invoices at a moderate rate does not carry them in memory.
 *
 * `WORKERS=0` validates everything inline (no pool, no time bound); `VALIDATION_INLINE_MAX_KB=0`
 * sends everything to the pool.
 */
import { existsSync } from 'node:fs';
import { availableCpus } from '../util/cgroup.js';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Piscina } from 'piscina';
import { IngestError, XmlTooLargeError } from '../input/ingest.js';
import type { ExtractionResult } from '../extract/result.js';
import type { SerializedUpload } from '../serialize/upload.js';
import { NothingToRenderError } from '../render/errors.js';
import type { RenderedPage, RenderPageOptions } from '../render/render.js';
import { TransformInputError, type TransformOptions } from '../transform/options.js';
import type { TransformResult } from '../transform/transform.js';
import { MetadataContentError, MetadataNotJsonError, MetadataShapeError } from '../metadata/errors.js';
import type { ValidateOptions, ValidationResult } from './validate.js';
import type { BuiltXml, DrawOptions, MetadataErrorData, WorkerAnswer, WorkerTask } from './worker-task.js';
import { drawInvoice } from './draw-invoice.js';
import { InlineBatch } from './inline-batch.js';
import { withPdfa } from './with-pdfa.js';
import { WorkerGate } from '../workers/gate.js';

export class ValidationTimeoutError extends Error {
  constructor(
    readonly timeoutMs: number,
    what = 'Validation',
  ) {
    super(`${what} did not finish within ${timeoutMs} ms`);
    this.name = 'ValidationTimeoutError';
  }
}

export type { BuiltXml } from './worker-task.js';

export interface ValidationRunner {
  /** inline: everything on the calling thread (WORKERS=0); pool: big jobs in worker threads, small ones inline. */
  readonly mode: 'inline' | 'pool';
  /** How many jobs ran where, since start (tests, diagnostics). */
  readonly counts: { inline: number; pool: number };
  /** Worker threads alive right now (0 when idle: they start on first need). */
  activeThreads(): number;
  /**
   * `timeoutMs` overrides the runner's bound for this call (pool mode). Throws IngestError for unusable uploads.
   * `options.pdfa`: also run the PDF/A layer on a PDF upload, where the validation runs (./with-pdfa.ts).
   */
  validate(bytes: Uint8Array, filename?: string, options?: RunnerValidateOptions, timeoutMs?: number): Promise<ValidationResult>;
  /** Always through a worker (pool mode only): the readiness check uses it to prove the pool works. */
  validateInWorker?(bytes: Uint8Array, filename?: string, options?: RunnerValidateOptions, timeoutMs?: number): Promise<ValidationResult>;
  /**
   * Metadata (JSON text or parsed) → CII XML; throws the metadata errors of src/metadata/errors.ts. With `draw`, the
   * invoice is drawn as a PDF in the same job (`drawn`; /v1/convert without a PDF), unless the metadata asks for UBL.
   */
  buildXml(metadata: unknown, draw?: DrawOptions): Promise<BuiltXml>;
  /** Upload → ExtractionResult; throws IngestError for unusable uploads. */
  extract(bytes: Uint8Array, filename?: string): Promise<ExtractionResult>;
  /** Upload → the /v1/serialize payload (src/serialize/upload.ts); throws IngestError for unusable uploads. */
  serialize(bytes: Uint8Array, filename?: string): Promise<SerializedUpload>;
  /**
   * Upload → the rendered page (src/render/render.ts); throws IngestError for unusable uploads and NothingToRenderError
   * when the upload holds no invoice. Like extract: the size of the invoice XML decides where it runs.
   */
  render(bytes: Uint8Array, filename: string | undefined, options: RenderPageOptions): Promise<RenderedPage>;
  /** Upload → the invoice in the other syntax (src/transform/); throws IngestError or TransformInputError for unusable uploads. */
  transform(bytes: Uint8Array, filename: string | undefined, options: TransformOptions): Promise<TransformResult>;
  close(): Promise<void>;
}

/** The engine's options, plus the PDF/A layer (run with the validation, so a big PDF is checked off the event loop too). */
export type RunnerValidateOptions = ValidateOptions & { pdfa?: boolean };

/**
 * A PDF upload larger than this goes to the pool whole, whatever its embedded XML: reading it (lazy reader,
 * recovery scan) and its PDF/A check cost time in proportion to its size, and a hostile one of a few MB held
 * the event loop for seconds. Honest Factur-X PDFs are mostly far smaller (the shared corpus: median 4 KB,
 * p90 260 KB, p99 1 MB), so nearly all stay inline.
 */
export const PDF_INLINE_MAX_BYTES = 512 * 1024;

const isPdfUpload = (b: Uint8Array) => b.length >= 5 && b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46 && b[4] === 0x2d;
/** Inline work may start on this upload (a big PDF goes to the pool at once). */
const inlineSized = (b: Uint8Array) => !(b.length > PDF_INLINE_MAX_BYTES && isPdfUpload(b));

/** Split the runner's options into the engine's and the PDF/A flag. */
function engineOptions(options: RunnerValidateOptions | undefined): { options?: ValidateOptions; pdfa: boolean } {
  if (!options || !('pdfa' in options)) return { options, pdfa: false };
  const { pdfa, ...rest } = options;
  return { options: rest, pdfa: pdfa === true };
}

/** A metadata error sent back by a worker, as the class the HTTP layer maps. */
function metadataError(data: MetadataErrorData): Error {
  if (data.kind === 'notJson') return new MetadataNotJsonError(data.message, data.code);
  if (data.kind === 'shape') return new MetadataShapeError(data.items);
  const err = new MetadataContentError('The invoice metadata is inconsistent', data.issues);
  err.message = data.message;
  return err;
}

// The inline implementations, loaded on first use (validation brings every rule set).
let pipeline: Promise<typeof import('./validate.js')> | undefined;
const loadPipeline = () => (pipeline ??= import('./validate.js'));
let xmlBuilder: Promise<typeof import('../metadata/build.js')> | undefined;
const loadXmlBuilder = () => (xmlBuilder ??= import('../metadata/build.js'));
let extraction: Promise<[typeof import('../input/ingest.js'), typeof import('../extract/result.js')]> | undefined;
const loadExtraction = () => (extraction ??= Promise.all([import('../input/ingest.js'), import('../extract/result.js')]));

async function buildXmlInline(metadata: unknown, draw?: DrawOptions): Promise<BuiltXml> {
  const built = (await loadXmlBuilder()).buildInvoiceXml(metadata);
  const xml: BuiltXml = {
    xml: built.xml,
    droppedFields: built.droppedFields,
    profile: built.profile,
    invoiceNumber: built.invoice.number ?? undefined,
    syntax: built.syntax,
    target: built.target,
  };
  if (draw && built.syntax !== 'ubl') xml.drawn = await drawInvoice(built.invoice, draw);
  return xml;
}

let serialization: Promise<[typeof import('../input/ingest.js'), typeof import('../serialize/upload.js')]> | undefined;
const loadSerialization = () => (serialization ??= Promise.all([import('../input/ingest.js'), import('../serialize/upload.js')]));

async function serializeInline(bytes: Uint8Array, filename: string | undefined, maxXmlBytes?: number): Promise<SerializedUpload> {
  const [{ ingest }, { serializeIngested }] = await loadSerialization();
  return serializeIngested(await ingest(bytes, filename, maxXmlBytes === undefined ? {} : { maxXmlBytes }));
}

let transformation: Promise<[typeof import('../input/ingest.js'), typeof import('../transform/transform.js')]> | undefined;
const loadTransformation = () => (transformation ??= Promise.all([import('../input/ingest.js'), import('../transform/transform.js')]));

async function transformInline(
  bytes: Uint8Array,
  filename: string | undefined,
  options: TransformOptions,
  maxXmlBytes?: number,
): Promise<TransformResult> {
  const [{ ingest }, { transformIngested }] = await loadTransformation();
  return transformIngested(await ingest(bytes, filename, maxXmlBytes === undefined ? {} : { maxXmlBytes }), options);
}

async function extractInline(bytes: Uint8Array, filename: string | undefined, maxXmlBytes?: number): Promise<ExtractionResult> {
  const [{ ingest }, { toExtractionResult }] = await loadExtraction();
  return toExtractionResult(await ingest(bytes, filename, maxXmlBytes === undefined ? {} : { maxXmlBytes }));
}

let rendering: Promise<[typeof import('../input/ingest.js'), typeof import('../render/render.js')]> | undefined;
const loadRendering = () => (rendering ??= Promise.all([import('../input/ingest.js'), import('../render/render.js')]));

async function renderInline(
  bytes: Uint8Array,
  filename: string | undefined,
  options: RenderPageOptions,
  maxXmlBytes?: number,
): Promise<RenderedPage> {
  const [{ ingest }, { renderIngested }] = await loadRendering();
  return renderIngested(await ingest(bytes, filename, maxXmlBytes === undefined ? {} : { maxXmlBytes }), options);
}

/** Size of the metadata for the inline/pool choice: the JSON text, or (already parsed) a rough count. */
function metadataSize(metadata: unknown): number {
  return typeof metadata === 'string' ? metadata.length : 0;
}

export interface RunnerOptions {
  /** Worker threads; 0 = validate inline on the calling thread. */
  workers: number;
  /** Time bound per validation (pool mode only; an inline call cannot be interrupted). */
  timeoutMs: number;
  /** Pool mode: invoice XML up to this many bytes is validated inline (default 128 KB; 0 = never inline). */
  inlineMaxBytes?: number;
  /** Pool mode: is the main thread saturated? (default: event-loop utilisation, see mainThreadBusy). Tests inject it. */
  isBusy?: () => boolean;
}

/**
 * Event-loop utilisation of this thread over the last ~100 ms is above 80%: the main thread is the
 * bottleneck, so small jobs may go to idle workers too. Sampled by an unref'd timer, so the check is a
 * property read; the timer starts with the first pool-mode runner.
 */
let busy = false;
let busyTimer: NodeJS.Timeout | undefined;
function mainThreadBusy(): boolean {
  if (!busyTimer) {
    let last = performance.eventLoopUtilization();
    busyTimer = setInterval(() => {
      const now = performance.eventLoopUtilization();
      busy = performance.eventLoopUtilization(now, last).utilization > 0.8;
      last = now;
    }, 100);
    busyTimer.unref();
  }
  return busy;
}

export const DEFAULT_INLINE_MAX_BYTES = 128 * 1024;

/**
 * While the main thread is saturated, up to this many small jobs per worker may wait in the pool. With one
 * job per worker, the worker took only about one request in eight at concurrency 8 and idled; a few queued
 * jobs keep it busy while the main thread works on the others.
 */
export const SPILL_DEPTH = 4;

export const DEFAULT_VALIDATION_TIMEOUT_MS = 30_000;

/**
 * The worker module next to this file: worker.js when running compiled code (dist/); under tsx
 * (tests, benchmarks) a small .mjs shim that registers tsx in the worker, then loads worker.ts.
 */
function workerFile(): string {
  const js = fileURLToPath(new URL('./worker.js', import.meta.url));
  return existsSync(js) ? js : fileURLToPath(new URL('./worker-tsx.mjs', import.meta.url));
}

export function createValidationRunner(opts: RunnerOptions): ValidationRunner {
  const counts = { inline: 0, pool: 0 };
  /** Inline jobs of one turn of the event loop run together (validations stage by stage) and are answered together (see InlineBatch). */
  const batch = new InlineBatch();
  if (opts.workers <= 0) {
    return {
      mode: 'inline',
      counts,
      activeThreads: () => 0,
      async validate(bytes, filename, runnerOptions) {
        counts.inline++;
        const { options, pdfa } = engineOptions(runnerOptions);
        const pipelineModule = await loadPipeline();
        return withPdfa(await batch.runStages(() => pipelineModule.validationStages(bytes, filename, options)), bytes, pdfa);
      },
      buildXml(metadata, draw) {
        counts.inline++;
        return batch.run(() => buildXmlInline(metadata, draw));
      },
      extract(bytes, filename) {
        counts.inline++;
        return batch.run(() => extractInline(bytes, filename));
      },
      serialize(bytes, filename) {
        counts.inline++;
        return batch.run(() => serializeInline(bytes, filename));
      },
      render(bytes, filename, options) {
        counts.inline++;
        return batch.run(() => renderInline(bytes, filename, options));
      },
      transform(bytes, filename, options) {
        counts.inline++;
        return batch.run(() => transformInline(bytes, filename, options));
      },
      close: async () => {},
    };
  }
  const inlineMaxBytes = opts.inlineMaxBytes ?? DEFAULT_INLINE_MAX_BYTES;
  const threads = Math.min(opts.workers, availableCpus());
  /**
   * Small jobs stay inline unless the main thread is saturated and workers can take more. Only with two or
   * more workers: one worker (the default) is kept for large invoices, because a worker thread costs ~100 MB
   * and on two cores its help was lost in the noise (the load generator had the other core).
   */
  const spill = threads >= 2;
  const isBusy = opts.isBusy ?? mainThreadBusy;
  if (spill) isBusy(); // start sampling now, so that the first busy period is seen
  const pool = new Piscina({
    filename: workerFile(),
    // Threads start on first need; idle ones end after idleTimeout.
    minThreads: 0,
    maxThreads: threads,
    // No queue bound here: jobs wait in the gate below (which has one), and piscina's own queue holds at most one.
    idleTimeout: 60_000,
    // A young generation of 48 MB (semi-spaces of 16 MB): validation makes short-lived garbage, and the
    // default small semi-spaces made the scavenger run every few invoices. The main thread has the same
    // (the start flags, README Operations); on the 10,000-line invoices the pool takes, 96 MB here made no
    // difference beyond the machine's noise, so it stays 48.
    resourceLimits: { maxYoungGenerationSizeMb: 48 },
  });
  /** In the pool: one job per worker and one waiting (see WorkerGate); beyond threads * 256 waiting here, 503. */
  const gate = new WorkerGate(threads + 1, threads * 256);
  /**
   * Run a task in a worker; bad-input answers come back as the error classes the routes map. The time
   * bound counts from the call: waiting for a worker counts, as the client waits too.
   */
  async function inPool(task: WorkerTask, timeoutMs: number, what: string): Promise<WorkerAnswer> {
    let answer: WorkerAnswer;
    const deadline = performance.now() + timeoutMs;
    counts.pool++;
    try {
      if (!(await gate.acquire(deadline))) throw new ValidationTimeoutError(timeoutMs, what);
      try {
        answer = await pool.run(task, { signal: AbortSignal.timeout(Math.max(1, Math.ceil(deadline - performance.now()))) });
      } finally {
        gate.release();
      }
    } catch (err) {
      const name = (err as Error).name;
      if (name === 'AbortError' || name === 'TimeoutError') throw new ValidationTimeoutError(timeoutMs, what);
      throw err;
    }
    if ('ingestError' in answer) throw new IngestError(answer.ingestError.code, answer.ingestError.message);
    if ('metadataError' in answer) throw metadataError(answer.metadataError);
    if ('renderError' in answer) throw new NothingToRenderError(answer.renderError.code, answer.renderError.message);
    if ('transformError' in answer) throw new TransformInputError(answer.transformError.code, answer.transformError.message);
    return answer;
  }
  const preferInline = () => inlineMaxBytes > 0 && !(spill && gate.jobs < threads * SPILL_DEPTH && isBusy());
  /** Inline (in the batch) with a bound on the invoice XML; undefined when it is over the bound (then the pool takes it). */
  async function boundedInline<T>(run: () => Promise<T>): Promise<T | undefined> {
    try {
      const result = await run();
      counts.inline++;
      return result;
    } catch (err) {
      if (err instanceof XmlTooLargeError) return undefined;
      counts.inline++;
      throw err;
    }
  }
  async function validateInWorker(
    bytes: Uint8Array,
    filename?: string,
    runnerOptions?: RunnerValidateOptions,
    timeoutMs = opts.timeoutMs,
  ): Promise<ValidationResult> {
    const { options, pdfa } = engineOptions(runnerOptions);
    const task: WorkerTask = { bytes, ...(filename ? { filename } : {}), ...(options ? { options } : {}), ...(pdfa ? { pdfa } : {}) };
    return ((await inPool(task, timeoutMs, 'Validation')) as { result: ValidationResult }).result;
  }
  return {
    mode: 'pool',
    counts,
    activeThreads: () => pool.threads.length,
    async validate(bytes, filename, runnerOptions, timeoutMs) {
      if (preferInline() && inlineSized(bytes)) {
        const { options, pdfa } = engineOptions(runnerOptions);
        const pipelineModule = await loadPipeline();
        const result = await boundedInline(() =>
          batch.runStages(() => pipelineModule.validationStages(bytes, filename, options, { maxXmlBytes: inlineMaxBytes })),
        );
        if (result) return withPdfa(result, bytes, pdfa);
      }
      return validateInWorker(bytes, filename, runnerOptions, timeoutMs);
    },
    validateInWorker,
    async buildXml(metadata, draw) {
      if (preferInline() && metadataSize(metadata) <= inlineMaxBytes) {
        counts.inline++;
        return batch.run(() => buildXmlInline(metadata, draw));
      }
      const task: WorkerTask = draw ? { kind: 'xml', metadata, draw } : { kind: 'xml', metadata };
      return ((await inPool(task, opts.timeoutMs, draw ? 'Drawing the invoice' : 'XML generation')) as { xml: BuiltXml }).xml;
    },
    async extract(bytes, filename) {
      if (preferInline() && inlineSized(bytes)) {
        const result = await boundedInline(() => batch.run(() => extractInline(bytes, filename, inlineMaxBytes)));
        if (result) return result;
      }
      const task: WorkerTask = { kind: 'extract', bytes, ...(filename ? { filename } : {}) };
      return ((await inPool(task, opts.timeoutMs, 'Extraction')) as { extraction: ExtractionResult }).extraction;
    },
    async serialize(bytes, filename) {
      // Like extract: the size of the invoice XML decides (a PDF's embedded XML is taken out inline first).
      if (preferInline() && inlineSized(bytes)) {
        const result = await boundedInline(() => batch.run(() => serializeInline(bytes, filename, inlineMaxBytes)));
        if (result) return result;
      }
      const task: WorkerTask = { kind: 'serialize', bytes, ...(filename ? { filename } : {}) };
      return ((await inPool(task, opts.timeoutMs, 'Serialization')) as { serialized: SerializedUpload }).serialized;
    },
    async render(bytes, filename, options) {
      // Like extract: the size of the invoice XML decides (a PDF's embedded XML is taken out inline first).
      if (preferInline() && inlineSized(bytes)) {
        const result = await boundedInline(() => batch.run(() => renderInline(bytes, filename, options, inlineMaxBytes)));
        if (result) return result;
      }
      const task: WorkerTask = { kind: 'render', bytes, options, ...(filename ? { filename } : {}) };
      return ((await inPool(task, opts.timeoutMs, 'Rendering')) as { rendered: RenderedPage }).rendered;
    },
    async transform(bytes, filename, options) {
      // Like extract: the size of the invoice XML decides (a PDF's embedded XML is taken out inline first).
      if (preferInline() && inlineSized(bytes)) {
        const result = await boundedInline(() => batch.run(() => transformInline(bytes, filename, options, inlineMaxBytes)));
        if (result) return result;
      }
      const task: WorkerTask = { kind: 'transform', bytes, options, ...(filename ? { filename } : {}) };
      return ((await inPool(task, opts.timeoutMs, 'Transformation')) as { transformed: TransformResult }).transformed;
    },
    close: () => pool.destroy(),
  };
}
