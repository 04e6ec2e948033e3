/**
 * The render formats, in a module of their own so that option checking (src/lib/render-options.ts) does not load the
 * views. A PDF view adds 'pdf' to AVAILABLE_RENDER_FORMATS when it is drawn (see ./render.ts).
 */

/** The formats the contract names for rendering. */
export const RENDER_FORMATS = ['html', 'pdf'] as const;
export type RenderFormat = (typeof RENDER_FORMATS)[number];
/** The formats this build draws; the others answer RENDER_FORMAT_UNAVAILABLE (422). */
export const AVAILABLE_RENDER_FORMATS: readonly RenderFormat[] = ['html'];
