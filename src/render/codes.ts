/**
 * Meanings of the code values an invoice carries, in English, German and French, for the rendering: our own short
 * wording of the public code lists (UNTDID 1001, 2005, 4451, 4461, 5189, 5305, 7161, UN/ECE Rec 20, VATEX, ISO 6523 /
 * CEF EAS scheme names), and the ISO 3166 country and ISO 4217 currency names from the runtime's ICU data
 * (Intl.DisplayNames). A code without a meaning here is shown as the code alone, never guessed.
 */
import type { CodeListName } from './model.js';
import type { Lang } from './labels.js';

/** [en, de, fr] */
type Text = readonly [string, string, string];

const INVOICE_TYPES: Record<string, Text> = {
  '71': ['Request for payment', 'Zahlungsaufforderung', 'Demande de paiement'],
  '80': ['Debit note (goods or services)', 'Belastungsanzeige (Waren oder Leistungen)', 'Note de débit (biens ou services)'],
  '81': ['Credit note (goods or services)', 'Gutschriftsanzeige (Waren oder Leistungen)', 'Note de crédit (biens ou services)'],
  '82': ['Metered services invoice', 'Rechnung über gemessene Leistungen', 'Facture de services mesurés'],
  '83': ['Credit note (financial adjustments)', 'Gutschrift (Finanzkorrektur)', 'Avoir (ajustement financier)'],
  '84': ['Debit note (financial adjustments)', 'Belastung (Finanzkorrektur)', 'Note de débit (ajustement financier)'],
  '261': ['Self-billed credit note', 'Gutschrift im Gutschriftsverfahren', 'Avoir autofacturé'],
  '262': ['Consolidated credit note', 'Sammelgutschrift', 'Avoir récapitulatif'],
  '295': ['Price variation invoice', 'Preisanpassungsrechnung', 'Facture de variation de prix'],
  '296': ['Credit note for price variation', 'Gutschrift für Preisanpassung', 'Avoir pour variation de prix'],
  '308': ['Delcredere credit note', 'Delkredere-Gutschrift', 'Avoir ducroire'],
  '325': ['Proforma invoice', 'Proformarechnung', 'Facture pro forma'],
  '326': ['Partial invoice', 'Teilrechnung', 'Facture partielle'],
  '380': ['Commercial invoice', 'Handelsrechnung', 'Facture commerciale'],
  '381': ['Credit note', 'Gutschrift', 'Avoir'],
  '383': ['Debit note', 'Belastungsanzeige', 'Note de débit'],
  '384': ['Corrected invoice', 'Rechnungskorrektur', 'Facture rectificative'],
  '385': ['Consolidated invoice', 'Sammelrechnung', 'Facture récapitulative'],
  '386': ['Prepayment invoice', 'Vorauszahlungsrechnung', 'Facture d’acompte'],
  '387': ['Hire invoice', 'Mietrechnung', 'Facture de location'],
  '388': ['Tax invoice', 'Steuerrechnung', 'Facture fiscale'],
  '389': ['Self-billed invoice', 'Rechnung im Gutschriftsverfahren', 'Autofacture'],
  '390': ['Delcredere invoice', 'Delkredere-Rechnung', 'Facture ducroire'],
  '393': ['Factored invoice', 'Factoring-Rechnung', 'Facture affacturée'],
  '394': ['Lease invoice', 'Leasingrechnung', 'Facture de crédit-bail'],
  '395': ['Consignment invoice', 'Konsignationsrechnung', 'Facture de consignation'],
  '396': ['Factored credit note', 'Factoring-Gutschrift', 'Avoir affacturé'],
  '420': ['Optical character reading payment', 'Zahlung mit OCR-Beleg', 'Paiement par lecture optique'],
  '456': ['Debit advice', 'Lastschriftanzeige', 'Avis de débit'],
  '457': ['Reversal of debit', 'Storno einer Belastung', 'Contre-passation de débit'],
  '458': ['Reversal of credit', 'Storno einer Gutschrift', 'Contre-passation de crédit'],
  '527': ['Self-billed debit note', 'Belastung im Gutschriftsverfahren', 'Note de débit autofacturée'],
  '532': ['Forwarder’s credit note', 'Spediteurgutschrift', 'Avoir du transitaire'],
  '553': [
    'Forwarder’s invoice discrepancy report',
    'Abweichungsbericht zur Spediteurrechnung',
    'Rapport d’écart sur facture de transitaire',
  ],
  '575': ['Insurer’s invoice', 'Versicherungsrechnung', 'Facture d’assureur'],
  '623': ['Forwarder’s invoice', 'Spediteurrechnung', 'Facture de transitaire'],
  '633': ['Port charges documents', 'Hafengebührenbeleg', 'Document de frais portuaires'],
  '751': [
    'Invoice information for accounting purposes',
    'Rechnungsinformation für Buchungszwecke',
    'Information de facture à des fins comptables',
  ],
  '780': ['Freight invoice', 'Frachtrechnung', 'Facture de fret'],
  '817': ['Claim notification', 'Schadensmeldung', 'Déclaration de sinistre'],
  '870': ['Consular invoice', 'Konsulatsfaktura', 'Facture consulaire'],
  '875': ['Partial construction invoice', 'Abschlagsrechnung (Bau)', 'Facture partielle de travaux'],
  '876': ['Partial final construction invoice', 'Teilschlussrechnung (Bau)', 'Facture partielle définitive de travaux'],
  '877': ['Final construction invoice', 'Schlussrechnung (Bau)', 'Facture définitive de travaux'],
  '935': ['Customs invoice', 'Zollfaktura', 'Facture douanière'],
};

