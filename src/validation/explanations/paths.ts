/**
 * Which business term an XML location stands for: the CII and UBL bindings of the EN 16931 terms, as far
 * as the element path tells (an element's name and the party or group it sits in). The smart diagnostics
 * use it to name the term behind a structural finding (a Factur-X profile cardinality rule, an element "not
 * used in this profile", a syntax binding rule) whose message speaks of XML elements.
 */

/** Path segments without prefixes and positions: "/rsm:A[1]/ram:B[2]" → ["A", "B"]; "@x" stays "@x". */
function segments(location: string): string[] {
  return location
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/\[.*$/, '').replace(/^(@?)[A-Za-z0-9_-]+:/, '$1'));
}

type PartyKind = 'seller' | 'buyer' | 'payee' | 'taxrep' | 'shipto';

const CII_PARTY: Record<string, PartyKind> = {
  SellerTradeParty: 'seller',
  BuyerTradeParty: 'buyer',
  PayeeTradeParty: 'payee',
  SellerTaxRepresentativeTradeParty: 'taxrep',
  ShipToTradeParty: 'shipto',
};
const UBL_PARTY: Record<string, PartyKind> = {
  AccountingSupplierParty: 'seller',
  AccountingCustomerParty: 'buyer',
  PayeeParty: 'payee',
  TaxRepresentativeParty: 'taxrep',
  Delivery: 'shipto',
};

// Per party: group, name, trading name, identifier, legal registration id, VAT id, electronic address,
// postal address group, address lines 1..3, city, post code, subdivision, country, contact group,
// contact point, telephone, email.
const PARTY_TERMS: Record<PartyKind, Record<string, string>> = {
  seller: {
    party: 'BG-4',
    name: 'BT-27',
    trading: 'BT-28',
    id: 'BT-29',
    legal: 'BT-30',
    vat: 'BT-31',
    taxreg: 'BT-32',
    legalinfo: 'BT-33',
    eaddr: 'BT-34',
    address: 'BG-5',
    line1: 'BT-35',
    line2: 'BT-36',
    line3: 'BT-162',
    city: 'BT-37',
    postcode: 'BT-38',
    subdivision: 'BT-39',
    country: 'BT-40',
    contact: 'BG-6',
    person: 'BT-41',
    phone: 'BT-42',
    email: 'BT-43',
  },
  buyer: {
    party: 'BG-7',
    name: 'BT-44',
    trading: 'BT-45',
    id: 'BT-46',
    legal: 'BT-47',
    vat: 'BT-48',
    eaddr: 'BT-49',
    address: 'BG-8',
    line1: 'BT-50',
    line2: 'BT-51',
    line3: 'BT-163',
    city: 'BT-52',
    postcode: 'BT-53',
    subdivision: 'BT-54',
    country: 'BT-55',
    contact: 'BG-9',
    person: 'BT-56',
    phone: 'BT-57',
    email: 'BT-58',
  },
  payee: { party: 'BG-10', name: 'BT-59', id: 'BT-60', legal: 'BT-61' },
  taxrep: {
    party: 'BG-11',
    name: 'BT-62',
    vat: 'BT-63',
    address: 'BG-12',
    line1: 'BT-64',
    line2: 'BT-65',
    line3: 'BT-164',
    city: 'BT-66',
    postcode: 'BT-67',
    subdivision: 'BT-68',
    country: 'BT-69',
  },
  shipto: {
    party: 'BG-13',
    name: 'BT-70',
    id: 'BT-71',
    address: 'BG-15',
    line1: 'BT-75',
    line2: 'BT-76',
    line3: 'BT-165',
    city: 'BT-77',
    postcode: 'BT-78',
    subdivision: 'BT-79',
    country: 'BT-80',
  },
};

const CII_PARTY_FIELD: Record<string, string> = {
  Name: 'name',
  TradingBusinessName: 'trading',
  ID: 'id',
  GlobalID: 'id',
  SpecifiedLegalOrganization: 'legal',
  SpecifiedTaxRegistration: 'vat',
  URIUniversalCommunication: 'eaddr',
  PostalTradeAddress: 'address',
  LineOne: 'line1',
  LineTwo: 'line2',
  LineThree: 'line3',
  CityName: 'city',
  PostcodeCode: 'postcode',
  CountrySubDivisionName: 'subdivision',
  CountryID: 'country',
  DefinedTradeContact: 'contact',
  PersonName: 'person',
  DepartmentName: 'person',
  TelephoneUniversalCommunication: 'phone',
  EmailURIUniversalCommunication: 'email',
  Description: 'legalinfo',
};

