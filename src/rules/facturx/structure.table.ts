/**
 * The structural asserts of the Factur-X profile schematrons (FX-SCH-A-*: "element X must occur
 * exactly once / at most n times / at least once here", "attribute @x is required here"), one line
 * per assert id: `<id suffix> <test>`, where the test is `=1 Child`, `<=n Child`, `>=1 Child` (Child
 * a ram: child element, possibly with the official predicate) or `@attribute`.
 *
 * Transcribed from the Factur-X 1.09.2 EN16931-CONFORMANT-EXTENDED schematron (the profile catalogue in
 * ../shared/docs/rules keeps the ids and contexts but not the tests). The ids are shared by the profiles:
 * every id has the same context in every profile that carries it. The ids only MINIMUM to EN 16931 carry
 * (e.g. 000160, 000268, 000408, 000452) come from those profiles' rules, whose tests follow the same
 * generated pattern (the unique id given to what was an older shared id: GlobalID at most once for the
 * ship-to and payee parties, ID exactly once for the buyer's legal organisation, and so on).
 * The rule contexts come from the catalogue (FX_STRUCTURE_CONTEXTS, generated).
 */
export const STRUCTURE_TABLE = `
000019 =1 ID
000020 =1 TypeCode
000021 @format
000024 <=1 BusinessProcessSpecifiedDocumentContextParameter
000025 =1 GuidelineSpecifiedDocumentContextParameter
000027 =1 SellerTradeParty
000028 =1 BuyerTradeParty
000029 =1 IssuerAssignedID
000030 =1 Name
000032 =1 PostalTradeAddress
000033 <=1 SpecifiedTaxRegistration[ram:ID/@schemeID="VA"]
000034 <=1 SpecifiedTaxRegistration[ram:ID/@schemeID="FC"]
000035 =1 CountryID
000037 @schemeID
000038 =1 InvoiceCurrencyCode
000039 =1 SpecifiedTradeSettlementHeaderMonetarySummation
000041 =1 TaxBasisTotalAmount
000042 <=1 TaxTotalAmount[@currencyID=../../ram:InvoiceCurrencyCode]
000043 =1 GrandTotalAmount
000044 =1 DuePayableAmount
000160 =1 Content
000161 <=1 SubjectCode
000163 <=1 ID
000164 <=1 GlobalID
000165 <=1 URIUniversalCommunication
000166 <=1 SpecifiedTaxRegistration
000167 <=1 CountrySubDivisionName
000168 =1 URIID
000169 =1 SpecifiedTaxRegistration
000171 =1 OccurrenceDateTime
000172 <=1 PaymentReference
000173 >=1 ApplicableTradeTax
000174 <=1 SpecifiedTradePaymentTerms
000175 <=1 ReceivableSpecifiedTradeAccountingAccount
000176 =1 CalculatedAmount
000177 =1 BasisAmount
000178 =1 CategoryCode
000183 =1 ChargeIndicator
000184 =1 ActualAmount
000185 =1 CategoryTradeTax
000187 <=1 Description
000188 <=1 DirectDebitMandateID
000189 =1 LineTotalAmount
000190 <=1 ChargeTotalAmount
000191 <=1 AllowanceTotalAmount
000192 <=1 TaxTotalAmount[@currencyID=../../ram:TaxCurrencyCode]
000193 <=1 TotalPrepaidAmount
000194 <=1 PayeePartyCreditorFinancialAccount
000195 =1 IBANID
000265 >=1 IncludedSupplyChainTradeLineItem
000266 =1 AssociatedDocumentLineDocument
000267 =1 SpecifiedTradeProduct
000268 =1 SpecifiedLineTradeAgreement
000269 =1 SpecifiedLineTradeDelivery
000270 =1 LineID
000271 <=1 IncludedNote
000272 =1 NetPriceProductTradePrice
000273 =1 ChargeAmount
000274 <=1 AppliedTradeAllowanceCharge[ram:ChargeIndicator/udt:Indicator="false"]
000276 =1 BilledQuantity
000277 @unitCode
000278 =1 ApplicableTradeTax
000279 =1 SpecifiedTradeSettlementLineMonetarySummation
000283 <=1 Name
000284 <=1 AttachmentBinaryObject
000285 @mimeCode
000286 @filename
000288 <=1 DefinedTradeContact
000289 =1 CompleteNumber
000290 <=1 RoundingAmount
000291 <=1 Information
000292 =1 BICID
000293 <=1 AdditionalReferencedDocument
000294 =1 Description
000295 =1 Value
000296 @listID
000315 <=1 LanguageID
000316 =1 CompleteDateTime
000317 <=1 Content
000319 =1 DeliveryTypeCode
000321 <=1 RoleCode
000322 =1 ModeCode
000323 <=1 LineTotalBasisAmount
000324 <=1 AllowanceChargeBasisAmount
000325 >=1 IncludedTradeTax
000326 <=1 InvoiceSpecifiedReferencedDocument
000327 =1 AppliedAmount
000328 >=1 AppliedTradeTax
000329 =1 RateApplicablePercent
000330 <=1 PartialPaymentAmount
000331 <=1 PayeeTradeParty
000336 <=1 IncludedTradeTax
000337 <=1 InvoiceReferencedDocument
000338 <=1 CalculatedAmount
000340 <=1 GrandTotalAmount
000341 <=1 TotalAllowanceChargeAmount
000342 <=1 ClassName
000343 <=1 IndustryAssignedID
000344 <=1 UnitQuantity
000382 <=1 LineTotalAmount
000383 =1 Reason
000384 <=1 Value
000385 <=2 SpecifiedTaxRegistration[ram:ID/@schemeID="FC"]
000386 <=2 SpecifiedTaxRegistration[ram:ID/@schemeID="VA"]
000387 <=1 TaxTotalAmount[@currencyID=/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:InvoiceCurrencyCode]
000388 <=1 TaxTotalAmount[@currencyID=/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:TaxCurrencyCode]
000406 =1 ID
000407 =1 ID
000408 =1 ID
000409 =1 Name
000411 =1 ID
000412 =1 ID
000413 @schemeID
000415 =1 IssuerAssignedID
000419 =1 PostalTradeAddress
000420 @schemeID
000422 =1 CountryID
000425 =1 ID
000426 @schemeID
000428 @schemeID
000430 =1 IssuerAssignedID
000431 =1 Name
000432 =1 PostalTradeAddress
000433 =1 CountryID
000434 <=1 CountrySubDivisionName
000436 =1 ID
000437 @schemeID
000439 <=1 URIUniversalCommunication
000440 @schemeID
000442 <=1 CountrySubDivisionName
000445 =1 URIID
000446 @schemeID
000448 @format
000450 =1 IssuerAssignedID
000451 <=1 ID
000452 <=1 GlobalID
000453 @schemeID
000455 =1 CountryID
000456 <=1 CountrySubDivisionName
000458 =1 TypeCode
000460 @format
000462 @format
000465 @format
000467 <=1 ID
000468 <=1 GlobalID
000469 =1 Name
000470 @schemeID
000473 =1 TypeCode
000474 =1 CategoryCode
000477 =1 ChargeIndicator
000478 =1 ActualAmount
000479 =1 CategoryTradeTax
000480 =1 TypeCode
000481 =1 CategoryCode
000484 @format
000488 =1 TypeCode
000529 =1 Content
000530 =1 ChargeIndicator
000531 =1 ActualAmount
000532 =1 ChargeAmount
000535 =1 TypeCode
000536 =1 CategoryCode
000539 @format
000541 @format
000543 =1 ChargeIndicator
000544 =1 ActualAmount
000546 =1 ChargeIndicator
000547 =1 ActualAmount
000549 =1 LineTotalAmount
000550 =1 Name
000551 @schemeID
000557 =1 IssuerAssignedID
000558 =1 TypeCode
000560 =1 IssuerAssignedID
000561 =1 TypeCode
000563 =1 IssuerAssignedID
000564 =1 TypeCode
000566 =1 URIID
000572 =1 IssuerAssignedID
000575 <=1 Description
000576 <=1 DefinedTradeContact
000577 =1 URIID
000578 =1 CompleteNumber
000584 =1 IssuerAssignedID
000590 @format
000608 =1 ID
000614 <=1 ReceivableSpecifiedTradeAccountingAccount
000615 =1 IssuerAssignedID
000616 =1 TypeCode
000625 <=1 Description
000627 =1 ID
000630 <=1 Name
000631 @format
000637 @format
000641 @format
000645 @format
000649 <=1 ID
000650 =1 Name
000651 <=1 URIUniversalCommunication
000652 <=1 SpecifiedTaxRegistration
000653 =1 URIID
000654 =1 CompleteNumber
000655 =1 CompleteNumber
000656 @schemeID
000658 =1 CountryID
000659 <=1 CountrySubDivisionName
000662 =1 CountryID
000663 <=1 CountrySubDivisionName
000665 =1 ID
000666 @schemeID
000667 =1 URIID
000668 @schemeID
000670 @format
000672 <=1 ID
000673 =1 Name
000674 <=1 RoleCode
000675 <=1 URIUniversalCommunication
000676 =1 SpecifiedTaxRegistration
000677 =1 URIID
000678 =1 CompleteNumber
000679 =1 CompleteNumber
000680 @schemeID
000682 =1 CountryID
000683 <=1 CountrySubDivisionName
000686 =1 CountryID
000687 <=1 CountrySubDivisionName
000689 =1 ID
000690 @schemeID
000691 =1 URIID
000692 @schemeID
000694 <=1 RoleCode
000695 <=1 Description
000696 =1 CompleteNumber
000700 =1 CountryID
000701 <=1 CountrySubDivisionName
000705 @format
000708 <=1 ID
000709 =1 Name
000710 <=1 RoleCode
000711 <=1 URIUniversalCommunication
000712 <=1 SpecifiedTaxRegistration
000713 =1 URIID
000714 =1 CompleteNumber
000715 =1 CompleteNumber
000716 @schemeID
000718 =1 CountryID
000719 <=1 CountrySubDivisionName
000722 =1 CountryID
000723 <=1 CountrySubDivisionName
000725 =1 ID
000726 @schemeID
000727 =1 URIID
000728 @schemeID
000730 =1 IssuerAssignedID
000731 @format
000733 <=1 ID
000734 =1 Name
000735 <=1 RoleCode
000736 <=1 URIUniversalCommunication
000737 <=1 SpecifiedTaxRegistration
000738 =1 URIID
000739 =1 CompleteNumber
000740 =1 CompleteNumber
000741 @schemeID
000743 =1 CountryID
000744 <=1 CountrySubDivisionName
000747 =1 CountryID
000748 <=1 CountrySubDivisionName
000750 =1 ID
000751 @schemeID
000752 =1 URIID
000753 @schemeID
000755 @format
000757 <=1 ID
000758 <=1 RoleCode
000759 <=1 URIUniversalCommunication
000760 =1 URIID
000761 =1 CompleteNumber
000762 =1 CompleteNumber
000763 @schemeID
000767 =1 CountryID
000768 <=1 CountrySubDivisionName
000771 =1 URIID
000772 @schemeID
000774 <=1 RoleCode
000775 =1 CompleteNumber
000779 =1 CountryID
000780 <=1 CountrySubDivisionName
000783 =1 IssuerAssignedID
000784 @format
000787 =1 IssuerAssignedID
000788 @format
000790 @format
000792 @format
000794 <=1 ID
000795 <=1 RoleCode
000796 <=1 URIUniversalCommunication
000797 <=1 SpecifiedTaxRegistration
000798 =1 URIID
000799 =1 CompleteNumber
000800 =1 CompleteNumber
000801 @schemeID
000803 =1 CountryID
000804 <=1 CountrySubDivisionName
000807 =1 CountryID
000808 <=1 CountrySubDivisionName
000810 =1 ID
000811 @schemeID
000812 =1 URIID
000813 @schemeID
000815 <=1 RoleCode
000816 <=1 URIUniversalCommunication
000817 <=1 SpecifiedTaxRegistration
000818 =1 URIID
000819 =1 CompleteNumber
000820 =1 CompleteNumber
000824 =1 CountryID
000825 <=1 CountrySubDivisionName
000827 =1 ID
000828 @schemeID
000829 =1 URIID
000830 @schemeID
000832 <=1 ID
000833 <=1 RoleCode
000834 <=1 URIUniversalCommunication
000835 <=1 SpecifiedTaxRegistration
000836 =1 URIID
000837 =1 CompleteNumber
000838 =1 CompleteNumber
000839 @schemeID
000841 =1 CountryID
000842 <=1 CountrySubDivisionName
000845 =1 CountryID
000846 <=1 CountrySubDivisionName
000848 =1 ID
000849 @schemeID
000850 =1 URIID
000851 @schemeID
000858 <=1 Description
000864 <=1 ID
000865 =1 Name
000866 <=1 RoleCode
000867 <=1 URIUniversalCommunication
000868 <=1 SpecifiedTaxRegistration
000869 =1 URIID
000870 =1 CompleteNumber
000871 =1 CompleteNumber
000872 @schemeID
000874 =1 CountryID
000875 <=1 CountrySubDivisionName
000878 =1 CountryID
000879 <=1 CountrySubDivisionName
000881 =1 ID
000882 @schemeID
000883 =1 URIID
000884 @schemeID
000886 <=1 ID
000887 =1 Name
000888 <=1 RoleCode
000889 <=1 URIUniversalCommunication
000890 <=1 SpecifiedTaxRegistration
000891 =1 URIID
000892 =1 CompleteNumber
000893 =1 CompleteNumber
000894 @schemeID
000896 =1 CountryID
000897 <=1 CountrySubDivisionName
000900 =1 CountryID
000901 <=1 CountrySubDivisionName
000903 =1 ID
000904 @schemeID
000905 =1 URIID
000906 @schemeID
000908 <=1 RoleCode
000909 <=1 URIUniversalCommunication
000910 <=1 SpecifiedTaxRegistration
000911 =1 URIID
000912 =1 CompleteNumber
000913 =1 CompleteNumber
000915 =1 CountryID
000916 <=1 CountrySubDivisionName
000919 =1 CountryID
000920 <=1 CountrySubDivisionName
000922 =1 ID
000923 @schemeID
000924 =1 URIID
000925 @schemeID
000927 <=1 ID
000928 =1 Name
000929 <=1 RoleCode
000930 <=1 URIUniversalCommunication
000931 <=1 SpecifiedTaxRegistration
000932 =1 URIID
000933 =1 CompleteNumber
000934 =1 CompleteNumber
000935 @schemeID
000937 =1 CountryID
000938 <=1 CountrySubDivisionName
000941 =1 CountryID
000942 <=1 CountrySubDivisionName
000944 =1 ID
000945 @schemeID
000946 =1 URIID
000947 @schemeID
000950 @format
000952 =1 CalculatedAmount
000953 =1 TypeCode
000954 =1 CategoryCode
000958 =1 IssuerAssignedID
000959 @format
000962 =1 ActualAmount
000963 =1 Description
000964 =1 TypeCode
000965 =1 CategoryCode
000979 @format
000981 @format
000984 <=1 ID
000985 =1 Name
000986 <=1 RoleCode
000987 <=1 URIUniversalCommunication
000988 <=1 SpecifiedTaxRegistration
000989 =1 URIID
000990 =1 CompleteNumber
000991 =1 CompleteNumber
000992 @schemeID
000994 =1 CountryID
000995 <=1 CountrySubDivisionName
000998 =1 CountryID
000999 <=1 CountrySubDivisionName
001001 =1 ID
001002 @schemeID
001003 =1 URIID
001004 @schemeID
001009 @format
001012 <=1 Content
001013 <=1 SubjectCode
001015 =1 IssuerAssignedID
001016 =1 TypeCode
001017 <=1 Name
001018 <=1 AttachmentBinaryObject
001019 @mimeCode
001021 @filename
001022 @format
001026 =1 DeliveryTypeCode
001029 @format
001031 @format
001034 =1 ChargeIndicator
001035 =1 ActualAmount
001038 <=1 RoleCode
001039 <=1 Description
001040 <=1 URIUniversalCommunication
001041 <=1 SpecifiedTaxRegistration[ram:ID/@schemeID="VA"]
001042 <=1 SpecifiedTaxRegistration[ram:ID/@schemeID="FC"]
001043 =1 URIID
001044 =1 CompleteNumber
001045 =1 CompleteNumber
001046 @schemeID
001048 =1 CountryID
001049 <=1 CountrySubDivisionName
001052 =1 ID
001053 @schemeID
001054 =1 ID
001055 @schemeID
001056 =1 URIID
001057 @schemeID
001060 =1 CalculatedAmount
001061 =1 TypeCode
001062 =1 CategoryCode
001063 =1 RateApplicablePercent
001067 @format
001069 @format
001071 @format
001073 =1 OccurrenceDateTime
001074 @format
001077 @unitCode
001079 @format
001081 @format
001083 @unitCode
001085 @unitCode
001087 @format
001089 <=1 ID
001090 <=1 RoleCode
001091 <=1 URIUniversalCommunication
001092 <=1 SpecifiedTaxRegistration
001093 =1 URIID
001094 =1 CompleteNumber
001095 =1 CompleteNumber
001096 @schemeID
001098 =1 CountryID
001099 <=1 CountrySubDivisionName
001101 @schemeID
001103 =1 ID
001104 @schemeID
001105 =1 URIID
001106 @schemeID
001108 <=1 ID
001109 <=1 RoleCode
001110 <=1 URIUniversalCommunication
001111 <=1 SpecifiedTaxRegistration
001112 =1 URIID
001113 =1 CompleteNumber
001114 =1 CompleteNumber
001115 @schemeID
001117 =1 CountryID
001118 <=1 CountrySubDivisionName
001121 =1 ID
001122 @schemeID
001123 =1 URIID
001124 @schemeID
001134 @format
001140 <=1 ChargeTotalAmount
001141 <=1 AllowanceTotalAmount
001144 <=1 Description
001147 <=1 ID
001148 =1 Name
001149 <=1 Description
001150 @schemeID
001152 @unitCode
001154 <=1 RoleCode
001155 <=1 Description
001156 <=1 URIUniversalCommunication
001157 =1 URIID
001158 =1 CompleteNumber
001159 =1 CompleteNumber
001160 @schemeID
001162 =1 CountryID
001163 <=1 CountrySubDivisionName
001166 =1 ID
001167 @schemeID
001168 =1 ID
001169 @schemeID
001170 =1 URIID
001171 @schemeID
`;

export type StructureTest = { kind: 'count'; op: '=' | '<=' | '>='; n: number; child: string } | { kind: 'attr'; name: string };

/** The table as id -> test (ids in full: FX-SCH-A-<suffix>). */
export function structureTests(): Map<string, StructureTest> {
  const out = new Map<string, StructureTest>();
  for (const line of STRUCTURE_TABLE.split('\n')) {
    const m = /^(\d{6}) (?:@(\w+)|(=|<=|>=)(\d+) (.+))$/.exec(line.trim());
    if (!m) continue;
    const id = `FX-SCH-A-${m[1]}`;
    out.set(
      id,
      m[2] ? { kind: 'attr', name: m[2] } : { kind: 'count', op: m[3] as '=' | '<=' | '>=', n: Number(m[4]), child: `ram:${m[5]}` },
    );
  }
  return out;
}