const TAX_POINT_DATE: Record<string, Text> = {
  '3': ['Invoice issue date', 'Rechnungsdatum', 'Date de la facture'],
  '35': ['Delivery date', 'Lieferdatum', 'Date de livraison'],
  '432': ['Date of payment', 'Zahlungsdatum', 'Date de paiement'],
  // The CII codes for the same (UNTDID 2475).
  '5': ['Invoice issue date', 'Rechnungsdatum', 'Date de la facture'],
  '29': ['Delivery date', 'Lieferdatum', 'Date de livraison'],
  '72': ['Date of payment', 'Zahlungsdatum', 'Date de paiement'],
};

const VAT_CATEGORIES: Record<string, Text> = {
  S: ['Standard rate', 'Normalsatz', 'Taux normal'],
  Z: ['Zero rate', 'Nullsatz', 'Taux zéro'],
  E: ['Exempt from VAT', 'Steuerbefreit', 'Exonéré de TVA'],
  AE: ['Reverse charge', 'Umkehr der Steuerschuldnerschaft', 'Autoliquidation'],
  K: ['Intra-community supply', 'Innergemeinschaftliche Lieferung', 'Livraison intracommunautaire'],
  G: ['Export outside the EU', 'Ausfuhr aus der EU', 'Exportation hors UE'],
  O: ['Not subject to VAT', 'Nicht steuerbar', 'Hors champ de la TVA'],
  L: ['Canary Islands tax (IGIC)', 'Kanarische Steuer (IGIC)', 'Impôt des Canaries (IGIC)'],
  M: ['Ceuta and Melilla tax (IPSI)', 'Steuer von Ceuta und Melilla (IPSI)', 'Impôt de Ceuta et Melilla (IPSI)'],
};

