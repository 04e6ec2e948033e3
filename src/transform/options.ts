/**
 * The options of a transform (target syntax and profile) and its input errors: light, so that the library and the
 * HTTP route check a request before loading the transform itself.
 */
import { PROFILE_IDS, UBL_PROFILE_IDS, type OutputProfile, type OutputSyntax } from '../model/profiles.js';

/** The target syntaxes. */
export const TRANSFORM_SYNTAXES: readonly OutputSyntax[] = ['cii', 'ubl'];

export interface TransformOptions {
  to: OutputSyntax;
  /** Target profile: for ubl en16931, xrechnung, peppol; for cii a Factur-X profile or xrechnung. Default: from the source. */
  profile?: OutputProfile;
}

/** The source cannot be transformed (HTTP 400 with `code`): no invoice in it, or one we cannot read. */
export class TransformInputError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'TransformInputError';
  }
}

/** The target asked for does not exist or does not go with the syntax (HTTP 422 at `field`). */
export class TransformOptionError extends Error {
  constructor(
    readonly field: 'to' | 'profile',
    message: string,
    readonly input: unknown,
    /** HTTPValidationError type: `enum` for a value that is none of the choices, `value_error` for one the syntax does not have. */
    readonly type: 'enum' | 'value_error' = 'enum',
  ) {
    super(message);
    this.name = 'TransformOptionError';
  }
}

/** Check `to` and `profile` (as sent: strings), before any work. */
export function checkTransformOptions(to: unknown, profile: unknown): { to: OutputSyntax; profile?: OutputProfile } {
  const syntax = typeof to === 'string' ? to.trim().toLowerCase() : to;
  if (syntax !== 'cii' && syntax !== 'ubl') throw new TransformOptionError('to', "Input should be 'cii' or 'ubl'", to);
  if (profile === undefined || profile === null || profile === '') return { to: syntax };
  const lower = typeof profile === 'string' ? profile.trim().toLowerCase() : profile;
  // BusinessReadyInvoice's name for XRechnung, accepted as on /v1/xml.
  const p = lower === 'xrechnung_3.0' ? 'xrechnung' : lower;
  const allowed: readonly string[] = syntax === 'ubl' ? UBL_PROFILE_IDS : PROFILE_IDS;
  if (typeof p !== 'string' || !allowed.includes(p)) {
    if (syntax === 'cii' && p === 'peppol')
      throw new TransformOptionError('profile', 'Peppol BIS Billing 3.0 is written as UBL: use to=ubl', profile, 'value_error');
    if (syntax === 'ubl' && typeof p === 'string' && (PROFILE_IDS as readonly string[]).includes(p))
      throw new TransformOptionError(
        'profile',
        `profile ${p} is ${p === 'extended_ctc_fr' ? 'a French CII profile' : 'a Factur-X profile'}, written as CII only; with to=ubl use en16931, xrechnung or peppol`,
        profile,
        'value_error',
      );
    throw new TransformOptionError('profile', `Input should be ${allowed.map((a) => `'${a}'`).join(', ')}`, profile);
  }
  return { to: syntax, profile: p as OutputProfile };
}
