/**
 * Labels of the rendered invoice in English, German and French: one per business term (BT-), group (BG-) and page
 * text, in our own words. Terms are labelled as they read inside their group (the seller's "Name" is BT-27 under the
 * heading "Seller"), so several ids share a wording. Views (HTML, PDF) take every text from here.
 */

export const LANGUAGES = ['en', 'de', 'fr'] as const;
export type Lang = (typeof LANGUAGES)[number];
export const DEFAULT_LANG: Lang = 'en';

/** [en, de, fr] */
type Text = readonly [string, string, string];

const NAME: Text = ['Name', 'Name', 'Nom'];
const TRADING: Text = ['Trading name', 'Handelsname', 'Nom commercial'];
const IDENT: Text = ['Identifier', 'Kennung', 'Identifiant'];
const SCHEME: Text = ['Scheme', 'Schema', 'Schéma'];
const LEGAL_ID: Text = ['Legal registration', 'Registernummer', 'Immatriculation'];
const VAT_ID: Text = ['VAT identifier', 'USt-IdNr.', 'N° de TVA'];
const EADDR: Text = ['Electronic address', 'Elektronische Adresse', 'Adresse électronique'];
const LINE1: Text = ['Address line 1', 'Adresszeile 1', 'Ligne d’adresse 1'];
const LINE2: Text = ['Address line 2', 'Adresszeile 2', 'Ligne d’adresse 2'];
const LINE3: Text = ['Address line 3', 'Adresszeile 3', 'Ligne d’adresse 3'];
const CITY: Text = ['City', 'Ort', 'Ville'];
const POSTCODE: Text = ['Postcode', 'Postleitzahl', 'Code postal'];
const SUBDIV: Text = ['Region', 'Region', 'Région'];
const COUNTRY: Text = ['Country', 'Land', 'Pays'];
const CONTACT: Text = ['Contact', 'Ansprechpartner', 'Contact'];
const PHONE: Text = ['Phone', 'Telefon', 'Téléphone'];
const EMAIL: Text = ['Email', 'E-Mail', 'E-mail'];
const START: Text = ['From', 'Von', 'Du'];
const END: Text = ['To', 'Bis', 'Au'];
const AMOUNT: Text = ['Amount', 'Betrag', 'Montant'];
const BASE: Text = ['Base amount', 'Grundbetrag', 'Montant de base'];
const PERCENT: Text = ['Percentage', 'Prozentsatz', 'Pourcentage'];
const VAT_CAT: Text = ['VAT category', 'USt-Kategorie', 'Catégorie de TVA'];
const VAT_RATE: Text = ['VAT rate', 'USt-Satz', 'Taux de TVA'];
const REASON: Text = ['Reason', 'Grund', 'Motif'];
const REASON_CODE: Text = ['Reason code', 'Grund (Code)', 'Code motif'];