const UBL_PARTY_FIELD: Record<string, string> = {
  PartyName: 'trading',
  PartyIdentification: 'id',
  RegistrationName: 'name',
  CompanyID: 'legal',
  PartyLegalEntity: 'legal',
  PartyTaxScheme: 'vat',
  EndpointID: 'eaddr',
  PostalAddress: 'address',
  Address: 'address',
  StreetName: 'line1',
  AdditionalStreetName: 'line2',
  AddressLine: 'line3',
  CityName: 'city',
  PostalZone: 'postcode',
  CountrySubentity: 'subdivision',
  Country: 'country',
  IdentificationCode: 'country',
  Contact: 'contact',
  Telephone: 'phone',
  ElectronicMail: 'email',
  CompanyLegalForm: 'legalinfo',
};

/** Terms by element name where the name alone decides (CII), with the line-level alternative where it differs. */
const CII_LEAF: Record<string, [header: string, line?: string]> = {
  GuidelineSpecifiedDocumentContextParameter: ['BT-24'],
  BusinessProcessSpecifiedDocumentContextParameter: ['BT-23'],
  IssueDateTime: ['BT-2'],
  IncludedNote: ['BG-1', 'BT-127'],
  Content: ['BT-22', 'BT-127'],
  SubjectCode: ['BT-21'],
  BuyerReference: ['BT-10'],
  SellerOrderReferencedDocument: ['BT-14'],
  BuyerOrderReferencedDocument: ['BT-13', 'BT-132'],
  ContractReferencedDocument: ['BT-12'],
  AdditionalReferencedDocument: ['BG-24', 'BT-128'],
  SpecifiedProcuringProject: ['BT-11'],
  DespatchAdviceReferencedDocument: ['BT-16'],
  ReceivingAdviceReferencedDocument: ['BT-15'],
  ActualDeliverySupplyChainEvent: ['BT-72'],
  OccurrenceDateTime: ['BT-72'],
  InvoiceCurrencyCode: ['BT-5'],
  TaxCurrencyCode: ['BT-6'],
  PaymentReference: ['BT-83'],
  CreditorReferenceID: ['BT-90'],
  SpecifiedTradeSettlementPaymentMeans: ['BG-16'],
  PayeePartyCreditorFinancialAccount: ['BG-17'],
  IBANID: ['BT-84'],
  ProprietaryID: ['BT-84'],
  AccountName: ['BT-85'],
  PayeeSpecifiedCreditorFinancialInstitution: ['BT-86'],
  BICID: ['BT-86'],
  PayerPartyDebtorFinancialAccount: ['BT-91'],
  ApplicableTradeSettlementFinancialCard: ['BG-18'],
  CardholderName: ['BT-88'],
  Information: ['BT-82'],
  SpecifiedTradePaymentTerms: ['BT-20'],
  DueDateDateTime: ['BT-9'],
  DirectDebitMandateID: ['BT-89'],
  ApplicableTradeTax: ['BG-23', 'BG-30'],
  CalculatedAmount: ['BT-117'],
  BasisAmount: ['BT-116'],
  CategoryCode: ['BT-118', 'BT-151'],
  RateApplicablePercent: ['BT-119', 'BT-152'],
  ExemptionReason: ['BT-120'],
  ExemptionReasonCode: ['BT-121'],
  DueDateTypeCode: ['BT-8'],
  TaxPointDate: ['BT-7'],
  BillingSpecifiedPeriod: ['BG-14', 'BG-26'],
  StartDateTime: ['BT-73', 'BT-134'],
  EndDateTime: ['BT-74', 'BT-135'],
  InvoiceReferencedDocument: ['BG-3'],
  FormattedIssueDateTime: ['BT-26'],
  ReceivableSpecifiedTradeAccountingAccount: ['BT-19', 'BT-133'],
  LineTotalAmount: ['BT-106', 'BT-131'],
  ChargeTotalAmount: ['BT-108'],
  AllowanceTotalAmount: ['BT-107'],
  TaxBasisTotalAmount: ['BT-109'],
  TaxTotalAmount: ['BT-110'],
  GrandTotalAmount: ['BT-112'],
  TotalPrepaidAmount: ['BT-113'],
  RoundingAmount: ['BT-114'],
  DuePayableAmount: ['BT-115'],
  SpecifiedTradeSettlementHeaderMonetarySummation: ['BG-22'],
  IncludedSupplyChainTradeLineItem: ['BG-25', 'BG-25'],
  AssociatedDocumentLineDocument: ['BT-126', 'BT-126'],
  LineID: ['BT-126', 'BT-126'],
  SpecifiedTradeProduct: ['BG-31', 'BG-31'],
  SellerAssignedID: ['BT-155', 'BT-155'],
  BuyerAssignedID: ['BT-156', 'BT-156'],
  DesignatedProductClassification: ['BT-158', 'BT-158'],
  ClassCode: ['BT-158', 'BT-158'],
  OriginTradeCountry: ['BT-159', 'BT-159'],
  ApplicableProductCharacteristic: ['BG-32', 'BG-32'],
  Value: ['BT-161', 'BT-161'],
  NetPriceProductTradePrice: ['BT-146', 'BT-146'],
  GrossPriceProductTradePrice: ['BT-148', 'BT-148'],
  BasisQuantity: ['BT-149', 'BT-149'],
  BilledQuantity: ['BT-129', 'BT-129'],
  '@unitCode': ['BT-130', 'BT-130'],
  SpecifiedLineTradeSettlement: ['BG-25', 'BG-25'],
  SpecifiedTradeSettlementLineMonetarySummation: ['BT-131', 'BT-131'],
};

