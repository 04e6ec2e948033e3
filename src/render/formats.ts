/**
 * The render formats, in a module of their own so that option checking (src/lib/render-options.ts) does not load the
 * views. Every format the contract names is drawn now; the list stays so that a format added to the contract can be
 * named before its view exists (it then answers RENDER_FORMAT_UNAVAILABLE).
 */

/** The formats the contract names for rendering. */
export const RENDER_FORMATS = ['html', 'pdf'] as const;
export type RenderFormat = (typeof RENDER_FORMATS)[number];
/** The formats this build draws; the others answer RENDER_FORMAT_UNAVAILABLE (422). */
export const AVAILABLE_RENDER_FORMATS: readonly RenderFormat[] = ['html', 'pdf'];
