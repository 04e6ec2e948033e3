/**
 * Worker-thread entry of the CPU pool: validation, XML generation and extraction off the main event
 * loop. Errors that mean "bad input" are returned as data, because class identity does not survive
 * the thread hop; the runner turns them back into the same error classes.
 */
import { IngestError } from '../input/ingest.js';
import type { TransformOptions } from '../transform/options.js';
import type { BuiltXml, DrawOptions, WorkerAnswer, WorkerTask } from './worker-task.js';
import { drawInvoice } from './draw-invoice.js';

// Loaded on first use: a worker loads only what its tasks need (the rule sets are the largest part).
let validateModule: Promise<typeof import('./validate.js')> | undefined;
let metadataModules: Promise<[typeof import('../metadata/build.js'), typeof import('../metadata/errors.js')]> | undefined;
let extractModules: Promise<[typeof import('../input/ingest.js'), typeof import('../extract/result.js')]> | undefined;

async function buildXml(metadata: unknown, draw: DrawOptions | undefined): Promise<WorkerAnswer> {
  const [{ buildInvoiceXml }, errors] = await (metadataModules ??= Promise.all([
    import('../metadata/build.js'),
    import('../metadata/errors.js'),
  ]));
  try {
    const built = buildInvoiceXml(metadata);
    const xml: BuiltXml = {
      xml: built.xml,
      droppedFields: built.droppedFields,
      profile: built.profile,
      invoiceNumber: built.invoice.number ?? undefined,
      syntax: built.syntax,
      target: built.target,
    };
    if (draw && built.syntax !== 'ubl') xml.drawn = await drawInvoice(built.invoice, draw);
    return { xml };
  } catch (err) {
    if (err instanceof errors.MetadataNotJsonError) return { metadataError: { kind: 'notJson', message: err.message, code: err.code } };
    if (err instanceof errors.MetadataShapeError) return { metadataError: { kind: 'shape', items: err.items } };
    if (err instanceof errors.MetadataContentError) return { metadataError: { kind: 'content', message: err.message, issues: err.issues } };
    throw err;
  }
}

let serializeModules: Promise<[typeof import('../input/ingest.js'), typeof import('../serialize/upload.js')]> | undefined;

async function serialize(bytes: Uint8Array, filename?: string): Promise<WorkerAnswer> {
  const [{ ingest }, { serializeIngested }] = await (serializeModules ??= Promise.all([
    import('../input/ingest.js'),
    import('../serialize/upload.js'),
  ]));
  return { serialized: serializeIngested(await ingest(bytes, filename)) };
}

async function extract(bytes: Uint8Array, filename?: string): Promise<WorkerAnswer> {
  const [{ ingest }, { toExtractionResult }] = await (extractModules ??= Promise.all([
    import('../input/ingest.js'),
    import('../extract/result.js'),
  ]));
  return { extraction: toExtractionResult(await ingest(bytes, filename)) };
}

let renderModules: Promise<[typeof import('../input/ingest.js'), typeof import('../render/render.js')]> | undefined;

async function render(
  bytes: Uint8Array,
  filename: string | undefined,
  options: import('../render/render.js').RenderPageOptions,
): Promise<WorkerAnswer> {
  const [{ ingest }, renderModule] = await (renderModules ??= Promise.all([import('../input/ingest.js'), import('../render/render.js')]));
  try {
    return { rendered: await renderModule.renderIngested(await ingest(bytes, filename), options) };
  } catch (err) {
    if (err instanceof renderModule.NothingToRenderError) return { renderError: { code: err.code, message: err.message } };
    throw err;
  }
}

let transformModules: Promise<[typeof import('../input/ingest.js'), typeof import('../transform/transform.js')]> | undefined;

async function transform(bytes: Uint8Array, filename: string | undefined, options: TransformOptions): Promise<WorkerAnswer> {
  const [{ ingest }, t] = await (transformModules ??= Promise.all([import('../input/ingest.js'), import('../transform/transform.js')]));
  try {
    return { transformed: t.transformIngested(await ingest(bytes, filename), options) };
  } catch (err) {
    if (err instanceof t.TransformInputError) return { transformError: { code: err.code, message: err.message } };
    throw err;
  }
}

export default async function runInWorker(task: WorkerTask): Promise<WorkerAnswer> {
  try {
    if (task.kind === 'render') return await render(task.bytes, task.filename, task.options);
    if (task.kind === 'transform') return await transform(task.bytes, task.filename, task.options);
    if (task.kind === 'xml') return await buildXml(task.metadata, task.draw);
    if (task.kind === 'extract') return await extract(task.bytes, task.filename);
    if (task.kind === 'serialize') return await serialize(task.bytes, task.filename);
    const { validateBytes } = await (validateModule ??= import('./validate.js'));
    const result = await validateBytes(task.bytes, task.filename, task.options);
    return { result: task.pdfa ? await (await import('./with-pdfa.js')).withPdfa(result, task.bytes, true) : result };
  } catch (err) {
    if (err instanceof IngestError) return { ingestError: { code: err.code, message: err.message } };
    throw err;
  }
}