const UBL_LEAF: Record<string, [header: string, line?: string]> = {
  CustomizationID: ['BT-24'],
  ProfileID: ['BT-23'],
  IssueDate: ['BT-2'],
  DueDate: ['BT-9'],
  InvoiceTypeCode: ['BT-3'],
  CreditNoteTypeCode: ['BT-3'],
  Note: ['BT-22', 'BT-127'],
  TaxPointDate: ['BT-7'],
  DocumentCurrencyCode: ['BT-5'],
  TaxCurrencyCode: ['BT-6'],
  AccountingCost: ['BT-19', 'BT-133'],
  BuyerReference: ['BT-10'],
  InvoicePeriod: ['BG-14', 'BG-26'],
  StartDate: ['BT-73', 'BT-134'],
  EndDate: ['BT-74', 'BT-135'],
  DescriptionCode: ['BT-8'],
  OrderReference: ['BT-13'],
  OrderLineReference: ['BT-132', 'BT-132'],
  BillingReference: ['BG-3'],
  InvoiceDocumentReference: ['BG-3'],
  DespatchDocumentReference: ['BT-16'],
  ReceiptDocumentReference: ['BT-15'],
  OriginatorDocumentReference: ['BT-17'],
  ContractDocumentReference: ['BT-12'],
  AdditionalDocumentReference: ['BG-24', 'BT-128'],
  ProjectReference: ['BT-11'],
  PaymentMeans: ['BG-16'],
  PaymentMeansCode: ['BT-81'],
  PaymentID: ['BT-83'],
  PayeeFinancialAccount: ['BG-17'],
  FinancialInstitutionBranch: ['BT-86'],
  CardAccount: ['BG-18'],
  PrimaryAccountNumberID: ['BT-87'],
  HolderName: ['BT-88'],
  PaymentMandate: ['BG-19'],
  PayerFinancialAccount: ['BT-91'],
  PaymentTerms: ['BT-20'],
  AllowanceCharge: ['BG-20', 'BG-27'],
  TaxTotal: ['BT-110'],
  TaxSubtotal: ['BG-23'],
  TaxableAmount: ['BT-116'],
  TaxCategory: ['BG-23'],
  ClassifiedTaxCategory: ['BG-30', 'BG-30'],
  Percent: ['BT-119', 'BT-152'],
  TaxExemptionReason: ['BT-120'],
  TaxExemptionReasonCode: ['BT-121'],
  LegalMonetaryTotal: ['BG-22'],
  LineExtensionAmount: ['BT-106', 'BT-131'],
  TaxExclusiveAmount: ['BT-109'],
  TaxInclusiveAmount: ['BT-112'],
  AllowanceTotalAmount: ['BT-107'],
  ChargeTotalAmount: ['BT-108'],
  PrepaidAmount: ['BT-113'],
  PayableRoundingAmount: ['BT-114'],
  PayableAmount: ['BT-115'],
  InvoiceLine: ['BG-25', 'BG-25'],
  CreditNoteLine: ['BG-25', 'BG-25'],
  InvoicedQuantity: ['BT-129', 'BT-129'],
  CreditedQuantity: ['BT-129', 'BT-129'],
  Item: ['BG-31', 'BG-31'],
  SellersItemIdentification: ['BT-155', 'BT-155'],
  BuyersItemIdentification: ['BT-156', 'BT-156'],
  StandardItemIdentification: ['BT-157', 'BT-157'],
  CommodityClassification: ['BT-158', 'BT-158'],
  OriginCountry: ['BT-159', 'BT-159'],
  AdditionalItemProperty: ['BG-32', 'BG-32'],
  Price: ['BG-29', 'BG-29'],
  PriceAmount: ['BT-146', 'BT-146'],
  BaseQuantity: ['BT-149', 'BT-149'],
  ActualDeliveryDate: ['BT-72'],
};

function partyTerm(kind: PartyKind, field: string | undefined): string | undefined {
  const t = PARTY_TERMS[kind];
  return field ? (t[field] ?? t.party) : t.party;
}

