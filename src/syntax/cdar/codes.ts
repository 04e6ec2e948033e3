/**
 * The code lists of French lifecycle status messages (CDAR D22B, AFNOR XP Z12-012 "CDV"), as facts read from
 * FNFE-MPE's BR-FR-CDV rules (fnfempe/France_RFE 1.4.0.x) and the published XP Z12-012 / XP Z12-014 annexes:
 * which status codes, reason codes, role codes, requested actions and characteristic types exist, which phase
 * (MDT-77) and detail status (MDT-88) a status is sent with, and which reasons each status allows. Names are our
 * own short renderings of the published French labels.
 */

/** MDT-77: the phase of the lifecycle a status belongs to. */
export type StatusPhase = 'transmission' | 'processing';

/** MDT-77 codes: 305 transmission (platform-level), 23 processing (the parties' own decisions). */
export const PHASE_CODES: Record<StatusPhase, string> = { transmission: '305', processing: '23' };

export interface StatusCodeInfo {
  /** The French label, as written into MDT-106 by default. */
  label: string;
  /** In English. */
  english: string;
  /** The phase the status is sent in (MDT-77). */
  phase: StatusPhase;
  /** MDT-88 (UNCL 4405 detail status) the published examples send with it; absent when they give none. */
  detailCode?: string;
  /** True when the published material at hand gives no meaning for the code (the rules accept it all the same). */
  meaningUnpublished?: true;
}

/**
 * Every status code BR-FR-CDV-CL-06 accepts in MDT-105 / MDT-115. 200–228 and 501 are the lifecycle statuses of
 * XP Z12-012; 500/501 are also the batch verdicts of XP Z12-014 ("acceptable" / "unacceptable"); for 250, 251,
 * 300, 301, 400, 401 and 601 the published material at hand gives no label.
 */
export const STATUS_CODES: Readonly<Record<string, StatusCodeInfo>> = {
  '200': { label: 'Déposée', english: 'Submitted', phase: 'transmission', detailCode: '10' },
  '201': { label: 'Émise', english: 'Issued by the platform', phase: 'transmission' },
  '202': { label: 'Reçue', english: 'Received by the platform', phase: 'transmission', detailCode: '43' },
  '203': { label: 'Mise à disposition', english: 'Made available', phase: 'transmission', detailCode: '48' },
  '204': { label: 'Prise en charge', english: 'Taken in charge', phase: 'processing', detailCode: '45' },
  '205': { label: 'Approuvée', english: 'Approved', phase: 'processing', detailCode: '1' },
  '206': { label: 'Approuvée partiellement', english: 'Partially approved', phase: 'processing' },
  '207': { label: 'En litige', english: 'Disputed', phase: 'processing', detailCode: '46' },
  '208': { label: 'Suspendue', english: 'Suspended', phase: 'processing' },
  '209': { label: 'Complétée', english: 'Completed', phase: 'processing' },
  '210': { label: 'Refusée', english: 'Refused', phase: 'processing', detailCode: '50' },
  '211': { label: 'Paiement transmis', english: 'Payment sent', phase: 'processing', detailCode: '47' },
  '212': { label: 'Encaissée', english: 'Payment received', phase: 'processing', detailCode: '47' },
  '213': { label: 'Rejetée', english: 'Rejected', phase: 'transmission', detailCode: '8' },
  '214': { label: 'Visée', english: 'Approved by an agent', phase: 'processing' },
  '220': { label: 'Annulée', english: 'Cancelled', phase: 'processing' },
  '221': { label: 'Erreur de routage', english: 'Routing error', phase: 'transmission' },
  '224': { label: 'Demande de paiement direct', english: 'Direct payment requested', phase: 'processing' },
  '225': { label: 'Affacturée', english: 'Factored', phase: 'processing' },
  '226': { label: 'Affacturée confidentiel', english: 'Factored (confidential)', phase: 'processing' },
  '227': { label: 'Changement de compte à payer', english: 'Payee account changed', phase: 'processing', detailCode: '5' },
  '228': { label: 'Non affacturée', english: 'No longer factored', phase: 'processing' },
  '250': { label: 'Statut 250', english: 'Status 250', phase: 'transmission', meaningUnpublished: true },
  '251': { label: 'Statut 251', english: 'Status 251', phase: 'transmission', meaningUnpublished: true },
  '300': { label: 'Statut 300', english: 'Status 300', phase: 'transmission', meaningUnpublished: true },
  '301': { label: 'Statut 301', english: 'Status 301', phase: 'transmission', meaningUnpublished: true },
  '400': { label: 'Statut 400', english: 'Status 400', phase: 'transmission', meaningUnpublished: true },
  '401': { label: 'Statut 401', english: 'Status 401', phase: 'transmission', meaningUnpublished: true },
  '500': { label: 'Acceptable', english: 'Acceptable (batch)', phase: 'transmission' },
  '501': { label: 'Irrecevable', english: 'Unacceptable', phase: 'transmission' },
  '601': { label: 'Statut 601', english: 'Status 601', phase: 'transmission', meaningUnpublished: true },
};