/** Business terms. */
const TERMS: Record<string, Text> = {
  'BT-1': ['Invoice number', 'Rechnungsnummer', 'Numéro de facture'],
  'BT-2': ['Issue date', 'Rechnungsdatum', 'Date de facture'],
  'BT-3': ['Document type', 'Rechnungsart', 'Type de document'],
  'BT-5': ['Currency', 'Währung', 'Devise'],
  'BT-6': ['VAT accounting currency', 'USt-Buchungswährung', 'Devise de comptabilisation de la TVA'],
  'BT-7': ['VAT point date', 'Steuerfälligkeitsdatum', 'Date d’exigibilité de la TVA'],
  'BT-8': ['VAT point date code', 'Steuerfälligkeit (Code)', 'Code d’exigibilité de la TVA'],
  'BT-9': ['Due date', 'Fälligkeitsdatum', 'Date d’échéance'],
  'BT-10': ['Buyer reference', 'Käuferreferenz', 'Référence acheteur'],
  'BT-11': ['Project', 'Projekt', 'Projet'],
  'BT-12': ['Contract', 'Vertrag', 'Contrat'],
  'BT-13': ['Purchase order', 'Bestellung', 'Bon de commande'],
  'BT-14': ['Sales order', 'Auftrag', 'Commande client'],
  'BT-15': ['Receiving advice', 'Wareneingangsmeldung', 'Avis de réception'],
  'BT-16': ['Despatch advice', 'Lieferschein', 'Avis d’expédition'],
  'BT-17': ['Tender or lot', 'Vergabe / Los', 'Appel d’offres ou lot'],
  'BT-18': ['Invoiced object', 'Abgerechnetes Objekt', 'Objet facturé'],
  'BT-18-1': SCHEME,
  'BT-19': ['Buyer accounting reference', 'Buchungsreferenz des Käufers', 'Référence comptable de l’acheteur'],
  'BT-20': ['Payment terms', 'Zahlungsbedingungen', 'Conditions de paiement'],
  'BT-21': ['Subject', 'Betreff', 'Objet'],
  'BT-22': ['Note', 'Bemerkung', 'Note'],
  'BT-23': ['Business process', 'Geschäftsprozess', 'Processus métier'],
  'BT-24': ['Specification', 'Spezifikation', 'Spécification'],
  'BT-25': ['Preceding invoice', 'Vorausgegangene Rechnung', 'Facture antérieure'],
  'BT-26': ['Its date', 'Deren Datum', 'Sa date'],
  'BT-27': NAME,
  'BT-28': TRADING,
  'BT-29': IDENT,
  'BT-29-1': SCHEME,
  'BT-30': LEGAL_ID,
  'BT-30-1': SCHEME,
  'BT-31': VAT_ID,
  'BT-32': ['Tax number', 'Steuernummer', 'Numéro fiscal'],
  'BT-33': ['Further legal information', 'Weitere rechtliche Informationen', 'Informations juridiques'],
  'BT-34': EADDR,
  'BT-34-1': SCHEME,
  'BT-35': LINE1,
  'BT-36': LINE2,
  'BT-162': LINE3,
  'BT-37': CITY,
  'BT-38': POSTCODE,
  'BT-39': SUBDIV,
  'BT-40': COUNTRY,
  'BT-41': CONTACT,
  'BT-42': PHONE,
  'BT-43': EMAIL,
  'BT-44': NAME,
  'BT-45': TRADING,
  'BT-46': IDENT,
  'BT-46-1': SCHEME,
  'BT-47': LEGAL_ID,
  'BT-47-1': SCHEME,
  'BT-48': VAT_ID,
  'BT-49': EADDR,
  'BT-49-1': SCHEME,
  'BT-50': LINE1,
  'BT-51': LINE2,
  'BT-163': LINE3,
  'BT-52': CITY,
  'BT-53': POSTCODE,
  'BT-54': SUBDIV,
  'BT-55': COUNTRY,
  'BT-56': CONTACT,
  'BT-57': PHONE,
  'BT-58': EMAIL,
  'BT-59': NAME,
  'BT-60': IDENT,
  'BT-60-1': SCHEME,
  'BT-61': LEGAL_ID,
  'BT-61-1': SCHEME,
  'BT-62': NAME,
  'BT-63': VAT_ID,
  'BT-64': LINE1,
  'BT-65': LINE2,
  'BT-164': LINE3,
  'BT-66': CITY,
  'BT-67': POSTCODE,
  'BT-68': SUBDIV,
  'BT-69': COUNTRY,
  'BT-70': ['Deliver to', 'Empfänger', 'Livrer à'],
  'BT-71': ['Location', 'Lieferort', 'Lieu'],
  'BT-71-1': SCHEME,
  'BT-72': ['Delivery date', 'Lieferdatum', 'Date de livraison'],
  'BT-73': START,
  'BT-74': END,
  'BT-75': LINE1,
  'BT-76': LINE2,
  'BT-165': LINE3,
  'BT-77': CITY,
  'BT-78': POSTCODE,
  'BT-79': SUBDIV,
  'BT-80': COUNTRY,
  'BT-81': ['Payment means', 'Zahlungsart', 'Moyen de paiement'],
  'BT-82': ['Payment means text', 'Zahlungsart (Text)', 'Moyen de paiement (texte)'],
  'BT-83': ['Remittance information', 'Verwendungszweck', 'Référence de paiement'],
  'BT-84': ['Account', 'Konto', 'Compte'],
  'BT-85': ['Account name', 'Kontoinhaber', 'Titulaire du compte'],
  'BT-86': ['Bank (BIC)', 'Bank (BIC)', 'Banque (BIC)'],
  'BT-87': ['Card number', 'Kartennummer', 'Numéro de carte'],
  'BT-88': ['Card holder', 'Karteninhaber', 'Titulaire de la carte'],
  'BT-89': ['Mandate reference', 'Mandatsreferenz', 'Référence du mandat'],
  'BT-90': ['Creditor identifier', 'Gläubiger-ID', 'Identifiant créancier'],
  'BT-91': ['Debited account', 'Belastetes Konto', 'Compte débité'],
  'BT-92': AMOUNT,
  'BT-93': BASE,
  'BT-94': PERCENT,
  'BT-95': VAT_CAT,
  'BT-96': VAT_RATE,
  'BT-97': REASON,
  'BT-98': REASON_CODE,
  'BT-99': AMOUNT,
  'BT-100': BASE,
  'BT-101': PERCENT,
  'BT-102': VAT_CAT,
  'BT-103': VAT_RATE,
  'BT-104': REASON,
  'BT-105': REASON_CODE,
  'BT-106': ['Sum of line net amounts', 'Summe der Nettobeträge der Positionen', 'Somme des montants nets des lignes'],
  'BT-107': ['Allowances', 'Nachlässe', 'Remises'],
  'BT-108': ['Charges', 'Zuschläge', 'Frais'],
  'BT-109': ['Total without VAT', 'Gesamtbetrag ohne USt', 'Total hors TVA'],
  'BT-110': ['VAT', 'Umsatzsteuer', 'TVA'],
  'BT-111': ['VAT in accounting currency', 'USt in Buchungswährung', 'TVA en devise de comptabilisation'],
  'BT-112': ['Total with VAT', 'Gesamtbetrag mit USt', 'Total TTC'],
  'BT-113': ['Paid amount', 'Bereits gezahlt', 'Montant payé'],
  'BT-114': ['Rounding amount', 'Rundungsbetrag', 'Arrondi'],
  'BT-115': ['Amount due', 'Zahlbetrag', 'Montant à payer'],
  'BT-116': ['Taxable amount', 'Steuerbasis', 'Base imposable'],
  'BT-117': ['VAT amount', 'Steuerbetrag', 'Montant de TVA'],
  'BT-118': VAT_CAT,
  'BT-119': VAT_RATE,
  'BT-120': ['Exemption reason', 'Befreiungsgrund', 'Motif d’exonération'],
  'BT-121': ['Exemption reason code', 'Befreiungsgrund (Code)', 'Code d’exonération'],
  'BT-122': ['Reference', 'Kennung', 'Référence'],
  'BT-123': ['Description', 'Beschreibung', 'Description'],
  'BT-124': ['External location', 'Externer Speicherort', 'Emplacement externe'],
  'BT-125': ['Attached document', 'Angehängtes Dokument', 'Document joint'],
  'BT-125-1': ['Type', 'Typ', 'Type'],
  'BT-125-2': ['File name', 'Dateiname', 'Nom de fichier'],
  'BT-126': ['Line', 'Position', 'Ligne'],
  'BT-127': ['Note', 'Bemerkung', 'Note'],
  'BT-128': ['Object identifier', 'Objektkennung', 'Identifiant d’objet'],
  'BT-128-1': SCHEME,
  'BT-129': ['Quantity', 'Menge', 'Quantité'],
  'BT-130': ['Unit', 'Einheit', 'Unité'],
  'BT-131': ['Net amount', 'Nettobetrag', 'Montant net'],
  'BT-132': ['Order line', 'Bestellposition', 'Ligne de commande'],
  'BT-133': ['Accounting reference', 'Buchungsreferenz', 'Référence comptable'],
  'BT-134': START,
  'BT-135': END,
  'BT-136': AMOUNT,
  'BT-137': BASE,
  'BT-138': PERCENT,
  'BT-139': REASON,
  'BT-140': REASON_CODE,
  'BT-141': AMOUNT,
  'BT-142': BASE,
  'BT-143': PERCENT,
  'BT-144': REASON,
  'BT-145': REASON_CODE,
  'BT-146': ['Net price', 'Nettopreis', 'Prix net'],
  'BT-147': ['Price discount', 'Preisnachlass', 'Remise sur prix'],
  'BT-148': ['Gross price', 'Bruttopreis', 'Prix brut'],
  'BT-149': ['Per quantity', 'Preisbasismenge', 'Quantité de base'],
  'BT-150': ['Unit', 'Einheit', 'Unité'],
  'BT-151': VAT_CAT,
  'BT-152': VAT_RATE,
  'BT-153': ['Item', 'Artikel', 'Article'],
  'BT-154': ['Description', 'Beschreibung', 'Description'],
  'BT-155': ['Seller’s item id', 'Artikelnr. des Verkäufers', 'Réf. vendeur'],
  'BT-156': ['Buyer’s item id', 'Artikelnr. des Käufers', 'Réf. acheteur'],
  'BT-157': ['Standard item id', 'Standard-Artikelkennung', 'Identifiant standard'],
  'BT-157-1': SCHEME,
  'BT-158': ['Classification', 'Klassifizierung', 'Classification'],
  'BT-158-1': SCHEME,
  'BT-158-2': ['Scheme version', 'Schemaversion', 'Version du schéma'],
  'BT-159': ['Country of origin', 'Herkunftsland', 'Pays d’origine'],
  'BT-160': ['Attribute', 'Eigenschaft', 'Attribut'],
  'BT-161': ['Value', 'Wert', 'Valeur'],
  'BT-X-304': ['Parent line', 'Übergeordnete Position', 'Ligne parente'],
  'BT-X-8': ['Line status', 'Positionsstatus', 'Statut de ligne'],
  'BT-DEX-001': ['Type', 'Art', 'Type'],
  'BT-DEX-002': ['Amount', 'Betrag', 'Montant'],
  'BT-DEX-003': ['Description', 'Beschreibung', 'Description'],
};