const VATEX: Record<string, Text> = {
  'VATEX-EU-79-C': [
    'Repayment of expenses incurred on behalf of the customer',
    'Erstattung verauslagter Beträge',
    'Remboursement de frais engagés pour le client',
  ],
  'VATEX-EU-132': [
    'Exempt: activities in the public interest',
    'Befreit: dem Gemeinwohl dienende Tätigkeiten',
    'Exonéré : activités d’intérêt général',
  ],
  'VATEX-EU-143': ['Exempt: importation', 'Befreit: Einfuhr', 'Exonéré : importation'],
  'VATEX-EU-148': ['Exempt: international transport', 'Befreit: internationale Beförderung', 'Exonéré : transport international'],
  'VATEX-EU-151': [
    'Exempt: diplomatic and similar supplies',
    'Befreit: diplomatische und ähnliche Umsätze',
    'Exonéré : opérations diplomatiques et assimilées',
  ],
  'VATEX-EU-309': ['Travel agents (outside the EU)', 'Reisebüros (außerhalb der EU)', 'Agences de voyages (hors UE)'],
  'VATEX-EU-AE': ['Reverse charge', 'Umkehr der Steuerschuldnerschaft', 'Autoliquidation'],
  'VATEX-EU-D': ['Margin scheme: travel agents', 'Differenzbesteuerung: Reisebüros', 'Régime de la marge : agences de voyages'],
  'VATEX-EU-F': ['Margin scheme: second-hand goods', 'Differenzbesteuerung: Gebrauchtgegenstände', 'Régime de la marge : biens d’occasion'],
  'VATEX-EU-G': ['Export outside the EU', 'Ausfuhr aus der EU', 'Exportation hors UE'],
  'VATEX-EU-I': ['Margin scheme: works of art', 'Differenzbesteuerung: Kunstgegenstände', 'Régime de la marge : objets d’art'],
  'VATEX-EU-IC': ['Intra-community supply', 'Innergemeinschaftliche Lieferung', 'Livraison intracommunautaire'],
  'VATEX-EU-J': [
    'Margin scheme: collectors’ items and antiques',
    'Differenzbesteuerung: Sammlungsstücke und Antiquitäten',
    'Régime de la marge : objets de collection et antiquités',
  ],
  'VATEX-EU-O': ['Not subject to VAT', 'Nicht steuerbar', 'Hors champ de la TVA'],
  'VATEX-FR-FRANCHISE': [
    'French VAT exemption threshold (franchise en base)',
    'Französische Kleinunternehmerregelung',
    'Franchise en base de TVA',
  ],
  'VATEX-FR-CNWVAT': ['French credit note without VAT', 'Französische Gutschrift ohne USt', 'Avoir sans TVA (France)'],
};

const PAYMENT_MEANS: Record<string, Text> = {
  '1': ['Not defined', 'Nicht festgelegt', 'Non défini'],
  '10': ['Cash', 'Bargeld', 'Espèces'],
  '20': ['Cheque', 'Scheck', 'Chèque'],
  '30': ['Credit transfer', 'Überweisung', 'Virement'],
  '31': ['Debit transfer', 'Belastungsauftrag', 'Transfert de débit'],
  '42': ['Payment to bank account', 'Zahlung auf Bankkonto', 'Paiement sur compte bancaire'],
  '48': ['Bank card', 'Bankkarte', 'Carte bancaire'],
  '49': ['Direct debit', 'Lastschrift', 'Prélèvement'],
  '54': ['Credit card', 'Kreditkarte', 'Carte de crédit'],
  '55': ['Debit card', 'Debitkarte', 'Carte de débit'],
  '57': ['Standing agreement', 'Dauerauftrag', 'Accord permanent'],
  '58': ['SEPA credit transfer', 'SEPA-Überweisung', 'Virement SEPA'],
  '59': ['SEPA direct debit', 'SEPA-Lastschrift', 'Prélèvement SEPA'],
  '68': ['Online payment service', 'Online-Zahlungsdienst', 'Service de paiement en ligne'],
  '97': ['Clearing between partners', 'Verrechnung zwischen Partnern', 'Compensation entre partenaires'],
  ZZZ: ['Mutually defined', 'Gegenseitig vereinbart', 'Défini d’un commun accord'],
};

