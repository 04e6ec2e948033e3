/**
 * The native PDF/A layer (pdfa3b) merged into a validation result, where the validation runs (inline, in the
 * worker for a big PDF, or in the library's validate()), when asked for and the upload is a PDF: its verdict in
 * `pdfa_valid`, each failed clause a finding (rule_set "pdfa"), and a PDF that fails PDF/A is not a valid hybrid
 * invoice. The same layer as pro /v1/validate runs (src/pdfa/layer.ts, loaded on first use); over its time
 * budget the layer is skipped and the result partial.
 */
import { isPdf } from '../pdf/contents.js';
import type { ValidationResult } from './validate.js';

let pdfaLayer: Promise<typeof import('../pdfa/layer.js')> | undefined;

export async function withPdfa(result: ValidationResult, bytes: Uint8Array, pdfa: boolean | undefined): Promise<ValidationResult> {
  if (!pdfa || !isPdf(bytes)) return result;
  const { PDFA_LAYER, runPdfaLayer } = await (pdfaLayer ??= import('../pdfa/layer.js'));
  const layer = runPdfaLayer(bytes);
  const layersSkipped = layer.skipped ? [...result.layers_skipped, layer.skipped] : result.layers_skipped;
  return {
    ...result,
    valid: result.valid && layer.pdfa_valid !== false,
    errors: [...result.errors, ...layer.errors],
    pdfa_valid: layer.pdfa_valid,
    layers_executed: layer.executed ? [...result.layers_executed, PDFA_LAYER] : result.layers_executed,
    layers_skipped: layersSkipped,
    validation_completeness: layersSkipped.length === 0 ? result.validation_completeness : 'partial',
  };
}