/** Groups (our own ids: DOC the document heading, REFS its references, TERMS the payment terms). */
const GROUPS: Record<string, Text> = {
  DOC: ['Invoice', 'Rechnung', 'Facture'],
  REFS: ['References', 'Referenzen', 'Références'],
  TERMS: ['Payment terms', 'Zahlungsbedingungen', 'Conditions de paiement'],
  'BG-1': ['Note', 'Bemerkung', 'Note'],
  'BG-2': ['Process', 'Prozess', 'Processus'],
  'BG-3': ['Preceding invoice', 'Vorausgegangene Rechnung', 'Facture antérieure'],
  'BG-4': ['Seller', 'Verkäufer', 'Vendeur'],
  'BG-5': ['Address', 'Anschrift', 'Adresse'],
  'BG-6': ['Contact', 'Kontakt', 'Contact'],
  'BG-7': ['Buyer', 'Käufer', 'Acheteur'],
  'BG-8': ['Address', 'Anschrift', 'Adresse'],
  'BG-9': ['Contact', 'Kontakt', 'Contact'],
  'BG-10': ['Payee', 'Zahlungsempfänger', 'Bénéficiaire'],
  'BG-11': ['Seller’s tax representative', 'Steuerbevollmächtigter des Verkäufers', 'Représentant fiscal du vendeur'],
  'BG-12': ['Address', 'Anschrift', 'Adresse'],
  'BG-13': ['Delivery', 'Lieferung', 'Livraison'],
  'BG-14': ['Invoicing period', 'Abrechnungszeitraum', 'Période de facturation'],
  'BG-15': ['Delivery address', 'Lieferanschrift', 'Adresse de livraison'],
  'BG-16': ['Payment instructions', 'Zahlungsanweisungen', 'Instructions de paiement'],
  'BG-17': ['Credit transfer', 'Überweisung', 'Virement'],
  'BG-18': ['Payment card', 'Zahlungskarte', 'Carte de paiement'],
  'BG-19': ['Direct debit', 'Lastschrift', 'Prélèvement'],
  'BG-20': ['Allowance', 'Nachlass', 'Remise'],
  'BG-21': ['Charge', 'Zuschlag', 'Frais'],
  'BG-22': ['Totals', 'Gesamtbeträge', 'Totaux'],
  'BG-23': ['VAT breakdown', 'Aufschlüsselung der Umsatzsteuer', 'Ventilation de la TVA'],
  'BG-24': ['Supporting document', 'Rechnungsbegründende Unterlage', 'Justificatif'],
  'BG-25': ['Invoice line', 'Rechnungsposition', 'Ligne de facture'],
  'BG-26': ['Period', 'Zeitraum', 'Période'],
  'BG-27': ['Allowance', 'Nachlass', 'Remise'],
  'BG-28': ['Charge', 'Zuschlag', 'Frais'],
  'BG-29': ['Price', 'Preis', 'Prix'],
  'BG-30': ['VAT', 'Umsatzsteuer', 'TVA'],
  'BG-31': ['Item', 'Artikel', 'Article'],
  'BG-32': ['Item attribute', 'Artikeleigenschaft', 'Attribut de l’article'],
  'BG-DEX-01': ['Sub-line', 'Unterposition', 'Sous-ligne'],
  'BG-DEX-02': ['Item', 'Artikel', 'Article'],
  'BG-DEX-03': ['Allowance', 'Nachlass', 'Remise'],
  'BG-DEX-04': ['Charge', 'Zuschlag', 'Frais'],
  'BG-DEX-05': ['Period', 'Zeitraum', 'Période'],
  'BG-DEX-06': ['VAT', 'Umsatzsteuer', 'TVA'],
  'BG-DEX-07': ['Price', 'Preis', 'Prix'],
  'BG-DEX-08': ['Item attribute', 'Artikeleigenschaft', 'Attribut de l’article'],
  'BG-DEX-09': ['Third-party payment', 'Zahlung an Dritte', 'Paiement à un tiers'],
};