const NOTE_SUBJECTS: Record<string, Text> = {
  AAA: ['Goods description', 'Warenbeschreibung', 'Description des marchandises'],
  AAB: ['Payment terms', 'Zahlungsbedingungen', 'Conditions de paiement'],
  AAC: ['Dangerous goods', 'Gefahrgut', 'Marchandises dangereuses'],
  AAI: ['General information', 'Allgemeine Information', 'Information générale'],
  AAJ: ['Additional conditions of sale', 'Weitere Verkaufsbedingungen', 'Conditions de vente supplémentaires'],
  AAK: ['Price conditions', 'Preisbedingungen', 'Conditions de prix'],
  ABL: ['Government information', 'Behördliche Information', 'Information administrative'],
  ABN: ['Accounting information', 'Buchhaltungsinformation', 'Information comptable'],
  ACB: ['Additional information', 'Zusätzliche Information', 'Information complémentaire'],
  ADU: ['Note', 'Bemerkung', 'Note'],
  CUS: ['Customs declaration information', 'Zollinformation', 'Information douanière'],
  DEL: ['Delivery information', 'Lieferinformation', 'Information de livraison'],
  PMD: ['Payment detail / remittance', 'Zahlungsdetails', 'Détail du paiement'],
  PMT: ['Payment information', 'Zahlungsinformation', 'Information de paiement'],
  PRI: ['Priority information', 'Prioritätsinformation', 'Information de priorité'],
  REG: ['Regulatory information', 'Rechtliche Information', 'Information réglementaire'],
  SUR: ['Supplier remarks', 'Anmerkungen des Lieferanten', 'Remarques du fournisseur'],
  TXD: ['Tax declaration', 'Steuerliche Angaben', 'Déclaration fiscale'],
};

const ALLOWANCE_REASONS: Record<string, Text> = {
  '41': ['Bonus for works ahead of schedule', 'Prämie für vorzeitige Fertigstellung', 'Prime pour avance sur délai'],
  '42': ['Other bonus', 'Sonstige Prämie', 'Autre prime'],
  '60': ['Manufacturer’s consumer discount', 'Herstellerrabatt für Verbraucher', 'Remise fabricant au consommateur'],
  '62': ['Due to military status', 'Wegen Militärstatus', 'Statut militaire'],
  '63': ['Due to work accident', 'Wegen Arbeitsunfall', 'Accident du travail'],
  '64': ['Special agreement', 'Sondervereinbarung', 'Accord spécial'],
  '65': ['Production error discount', 'Nachlass für Produktionsfehler', 'Remise pour défaut de production'],
  '66': ['New outlet discount', 'Nachlass für neue Verkaufsstelle', 'Remise nouveau point de vente'],
  '67': ['Sample discount', 'Musternachlass', 'Remise sur échantillon'],
  '68': ['End-of-range discount', 'Auslaufnachlass', 'Remise de fin de série'],
  '70': ['Incoterm discount', 'Incoterm-Nachlass', 'Remise Incoterm'],
  '71': ['Point of sale threshold allowance', 'Nachlass ab Verkaufsschwelle', 'Remise de seuil au point de vente'],
  '88': ['Material surcharge / deduction', 'Materialzuschlag / -abzug', 'Supplément / déduction matière'],
  '95': ['Discount', 'Rabatt', 'Remise'],
  '100': ['Special rebate', 'Sonderrabatt', 'Rabais spécial'],
  '102': ['Fixed long term', 'Langfristig fest', 'Fixe à long terme'],
  '103': ['Temporary', 'Befristet', 'Temporaire'],
  '104': ['Standard', 'Standard', 'Standard'],
  '105': ['Yearly turnover', 'Jahresumsatz', 'Chiffre d’affaires annuel'],
};

const CHARGE_REASONS: Record<string, Text> = {
  AA: ['Advertising', 'Werbung', 'Publicité'],
  AAA: ['Telecommunication', 'Telekommunikation', 'Télécommunication'],
  ABK: ['Miscellaneous', 'Sonstiges', 'Divers'],
  ABL: ['Additional packaging', 'Zusätzliche Verpackung', 'Emballage supplémentaire'],
  ADR: ['Other services', 'Andere Leistungen', 'Autres services'],
  ADT: ['Pick-up', 'Abholung', 'Enlèvement'],
  FC: ['Freight service', 'Frachtkosten', 'Transport'],
  FI: ['Financing', 'Finanzierung', 'Financement'],
  LA: ['Labelling', 'Etikettierung', 'Étiquetage'],
  PC: ['Packing', 'Verpackung', 'Emballage'],
  SAA: ['Shipping and handling', 'Versand und Bearbeitung', 'Expédition et manutention'],
  ZZZ: ['Mutually defined', 'Gegenseitig vereinbart', 'Défini d’un commun accord'],
};