/** BR-FR-CDV-CL-06: the status codes of the published list (MDT-105, MDT-115). */
export const STATUS_CODE_LIST: readonly string[] = Object.keys(STATUS_CODES);

/** BR-FR-CDV-15: statuses that must carry a reason (MDT-113). */
export const REASON_REQUIRED: ReadonlySet<string> = new Set(['206', '207', '208', '210', '213', '501']);

/** BR-FR-CDV-CL-09: every reason code (MDT-113). */
export const REASON_CODES: readonly string[] = [
  'RETRAIT_MAN_SERV',
  'ST_CT_NON_DECLAR',
  'SUPPR_COMP_AVOIR',
  'TRANSF_PMNT_REGIE',
  'CONTACT_ACHTR',
  'NON_TRANSMISE',
  'JUSTIF_ABS',
  'ROUTAGE_ERR',
  'AUTRE',
  'COORD_BANC_ERR',
  'TX_TVA_ERR',
  'MONTANTTOTAL_ERR',
  'CALCUL_ERR',
  'NON_CONFORME',
  'DOUBLON',
  'DEST_INC',
  'DEST_ERR',
  'TRANSAC_INC',
  'EMMET_INC',
  'CONTRAT_TERM',
  'DOUBLE_FACT',
  'CMD_ERR',
  'ADR_ERR',
  'SIRET_ERR',
  'CODE_ROUTAGE_ERR',
  'REF_CT_ABSENT',
  'REF_ERR',
  'PU_ERR',
  'REM_ERR',
  'QTE_ERR',
  'ART_ERR',
  'MODPAI_ERR',
  'QUALITE_ERR',
  'LIVR_INCOMP',
  'REJ_SEMAN',
  'REJ_UNI',
  'REJ_COH',
  'REJ_ADR',
  'REJ_CONT_B2G',
  'REJ_REF_PJ',
  'REJ_ASS_PJ',
  'IRR_VIDE_F',
  'IRR_TYPE_F',
  'IRR_SYNTAX',
  'IRR_TAILLE_PJ',
  'IRR_NOM_PJ',
  'IRR_VID_PJ',
  'IRR_EXT_DOC',
  'IRR_TAILLE_F',
  'IRR_ANTIVIRUS',
  'IRR_NOM_F',
];

const words = (s: string): readonly string[] => s.split(' ');

/**
 * BR-FR-CDV-CL-09: the reasons each status allows (statuses not listed allow any reason of REASON_CODES). 210 has
 * two lists: refusals by a public buyer (sender GlobalID 9999 under scheme 0238, the B2G list) and all others.
 */
export const REASONS_BY_STATUS: Readonly<Record<string, readonly string[]>> = {
  '200': words('NON_TRANSMISE'),
  '213': words('MONTANTTOTAL_ERR CALCUL_ERR DOUBLON DEST_INC ADR_ERR REJ_SEMAN REJ_UNI REJ_COH REJ_ADR REJ_CONT_B2G REJ_REF_PJ REJ_ASS_PJ'),
  '210': words(
    'TX_TVA_ERR MONTANTTOTAL_ERR CALCUL_ERR NON_CONFORME DOUBLON DEST_ERR TRANSAC_INC EMMET_INC CONTRAT_TERM DOUBLE_FACT CMD_ERR ADR_ERR REF_CT_ABSENT',
  ),
  '207': words(
    'AUTRE COORD_BANC_ERR TX_TVA_ERR MONTANTTOTAL_ERR CALCUL_ERR NON_CONFORME DOUBLON DEST_INC DEST_ERR TRANSAC_INC EMMET_INC CONTRAT_TERM DOUBLE_FACT CMD_ERR ADR_ERR SIRET_ERR CODE_ROUTAGE_ERR REF_CT_ABSENT REF_ERR PU_ERR REM_ERR QTE_ERR ART_ERR MODPAI_ERR QUALITE_ERR LIVR_INCOMP',
  ),
  '206': words(
    'AUTRE CMD_ERR SIRET_ERR CODE_ROUTAGE_ERR REF_CT_ABSENT REF_ERR PU_ERR REM_ERR QTE_ERR ART_ERR MODPAI_ERR QUALITE_ERR LIVR_INCOMP',
  ),
  '208': words('JUSTIF_ABS COORD_BANC_ERR CMD_ERR SIRET_ERR CODE_ROUTAGE_ERR REF_CT_ABSENT REF_ERR'),
  '221': words('ROUTAGE_ERR'),
  '501': words('IRR_VIDE_F IRR_TYPE_F IRR_SYNTAX IRR_TAILLE_PJ IRR_NOM_PJ IRR_VID_PJ IRR_EXT_DOC IRR_TAILLE_F IRR_ANTIVIRUS IRR_NOM_F'),
};

