/**
 * The Factur-X "not used in this profile" reports: an element (or an attribute of it) that the
 * profile does not use is reported where it occurs. The official reports carry no id; we report
 * them as FX-NU-<hash> (see catalogue.data.ts), one finding per offending node, as errors (the
 * reference validators treat them as fatal).
 */
import type { Rule, Violation } from '../types.js';
import { attr, where } from '../xrechnung/dom.js';
import { FX_CATALOGUE } from './catalogue.data.js';
import { contextHandle, contextNodes } from './codelists.js';
import { NO_VIOLATIONS } from '../engine.js';
import { MAX_FINDINGS_PER_RULE, UNLISTED } from '../report-bounds.js';
import type { FxReleaseDelta } from './release-delta-types.js';

export function notUsedRules(set: string, delta?: FxReleaseDelta): Rule[] {
  const reports = FX_CATALOGUE[set]?.notUsed ?? [];
  // An older release lacks some of the bundled release's report contexts.
  const dropped = new Set(delta?.notUsedNew ?? []);
  return reports.map((r) => {
    const handles = r.contexts.filter((c) => !dropped.has(c)).map(contextHandle);
    return {
      id: r.id,
      severity: 'error' as const,
      message: r.attribute
        ? `The attribute @${r.attribute} is not used in this Factur-X profile here.`
        : 'This element is not used in this Factur-X profile.',
      check(ctx) {
        // A profile-conformant invoice has none of these elements: no list unless one is found.
        let out: Violation[] | undefined;
        for (let h = 0; h < handles.length; h++) {
          const nodes = contextNodes(ctx.doc, handles[h]);
          for (let i = 0; i < nodes.length; i++) {
            const node = nodes[i];
            if (r.attribute && attr(node, r.attribute) === undefined) continue;
            if (out !== undefined && out.length >= MAX_FINDINGS_PER_RULE) {
              out.push(UNLISTED); // counted, not listed (report-bounds.ts): no path, no message
              continue;
            }
            (out ??= []).push({
              location: where(node),
              message: r.attribute
                ? `@${r.attribute} of ${node.local} is not used in this Factur-X profile.`
                : `${node.local} is not used in this Factur-X profile.`,
            });
          }
        }
        return out ?? NO_VIOLATIONS;
      },
    };
  });
}