const LINE_STATUS: Record<string, Text> = {
  DETAIL: ['Detail (counts in the totals)', 'Detail (zählt zur Summe)', 'Détail (compte dans les totaux)'],
  GROUP: ['Group (sum of its sub-lines)', 'Gruppe (Summe der Unterpositionen)', 'Groupe (somme des sous-lignes)'],
  INFORMATION: ['Information only', 'Nur zur Information', 'Information seulement'],
};

/** UN/ECE Recommendation 20/21 units seen on invoices. */
const UNITS: Record<string, Text> = {
  C62: ['unit', 'Stück', 'unité'],
  H87: ['piece', 'Stück', 'pièce'],
  EA: ['each', 'je Stück', 'chaque'],
  XPP: ['piece', 'Stück', 'pièce'],
  XBX: ['box', 'Karton', 'boîte'],
  XPK: ['package', 'Packung', 'paquet'],
  XPA: ['packet', 'Päckchen', 'sachet'],
  XCT: ['carton', 'Karton', 'carton'],
  XPX: ['pallet', 'Palette', 'palette'],
  XBG: ['bag', 'Beutel', 'sac'],
  XRO: ['roll', 'Rolle', 'rouleau'],
  XBO: ['bottle', 'Flasche', 'bouteille'],
  SET: ['set', 'Satz', 'ensemble'],
  PR: ['pair', 'Paar', 'paire'],
  DZN: ['dozen', 'Dutzend', 'douzaine'],
  NAR: ['number of articles', 'Anzahl Artikel', 'nombre d’articles'],
  NPR: ['number of pairs', 'Anzahl Paare', 'nombre de paires'],
  SEC: ['second', 'Sekunde', 'seconde'],
  MIN: ['minute', 'Minute', 'minute'],
  HUR: ['hour', 'Stunde', 'heure'],
  DAY: ['day', 'Tag', 'jour'],
  WEE: ['week', 'Woche', 'semaine'],
  MON: ['month', 'Monat', 'mois'],
  QAN: ['quarter', 'Quartal', 'trimestre'],
  ANN: ['year', 'Jahr', 'an'],
  GRM: ['gram', 'Gramm', 'gramme'],
  KGM: ['kilogram', 'Kilogramm', 'kilogramme'],
  TNE: ['tonne', 'Tonne', 'tonne'],
  MMT: ['millimetre', 'Millimeter', 'millimètre'],
  CMT: ['centimetre', 'Zentimeter', 'centimètre'],
  MTR: ['metre', 'Meter', 'mètre'],
  KMT: ['kilometre', 'Kilometer', 'kilomètre'],
  MTK: ['square metre', 'Quadratmeter', 'mètre carré'],
  MTQ: ['cubic metre', 'Kubikmeter', 'mètre cube'],
  MLT: ['millilitre', 'Milliliter', 'millilitre'],
  LTR: ['litre', 'Liter', 'litre'],
  HLT: ['hectolitre', 'Hektoliter', 'hectolitre'],
  KWH: ['kilowatt hour', 'Kilowattstunde', 'kilowattheure'],
  KWT: ['kilowatt', 'Kilowatt', 'kilowatt'],
  MWH: ['megawatt hour', 'Megawattstunde', 'mégawattheure'],
  KTM: ['kilometre', 'Kilometer', 'kilomètre'],
  LS: ['lump sum', 'Pauschale', 'forfait'],
  P1: ['percent', 'Prozent', 'pour cent'],
  E48: ['service unit', 'Serviceeinheit', 'unité de service'],
  '1I': ['fixed rate', 'Festpreis', 'taux fixe'],
  ZZ: ['mutually defined', 'gegenseitig vereinbart', 'défini d’un commun accord'],
  XZZ: ['mutually defined', 'gegenseitig vereinbart', 'défini d’un commun accord'],
};

