/**
 * The dependency rules of src/ (`npm run check:deps`, run by .ci/run): no import cycles, and no import from a
 * layer to a layer above it. docs/architecture.md ("Layers") explains each layer; keep the two in step.
 *
 * Layers are matched by folder, so a new folder inside a layer's folder belongs to it without an edit here
 * (src/pdf/repair/ is "pdf", src/rules/peppol/ is "rule sets", src/syntax/ubl/writer.ts is "syntax"). A new
 * folder directly under src/ must be placed in a layer: until it is, the check fails (rule "layer-unplaced").
 * Type-only imports and dynamic import() count like any other import: a lazy load still points down.
 */

/** Bottom first. A module may import its own layer and the layers below it, never one above. */
const LAYERS = [
  // The report's vocabulary (findings, skipped layers), the worker gate both pools use, small helpers.
  { name: 'base', paths: ['^src/util/', '^src/report/', '^src/workers/', '^src/license/', '^src/version\\.ts$'] },
  // The EN 16931 invoice model, decimal money, profiles.
  { name: 'model', paths: ['^src/model/'] },
  // XML parsing and the native XSD engine.
  { name: 'xml', paths: ['^src/xml/'] },
  // PDF reading, writing and repairs, and the PDF/A checker (see rule "pdfa-below-pdf-writer").
  { name: 'pdf', paths: ['^src/pdf/', '^src/pdfa/'] },
  // The rule engine, its vocabulary and report bounds, and the generated code lists.
  { name: 'rule-engine', paths: ['^src/rules/(?!releases\\.ts$)[^/]+\\.ts$', '^src/rules/data/'] },
  // The CII and UBL adapters: readers, writers, syntax binding rules, detection.
  { name: 'syntax', paths: ['^src/syntax/'] },
  // The rule sets (one folder each) and the catalogue of their releases.
  { name: 'rule-sets', paths: ['^src/rules/(?!data/)[^/]+/', '^src/rules/releases\\.ts$'] },
  // ingest(): an upload (PDF or XML) to XML and the model.
  { name: 'input', paths: ['^src/input/'] },
  // Mappings of the model and documents: metadata JSON → model, model → ExtractionResult / BusinessReadyInvoice / views.
  { name: 'documents', paths: ['^src/metadata/', '^src/extract/', '^src/serialize/', '^src/render/'] },
  // The validation pipeline and the runner (where every operation's CPU work runs); the CDAR status messages; the
  // CII ⇄ UBL transform (the runner runs it; it names what it drops with the diagnostics' term tables).
  { name: 'validation', paths: ['^src/validation/', '^src/cdar/', '^src/transform/'] },
  // The operations: one implementation each, used by the HTTP routes, the CLI and the library.
  { name: 'operations', paths: ['^src/lib/'] },
  // What reads the outside world: HTTP, the command line, the environment.
  { name: 'interfaces', paths: ['^src/http/', '^src/cli/', '^src/config\\.ts$'] },
  // Entry points.
  { name: 'entry', paths: ['^src/main\\.ts$', '^src/processes\\.ts$'] },
];

const upward = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer-${layer.name}`,
  comment: `${layer.name} is below ${LAYERS.slice(i + 1)
    .map((l) => l.name)
    .join(', ')}: it must not import them (docs/architecture.md, "Layers")`,
  severity: 'error',
  from: { path: layer.paths },
  to: { path: LAYERS.slice(i + 1).flatMap((l) => l.paths) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules of src/ must not import each other in a circle (type-only and dynamic imports included)',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...upward,
    {
      name: 'pdfa-below-pdf-writer',
      comment: 'The PDF/A checker reads PDFs (src/pdf) and is used by the writer and its repairs, never the reverse',
      severity: 'error',
      from: { path: '^src/pdfa/' },
      to: { path: ['^src/pdf/(repair|fonts)/', '^src/pdf/(embed|hybrid)\\.ts$'] },
    },
    {
      name: 'layer-unplaced',
      comment: 'Every module of src/ belongs to a layer: place a new top-level folder in LAYERS (and in docs/architecture.md)',
      severity: 'error',
      from: { path: '^src/', pathNot: LAYERS.flatMap((l) => l.paths) },
      to: {},
    },
    {
      name: 'layer-unplaced-import',
      comment: 'Every module of src/ belongs to a layer: place a new top-level folder in LAYERS (and in docs/architecture.md)',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/', pathNot: LAYERS.flatMap((l) => l.paths) },
    },
  ],
  options: {
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