/** Page texts that are not terms. */
const PAGE = {
  invoice: ['Invoice', 'Rechnung', 'Facture'],
  creditNote: ['Credit note', 'Gutschrift', 'Avoir'],
  parties: ['Parties', 'Beteiligte', 'Parties'],
  references: ['References', 'Referenzen', 'Références'],
  delivery: ['Delivery', 'Lieferung', 'Livraison'],
  lines: ['Invoice lines', 'Rechnungspositionen', 'Lignes de facture'],
  allowancesCharges: [
    'Document allowances and charges',
    'Nachlässe und Zuschläge auf Dokumentebene',
    'Remises et frais au niveau du document',
  ],
  vat: ['VAT breakdown', 'Aufschlüsselung der Umsatzsteuer', 'Ventilation de la TVA'],
  totals: ['Totals', 'Gesamtbeträge', 'Totaux'],
  payment: ['Payment', 'Zahlung', 'Paiement'],
  notes: ['Notes', 'Bemerkungen', 'Notes'],
  attachments: ['Supporting documents', 'Rechnungsbegründende Unterlagen', 'Justificatifs'],
  amountsIn: ['Amounts in', 'Beträge in', 'Montants en'],
  colLine: ['Line', 'Pos.', 'Ligne'],
  colItem: ['Item', 'Artikel / Leistung', 'Article'],
  colQuantity: ['Quantity', 'Menge', 'Quantité'],
  colPrice: ['Unit price', 'Einzelpreis', 'Prix unitaire'],
  colVat: ['VAT', 'USt', 'TVA'],
  colNet: ['Net amount', 'Nettobetrag', 'Montant net'],
  allowance: ['Allowance', 'Nachlass', 'Remise'],
  charge: ['Charge', 'Zuschlag', 'Frais'],
  per: ['per', 'je', 'par'],
  download: ['Download', 'Herunterladen', 'Télécharger'],
  notEmbedded: [
    'Not embedded in this page: links of more than 2 MB are refused by browsers. It is in the invoice XML.',
    'Nicht in diese Seite eingebettet: Browser lehnen Links über 2 MB ab. Das Dokument steht in der Rechnungs-XML.',
    'Non intégré à cette page : les navigateurs refusent les liens de plus de 2 Mo. Le document figure dans le XML de la facture.',
  ],
  notBase64: [
    'Not embedded in this page: the content is not valid Base64.',
    'Nicht in diese Seite eingebettet: der Inhalt ist kein gültiges Base64.',
    'Non intégré à cette page : le contenu n’est pas du Base64 valide.',
  ],
  bytes: ['bytes', 'Bytes', 'octets'],
  linesCut: [
    'This page shows the first {shown} of {total} lines (sub-lines included); the rest are in the invoice XML.',
    'Diese Seite zeigt die ersten {shown} von {total} Positionen (Unterpositionen eingeschlossen); die übrigen stehen in der Rechnungs-XML.',
    'Cette page montre les {shown} premières des {total} lignes (sous-lignes comprises) ; les autres figurent dans le XML de la facture.',
  ],
  source: ['Source', 'Quelle', 'Source'],
  fromPdf: ['from the PDF attachment', 'aus dem PDF-Anhang', 'tirée de la pièce jointe PDF'],
  footer: [
    'Rendered by einvoice-service from the invoice data; the XML is the legally binding invoice.',
    'Von einvoice-service aus den Rechnungsdaten dargestellt; rechtlich maßgeblich ist die XML.',
    'Rendu par einvoice-service à partir des données de la facture ; le XML fait foi.',
  ],
  invalidDate: ['not a valid date', 'kein gültiges Datum', 'date non valide'],
  // The PDF view (./pdf.ts).
  pageOf: ['Page {n} of {total}', 'Seite {n} von {total}', 'Page {n} sur {total}'],
  valueCut: [
    '… ({count} more characters in the invoice XML)',
    '… ({count} weitere Zeichen in der Rechnungs-XML)',
    '… ({count} caractères de plus dans le XML de la facture)',
  ],
  pdfLinesCut: [
    'This document shows the first {shown} of {total} lines (sub-lines included); the rest are in the invoice XML.',
    'Dieses Dokument zeigt die ersten {shown} von {total} Positionen (Unterpositionen eingeschlossen); die übrigen stehen in der Rechnungs-XML.',
    'Ce document montre les {shown} premières des {total} lignes (sous-lignes comprises) ; les autres figurent dans le XML de la facture.',
  ],
  pdfFull: [
    'This document stops here, at {pages} pages; the rest of the invoice is in its XML.',
    'Dieses Dokument endet hier, nach {pages} Seiten; der Rest der Rechnung steht in ihrer XML.',
    'Ce document s’arrête ici, à {pages} pages ; la suite de la facture figure dans son XML.',
  ],
  missingGlyphs: [
    '{count} characters are not in the embedded fonts and are drawn as □; copying or searching the text finds them as written ({chars}).',
    '{count} Zeichen sind in den eingebetteten Schriften nicht enthalten und erscheinen als □; Kopieren oder Suchen findet sie wie geschrieben ({chars}).',
    '{count} caractères ne figurent pas dans les polices intégrées et sont dessinés □ ; la copie ou la recherche du texte les trouve tels qu’écrits ({chars}).',
  ],
  inXml: ['content in the invoice XML', 'Inhalt in der Rechnungs-XML', 'contenu dans le XML de la facture'],
  notices: ['Notices', 'Hinweise', 'Avis'],
} as const satisfies Record<string, Text>;

export type PageText = keyof typeof PAGE;

const index = (lang: Lang): 0 | 1 | 2 => (lang === 'de' ? 1 : lang === 'fr' ? 2 : 0);

/** The label of a term (BT-…) or group (BG-…, DOC, REFS, TERMS); the id itself when there is none. */
export function label(id: string, lang: Lang): string {
  const t = TERMS[id] ?? GROUPS[id];
  return t ? t[index(lang)] : id;
}

/** A page text; `{name}` placeholders are filled from `vars`. */
export function pageText(key: PageText, lang: Lang, vars?: Record<string, string>): string {
  let s: string = PAGE[key][index(lang)];
  if (vars) for (const [k, v] of Object.entries(vars)) s = s.replaceAll(`{${k}}`, v);
  return s;
}

/** Every id that has a label (tests check that the render model uses no other). */
export function labelledIds(): string[] {
  return [...Object.keys(TERMS), ...Object.keys(GROUPS)];
}

export function isLang(value: string): value is Lang {
  return (LANGUAGES as readonly string[]).includes(value);
}