/**
 * The business terms a location points at, most specific first (an element inside a party gives the
 * party's term; an element of a line gives the line-level term). Empty when the path tells nothing.
 */
export function termsAt(location: string | undefined): string[] {
  if (!location || !location.startsWith('/')) return [];
  const segs = segments(location);
  const cii = segs[0] === 'CrossIndustryInvoice';
  const partyTable = cii ? CII_PARTY : UBL_PARTY;
  const fieldTable = cii ? CII_PARTY_FIELD : UBL_PARTY_FIELD;
  const leafTable = cii ? CII_LEAF : UBL_LEAF;
  const onLine = segs.some((s) => s === 'IncludedSupplyChainTradeLineItem' || s === 'InvoiceLine' || s === 'CreditNoteLine');
  const out: string[] = [];
  // The deepest party on the path decides party fields.
  let partyAt = -1;
  for (let i = segs.length - 1; i >= 0; i--) {
    // UBL Delivery is the deliver-to party only through its DeliveryParty / DeliveryLocation.
    const deliveryDate = !cii && segs[i] === 'Delivery' && segs[i + 1] !== 'DeliveryParty' && segs[i + 1] !== 'DeliveryLocation';
    if (partyTable[segs[i]] && !deliveryDate) {
      partyAt = i;
      break;
    }
  }
  if (partyAt >= 0) {
    const kind = partyTable[segs[partyAt]];
    // The most specific field below the party: the last segment that names a field.
    let field: string | undefined;
    for (let i = segs.length - 1; i > partyAt; i--) {
      const f = fieldTable[segs[i]];
      if (f) {
        field = f;
        break;
      }
    }
    const term = partyTerm(kind, field);
    if (term) out.push(term);
    return out;
  }
  for (let i = segs.length - 1; i >= 0; i--) {
    const leaf = leafTable[segs[i]];
    if (leaf) {
      const t = onLine ? (leaf[1] ?? leaf[0]) : leaf[0];
      if (!out.includes(t)) out.push(t);
      break;
    }
  }
  if (cii) {
    const last = segs[segs.length - 1];
    const parent = segs[segs.length - 2];
    if (last === 'ID' && parent === 'ExchangedDocument') return ['BT-1'];
    if (last === 'TypeCode' && parent === 'ExchangedDocument') return ['BT-3'];
    if (last === 'TypeCode' && parent === 'SpecifiedTradeSettlementPaymentMeans') return ['BT-81'];
    if (last === 'Name' && parent === 'SpecifiedTradeProduct') return ['BT-153'];
    if (last === 'Description' && parent === 'SpecifiedTradeProduct') return ['BT-154'];
    if (last === 'Description' && parent === 'ApplicableProductCharacteristic') return ['BT-160'];
    if (last === 'GlobalID' && parent === 'SpecifiedTradeProduct') return ['BT-157'];
    if (segs.includes('SpecifiedTradeAllowanceCharge') || segs.includes('AppliedTradeAllowanceCharge')) {
      const ac = allowanceChargeTerm(last, onLine, segs.includes('AppliedTradeAllowanceCharge'));
      if (ac) return [ac];
    }
  } else {
    const last = segs[segs.length - 1];
    const parent = segs[segs.length - 2];
    if (last === 'ID' && (parent === 'Invoice' || parent === 'CreditNote')) return ['BT-1'];
    if (last === 'Name' && parent === 'Item') return ['BT-153'];
    if (last === 'Description' && parent === 'Item') return ['BT-154'];
    if (last === 'ID' && parent === 'PayeeFinancialAccount') return ['BT-84'];
    if (last === 'Name' && parent === 'PayeeFinancialAccount') return ['BT-85'];
    if (last === 'ID' && parent === 'TaxCategory') return [onLine ? 'BT-151' : 'BT-118'];
    if (last === 'ID' && parent === 'ClassifiedTaxCategory') return ['BT-151'];
    if (last === 'TaxAmount' && parent === 'TaxSubtotal') return ['BT-117'];
  }
  return out;
}

function allowanceChargeTerm(last: string, onLine: boolean, priceDiscount: boolean): string | undefined {
  if (priceDiscount) return 'BT-147';
  const byLeaf: Record<string, [string, string]> = {
    ActualAmount: ['BT-92', 'BT-136'],
    BasisAmount: ['BT-93', 'BT-137'],
    CalculationPercent: ['BT-94', 'BT-138'],
    Reason: ['BT-97', 'BT-139'],
    ReasonCode: ['BT-98', 'BT-140'],
    SpecifiedTradeAllowanceCharge: ['BG-20', 'BG-27'],
  };
  const pair = byLeaf[last];
  return pair ? (onLine ? pair[1] : pair[0]) : onLine ? 'BG-27' : 'BG-20';
}
