/**
 * The contract's ValidationErrorDetail.severity is error or warning: an official information-level finding is listed
 * as a warning (it never made an invoice invalid either way). For the community report (HTTP and the CLI's json);
 * pro diagnostics say `info` instead (diagnostics.ts). A module of its own: the CLI loads it without the rule engine.
 */
export function withContractSeverities<R extends { errors: { severity: string }[] }>(result: R): R {
  if (!result.errors.some((e) => e.severity === 'information')) return result;
  return { ...result, errors: result.errors.map((e) => (e.severity === 'information' ? { ...e, severity: 'warning' } : e)) };
}