/** Scheme identifiers (ISO 6523 ICD, CEF EAS): proper names, the same in every language. */
const SCHEMES: Record<string, string> = {
  '0002': 'SIRENE',
  '0007': 'Swedish organisation number',
  '0009': 'SIRET',
  '0060': 'DUNS',
  '0088': 'GLN',
  '0096': 'Danish P number',
  '0106': 'Dutch KvK',
  '0130': 'EU directorates',
  '0151': 'Australian ABN',
  '0183': 'Swiss UIDB',
  '0184': 'Danish CVR',
  '0188': 'Japanese corporate number',
  '0190': 'Dutch OIN',
  '0192': 'Norwegian organisation number',
  '0195': 'Singapore UEN',
  '0196': 'Icelandic kennitala',
  '0198': 'Danish ERST',
  '0204': 'Leitweg-ID',
  '0208': 'Belgian enterprise number',
  '0209': 'GS1 identification keys',
  '0210': 'Italian fiscal code',
  '0211': 'Italian VAT number',
  '0212': 'Finnish organisation id',
  '0213': 'Finnish VAT number',
  '0225': 'French electronic address (FRCTC)',
  '0230': 'Malaysian e-invoice id',
  '9906': 'Italian VAT number',
  '9920': 'Spanish VAT number',
  '9925': 'Belgian VAT number',
  '9930': 'German VAT number',
  '9938': 'Luxembourg VAT number',
  '9944': 'Dutch VAT number',
  '9957': 'French VAT number',
  '9959': 'US employer id (EIN)',
  EM: 'Email',
  SEPA: 'SEPA creditor id',
};

const MIME: Record<string, Text> = {
  'application/pdf': ['PDF document', 'PDF-Dokument', 'Document PDF'],
  'image/png': ['PNG image', 'PNG-Bild', 'Image PNG'],
  'image/jpeg': ['JPEG image', 'JPEG-Bild', 'Image JPEG'],
  'text/csv': ['CSV table', 'CSV-Tabelle', 'Tableau CSV'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['Excel workbook', 'Excel-Arbeitsmappe', 'Classeur Excel'],
  'application/vnd.oasis.opendocument.spreadsheet': ['OpenDocument spreadsheet', 'OpenDocument-Tabelle', 'Feuille de calcul OpenDocument'],
};

const TABLES: Partial<Record<CodeListName, Record<string, Text>>> = {
  invoiceType: INVOICE_TYPES,
  taxPointDate: TAX_POINT_DATE,
  vatCategory: VAT_CATEGORIES,
  vatex: VATEX,
  paymentMeans: PAYMENT_MEANS,
  noteSubject: NOTE_SUBJECTS,
  allowanceReason: ALLOWANCE_REASONS,
  chargeReason: CHARGE_REASONS,
  lineStatus: LINE_STATUS,
  unit: UNITS,
  mime: MIME,
};

const idx = (lang: Lang): 0 | 1 | 2 => (lang === 'de' ? 1 : lang === 'fr' ? 2 : 0);

const displayNames = new Map<string, Intl.DisplayNames | null>();

function intlName(type: 'region' | 'currency', code: string, lang: Lang): string | undefined {
  const key = `${type} ${lang}`;
  let names = displayNames.get(key);
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames([lang], { type, fallback: 'none' });
    } catch {
      names = null; // a runtime without ICU data: codes are shown alone
    }
    displayNames.set(key, names);
  }
  if (!names) return undefined;
  try {
    return names.of(code) ?? undefined;
  } catch {
    return undefined;
  }
}

/** The meaning of `code` in `list`, or undefined when we have none (the view then shows the code alone). */
export function codeMeaning(list: CodeListName, code: string, lang: Lang): string | undefined {
  const c = code.trim();
  if (list === 'country') return /^[A-Z]{2}$/.test(c) ? intlName('region', c, lang) : undefined;
  if (list === 'currency') return /^[A-Z]{3}$/.test(c) ? intlName('currency', c, lang) : undefined;
  if (list === 'scheme') return Object.hasOwn(SCHEMES, c) ? SCHEMES[c] : undefined;
  const table = TABLES[list];
  if (!table) return undefined;
  // Object.hasOwn: a code such as "constructor" must not find Object.prototype's members.
  const key = list === 'mime' ? c.toLowerCase() : list === 'unit' || list === 'vatex' || list === 'lineStatus' ? c.toUpperCase() : c;
  return Object.hasOwn(table, key) ? table[key][idx(lang)] : undefined;
}