/** BR-FR-CDV-CL-09 (210B2G): the reasons of a refusal sent by a public buyer (Chorus Pro, sender 0238 = 9999). */
export const B2G_REFUSAL_REASONS: readonly string[] = words(
  'RETRAIT_MAN_SERV ST_CT_NON_DECLAR SUPPR_COMP_AVOIR TRANSF_PMNT_REGIE AUTRE COORD_BANC_ERR TX_TVA_ERR MONTANTTOTAL_ERR CALCUL_ERR NON_CONFORME DOUBLON DEST_ERR TRANSAC_INC EMMET_INC CONTRAT_TERM DOUBLE_FACT CMD_ERR ADR_ERR REF_CT_ABSENT LIVR_INCOMP',
);

/** The party roles (UNCL 3035) the rules name, with their meaning in a status message. */
export const ROLE_CODES: Readonly<Record<string, string>> = {
  BY: 'Buyer',
  AB: "Buyer's agent",
  DL: 'Factor',
  SE: 'Seller',
  SR: "Seller's agent",
  WK: 'Accredited platform (plateforme agréée)',
  DFH: 'Public invoicing portal (PPF)',
  PE: 'Payee',
  PR: 'Payer',
  II: 'Invoicer',
  IV: 'Invoicee',
};

/** BR-FR-CDV-CL-02: sender roles (MDT-21) by phase. */
export const SENDER_ROLES: Record<StatusPhase, readonly string[]> = {
  transmission: ['WK'],
  processing: words('BY AB DL SE SR WK PE PR II IV'),
};

/** BR-FR-CDV-CL-03: issuer roles (MDT-40) by phase (a platform never issues a processing status itself). */
export const ISSUER_ROLES: Record<StatusPhase, readonly string[]> = {
  transmission: ['WK'],
  processing: words('BY AB DL SE SR PE PR II IV'),
};

/** BR-FR-CDV-CL-04 / CL-08: recipient roles (MDT-59, MDT-158). */
export const RECIPIENT_ROLES: readonly string[] = words('BY AB DL SE SR PE PR II IV WK DFH');

/** BR-FR-CDV-CL-05: the detail statuses (MDT-88) each phase allows. */
export const DETAIL_CODES: Record<StatusPhase, readonly string[]> = {
  transmission: words('10 51 43 8 48'),
  processing: words('45 39 37 50 49 47 46 1 5'),
};

/** BR-FR-CDV-CL-10: requested actions (MDT-121). */
export const ACTION_CODES: readonly string[] = words('NOA PIN NIN CNF CNP CNA OTH');

/** BR-FR-CDV-CL-11: characteristic types (MDT-207), e.g. MEN amount received with VAT, MPA amount paid, DIV / DVA wrong / expected value. */
export const CHARACTERISTIC_TYPES: readonly string[] = words('MEN MPA RAP ESC RAB REM MAP MAPTTC MNA MNATTC CBB DIV DVA MAJ');

/** BR-FR-04 (CDAR): the invoice type codes a status may refer to (MDT-91). */
export const INVOICE_TYPE_CODES: readonly string[] = words('380 389 393 501 386 500 384 471 472 473 261 262 381 396 502 503');

/** BR-FR-CDV-CL-01: business processes (MDT-2). */
export const BUSINESS_PROCESSES: readonly string[] = words('REGULATED NON_REGULATED B2C B2CINT B2BINT OUTOFSCOPE');

/** MDT-3: between accredited platforms, and towards the public portal (PPF). */
export const GUIDELINE_PLATFORMS = 'urn.cpro.gouv.fr:1p0:CDV:invoice';
export const GUIDELINE_PPF = 'urn.cpro.gouv.fr:1p0:CDV:einvoicingF2';
export const GUIDELINES: readonly string[] = [GUIDELINE_PLATFORMS, GUIDELINE_PPF];

/** The PPF as the one recipient of a message to the portal (BR-FR-CDV-02): GlobalID 0000 under scheme 0238, role DFH. */
export const PPF_ID = { value: '0000', scheme: '0238' } as const;
/** The sender GlobalID (scheme 0238) of Chorus Pro, which marks a public buyer's refusal (BR-FR-CDV-CL-09 210B2G). */
export const CHORUS_PRO_ID = { value: '9999', scheme: '0238' } as const;
