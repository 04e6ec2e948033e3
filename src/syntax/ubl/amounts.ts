/**
 * The UBL 2.1 elements of type AmountType that an EN 16931 invoice can carry (cbc: namespace): the elements whose
 * currencyID the EN 16931 code-list rule and Peppol's R051 / CL007 check.
 */
export const UBL_AMOUNT_ELEMENTS: readonly string[] = [
  'Amount',
  'BaseAmount',
  'PriceAmount',
  'TaxAmount',
  'TaxableAmount',
  'LineExtensionAmount',
  'TaxExclusiveAmount',
  'TaxInclusiveAmount',
  'AllowanceTotalAmount',
  'ChargeTotalAmount',
  'PrepaidAmount',
  'PayableRoundingAmount',
  'PayableAmount',
];
