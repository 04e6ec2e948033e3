/**
 * The namespace URIs of UN/CEFACT Cross Domain Acknowledgement and Response (CDAR) D22B, under the prefixes the
 * official artefacts use. The ram/qdt/udt modules are the ones CII uses; only the root's namespace differs.
 */
export const CDAR_NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossDomainAcknowledgementAndResponse:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
} as const;

/** Is this the root of a CDAR message? */
export function isCdarRoot(root: { ns: string; local: string }): boolean {
  return root.local === 'CrossDomainAcknowledgementAndResponse' && root.ns === CDAR_NS.rsm;
}
