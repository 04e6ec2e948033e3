/**
 * Shared OpenAPI component schemas, under the spec's names. Registered with app.addSchema() and
 * referenced from routes as `{ $ref: 'Name#' }`; they appear in /openapi.json under components.schemas.
 */
import { BR_FR_EDITIONS } from '../validation/br-fr.js';
import { XR_RELEASES } from '../rules/xrechnung/common.js';
import { FACTURX_SCHEMA_RELEASES } from '../xml/xsd-native/facturx-overlay.js';
import { StatusMessageSchema } from '../cdar/schema.js';
import { PEPPOL_RELEASES } from '../rules/peppol/releases.js';

const str = { type: 'string' } as const;
const strOrNull = { type: ['string', 'null'] } as const;
const ref = (name: string) => ({ $ref: `${name}#` });
const refOrNull = (name: string) => ({ anyOf: [ref(name), { type: 'null' }] });
/** An object whose fields are all optional strings or null (the contract's InvoiceJson parts). */
const stringOrNullFields = (description: string, fields: string[]) => ({
  type: 'object',
  description,
  properties: Object.fromEntries(fields.map((f) => [f, strOrNull])),
  additionalProperties: true,
});
const PARTY_JSON_FIELDS = ['name', 'registration_id', 'email', 'line1', 'city', 'postcode', 'country', 'vat_number'];

/** What the validation results share beyond the contract's fields (release echoes, report bounds). */
const resultExtras = {
  br_fr_edition: {
    type: 'string',
    enum: [...BR_FR_EDITIONS],
    description: 'The BR-FR edition that ran (only when the br_fr_ctc layer ran)',
  },
  xrechnung_version: {
    type: 'string',
    enum: [...XR_RELEASES],
    description: 'The XRechnung schematron release that ran (only when an XRechnung rule set ran)',
  },
  facturx_version: {
    type: 'string',
    enum: [...FACTURX_SCHEMA_RELEASES],
    description: 'The Factur-X release whose schema checked the CII invoice (only when the XSD layer checked a CII invoice)',
  },
  peppol_version: {
    type: 'string',
    enum: [...PEPPOL_RELEASES],
    description: 'The Peppol BIS Billing 3.0 release that ran (only when a Peppol rule set ran)',
  },
  rule_set_versions: ref('RuleSetVersions'),
  report_truncated: {
    type: 'boolean',
    description:
      'Present (true) when the report size bounds left findings out of the list: the first 100 per rule and 1,000 entries in all are listed, the rest counted in summary entries (`omitted`)',
  },
  findings_omitted: {
    type: 'integer',
    description: 'With report_truncated: how many findings are counted in summary entries instead of listed',
  },
} as const;
const layersExecuted = {
  type: 'array',
  items: { type: 'string', enum: ['xsd', 'schematron', 'br_fr_ctc', 'pdfa3b'] },
  description: 'Layers that ran: xsd, schematron (the native rule sets), br_fr_ctc (French CTC rules), pdfa3b (pro, PDF uploads)',
} as const;
/** ValidationResult.format: the detected syntax family; the XRechnung CIUS is a flavor, not a format. */
const DETECTED_FORMATS = ['factur-x', 'zugferd', 'ubl'] as const;
const formatDetected = {
  type: ['string', 'null'],
  enum: [...DETECTED_FORMATS, null],
  description: 'Detected format: factur-x, zugferd (CII) or ubl; null when no invoice XML was read. XRechnung is reported in `flavor`.',
} as const;
const flavorDetected = {
  ...strOrNull,
  description:
    'Detected flavor or level, from the guideline (BT-24) or CustomizationID: minimum, basic_wl, basic, en16931, extended, xrechnung, xrechnung_extension, ...',
} as const;

export const componentSchemas: Record<string, Record<string, unknown>> = {
  ProblemDetails: {
    type: 'object',
    description:
      'RFC 9457 problem details. Extension members (e.g. `code`, `license_url`, `errors`) appear at the top level and again under `extensions`.',
    properties: {
      type: { type: 'string', format: 'uri-reference', default: 'about:blank' },
      title: str,
      status: { type: 'integer' },
      detail: strOrNull,
      instance: strOrNull,
      code: { type: 'string', description: 'Stable machine-readable error code, e.g. LICENSE_REQUIRED, NOT_PDF_OR_XML, UPLOAD_TOO_LARGE' },
      extensions: { type: ['object', 'null'], additionalProperties: true },
    },
    required: ['title', 'status'],
    additionalProperties: true,
  },
  ValidationError: {
    type: 'object',
    properties: {
      loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
      msg: str,
      type: str,
      input: {},
      ctx: { type: 'object', additionalProperties: true },
    },
    required: ['loc', 'msg', 'type'],
  },
  HTTPValidationError: {
    type: 'object',
    properties: { detail: { type: 'array', items: { $ref: 'ValidationError#' } } },
    required: ['detail'],
  },
  SkippedLayer: {
    type: 'object',
    description: 'A validation layer that did not run, and why.',
    properties: {
      layer: { type: 'string', enum: ['xsd', 'schematron', 'pdfa3b', 'br_fr_ctc'] },
      reason: {
        type: 'string',
        description:
          'Why it did not run: license_required, no_invoice_xml, time_budget_exceeded, not_applicable:<why>, ' +
          'ruleset_unavailable:<rule set>, tool_missing:<tool_name>, check_failed:<message>',
      },
    },
    required: ['layer', 'reason'],
  },
  ErrorDetail: {
    type: 'object',
    description: 'A finding about the document in an ExtractionResult (e.g. NO_XML).',
    properties: { code: str, message: str },
    required: ['code', 'message'],
  },
  Seller: stringOrNullFields('The seller as read from the invoice.', PARTY_JSON_FIELDS),
  Buyer: stringOrNullFields('The buyer as read from the invoice.', PARTY_JSON_FIELDS),
  Totals: stringOrNullFields('Document totals, amounts as written in the XML.', [
    'net_amount',
    'tax_amount',
    'gross_amount',
    'payable_amount',
  ]),
  TaxBreakdownItem: stringOrNullFields('One VAT breakdown group.', ['category', 'vat_rate', 'basis_amount', 'tax_amount']),
  LineItem: stringOrNullFields('One invoice line.', ['description', 'quantity', 'unit_code', 'unit_price', 'vat_rate', 'line_total']),
  InvoiceJson: {
    type: 'object',
    description: 'Best-effort invoice JSON; amounts are strings exactly as written in the XML. Extra properties are allowed (`_meta`).',
    properties: {
      invoice_number: strOrNull,
      invoice_date: strOrNull,
      due_date: strOrNull,
      document_type_code: strOrNull,
      currency: strOrNull,
      buyer_reference: strOrNull,
      contract_reference: strOrNull,
      seller: refOrNull('Seller'),
      buyer: refOrNull('Buyer'),
      totals: refOrNull('Totals'),
      tax_breakdown: { type: 'array', items: ref('TaxBreakdownItem'), default: [] },
      line_items: { type: 'array', items: ref('LineItem'), default: [] },
      _meta: {
        type: 'object',
        description: 'How the JSON was obtained: heuristic mapping or fallback values, and the fields concerned.',
        properties: {
          limitations: { type: 'array', items: { type: 'string', enum: ['heuristic_mapping', 'fallback_values_used'] } },
          fallbacks: {
            type: 'array',
            items: {
              type: 'object',
              properties: { field: str, source: str, kind: { type: 'string', enum: ['heuristic_mapping', 'fallback_values_used'] } },
              required: ['field', 'source', 'kind'],
            },
          },
        },
      },
    },
    additionalProperties: true,
  },
  ExtractionResult: {
    type: 'object',
    description: 'What /v1/extract read: the detected format and profile, whether invoice XML was found, best-effort invoice JSON.',
    properties: {
      format_detected: {
        ...strOrNull,
        description: 'factur-x, zugferd, xrechnung or ubl; cdar for a lifecycle status message; null when no invoice XML was found',
      },
      profile_detected: {
        ...strOrNull,
        description: 'minimum, basic_wl, basic, en16931, extended, xrechnung or extended_ctc_fr (from BT-24, else the PDF XMP)',
      },
      xml_extracted: { type: 'boolean' },
      invoice_json: refOrNull('InvoiceJson'),
      errors: { type: 'array', items: ref('ErrorDetail'), default: [] },
      status_json: {
        ...ref('StatusMessage'),
        description:
          'Only for a French lifecycle status message (CDAR; format_detected "cdar", invoice_json null): what it says, as POST /v1/status takes it',
      },
    },
    required: ['xml_extracted'],
  },
  StatusMessage: StatusMessageSchema as unknown as Record<string, unknown>,
  StatusResult: {
    type: 'object',
    description: 'POST /v1/status with Accept: application/json: the XML, the complete message written, the BR-FR-CDV warnings.',
    properties: {
      xml: { type: 'string', description: 'The CDAR D22B XML.' },
      status_json: ref('StatusMessage'),
      warnings: { type: 'array', items: ref('ValidationErrorDetail') },
    },
    required: ['xml', 'status_json', 'warnings'],
  },
  ValidationErrorDetail: {
    type: 'object',
    description: 'One finding of a community validation report.',
    properties: {
      rule_id: {
        ...strOrNull,
        description:
          'Official rule id (BR-CO-10, CII-SR-001, UBL-CR-001, ...); XSD for schema errors; an ingest code (NO_XML, XML_MALFORMED, ...) when no invoice could be read',
      },
      message: str,
      severity: {
        type: 'string',
        enum: ['error', 'warning'],
        default: 'error',
        description: '`error` makes the invoice invalid; `warning` does not',
      },
      location: { type: 'string', description: 'XPath-like location of the offending element (line number for schema errors)' },
      rule_set: { type: 'string', description: 'Rule set of the finding: en16931-cii, en16931-ubl, xsd, ...' },
      omitted: {
        type: 'integer',
        description:
          'Only on a summary entry (report size bounds): how many further findings of this rule (or, with rule_id REPORT_TRUNCATED, of the report) it stands for, not listed',
      },
    },
    required: ['message'],
  },
  RuleSetVersions: {
    type: 'object',
    additionalProperties: { type: 'string' },
    description:
      'Which release of each rule set and schema judged the invoice, for the families that ran: en16931 (CEN validation artefacts), ' +
      'xrechnung (KoSIT schematron), facturx (Factur-X/ZUGFeRD profile rules), br_fr (FNFE-MPE BR-FR), peppol (Peppol BIS Billing 3.0), ' +
      'extended_ctc_fr (FNFE-MPE EXTENDED-CTC-FR profile rules), xsd (the schema the XSD layer used)',
    examples: [{ xsd: 'Factur-X 1.09.2 EN16931', en16931: '1.3.16', facturx: '1.09.2' }],
  },
  ValidationResult: {
    type: 'object',
    description: 'Community validation report: the raw findings with their official rule ids.',
    properties: {
      valid: { type: 'boolean', description: 'true when no finding has severity error' },
      format: formatDetected,
      flavor: flavorDetected,
      errors: { type: 'array', items: ref('ValidationErrorDetail'), description: 'Every finding, errors and warnings' },
      validation_mode: { ...strOrNull, description: '"community"' },
      pdfa_valid: { type: ['boolean', 'null'], description: 'Always null in community mode (the pdfa3b layer is pro)' },
      validation_completeness: { type: 'string', enum: ['full', 'partial'], default: 'full' },
      layers_executed: layersExecuted,
      layers_skipped: { type: 'array', items: ref('SkippedLayer') },
      rule_sets: {
        type: 'array',
        items: str,
        description: 'Rule sets that ran (en16931-cii, en16931-ubl, xrechnung-cii, fx-en16931, ...)',
      },
      ...resultExtras,
    },
    required: [
      'valid',
      'format',
      'flavor',
      'errors',
      'validation_mode',
      'pdfa_valid',
      'validation_completeness',
      'layers_executed',
      'layers_skipped',
    ],
  },
  DiagnosticDetail: {
    type: 'object',
    description: 'One finding of a pro validation report, explained.',
    properties: {
      rule_id: { type: 'string', description: 'EN 16931 (or CIUS, profile, PDF/A clause) rule id' },
      severity: { type: 'string', enum: ['error', 'warning', 'info'] },
      title: { type: 'string', description: 'Short actionable title' },
      explanation: str,
      suggestion: { type: 'string', description: 'How to fix it' },
      context: {
        type: ['object', 'null'],
        additionalProperties: true,
        description: 'Values extracted for debugging (location, rule set, ...)',
      },
    },
    required: ['rule_id', 'severity', 'title', 'explanation', 'suggestion'],
  },
  ProValidationResult: {
    type: 'object',
    description: 'Pro validation report with smart diagnostics (and PDF/A-3b validation of PDF uploads).',
    properties: {
      valid: { type: 'boolean' },
      format: formatDetected,
      flavor: flavorDetected,
      error_count: { type: 'integer', description: 'Every finding of severity error, also those a summary entry stands for' },
      warning_count: { type: 'integer', default: 0 },
      diagnostics: { type: 'array', items: ref('DiagnosticDetail') },
      validation_mode: { type: 'string', enum: ['pro_diagnostics'], default: 'pro_diagnostics' },
      pdfa_valid: {
        type: ['boolean', 'null'],
        description: 'PDF/A verdict of a PDF upload; null if the input was raw XML or the PDF/A layer did not run',
      },
      validation_completeness: { type: 'string', enum: ['full', 'partial'], default: 'full' },
      layers_executed: layersExecuted,
      layers_skipped: { type: 'array', items: ref('SkippedLayer') },
      ...resultExtras,
    },
    required: ['valid', 'error_count'],
  },
  AddressSchema: {
    type: 'object',
    properties: { line1: str, line2: strOrNull, city: str, postcode: str, country_code: str },
    required: ['line1', 'city', 'postcode', 'country_code'],
  },
  PartySchema: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'legal company name' },
      vat_number: strOrNull,
      registration_id: strOrNull,
      address: { anyOf: [{ $ref: 'AddressSchema#' }, { type: 'null' }] },
      email: strOrNull,
      electronic_address: {
        type: 'object',
        properties: { id: str, scheme: str },
        required: ['id'],
        description: 'BT-34/BT-49 (schema 1.1.0)',
      },
      contact: {
        type: 'object',
        properties: { name: str, department: str, phone: str, email: str },
        description: 'BG-6/BG-9 (schema 1.1.0)',
      },
    },
    required: ['name'],
  },
  LineItemSchema: {
    type: 'object',
    properties: {
      name: str,
      description: strOrNull,
      quantity: str,
      unit_code: str,
      unit_label: strOrNull,
      net_price: str,
      line_total: str,
      vat_rate: str,
      vat_category: { type: 'string', default: 'S' },
      price_base_quantity: { type: 'string', description: 'BT-149, when not 1 (schema 1.1.0)' },
      allowances: { type: 'array', items: { $ref: 'AllowanceChargeSchema#' }, description: 'BG-27 (schema 1.1.0)' },
      charges: { type: 'array', items: { $ref: 'AllowanceChargeSchema#' }, description: 'BG-28 (schema 1.1.0)' },
    },
    required: ['name', 'quantity', 'unit_code', 'net_price', 'line_total', 'vat_rate'],
  },
  AllowanceChargeSchema: {
    type: 'object',
    description: 'Line (BG-27/28) or document (BG-20/21) allowance or charge; VAT members on document level (schema 1.1.0).',
    properties: {
      amount: str,
      base_amount: str,
      percentage: str,
      vat_category: str,
      vat_rate: str,
      reason: str,
      reason_code: str,
    },
    required: ['amount'],
  },
  TaxBreakdownSchema: {
    type: 'object',
    properties: {
      category: str,
      rate: str,
      basis_amount: str,
      tax_amount: str,
      exemption_reason: { type: 'string', description: 'BT-120 (schema 1.1.0)' },
      exemption_reason_code: { type: 'string', description: 'BT-121 (schema 1.1.0)' },
    },
    required: ['category', 'rate', 'basis_amount', 'tax_amount'],
  },
  BusinessReadyInvoice: {
    type: 'object',
    properties: {
      invoice_number: str,
      invoice_date: { type: 'string', format: 'date' },
      due_date: { type: ['string', 'null'], format: 'date' },
      currency: { type: 'string', default: 'EUR' },
      buyer_reference: strOrNull,
      contract_reference: strOrNull,
      seller: { $ref: 'PartySchema#' },
      buyer: { $ref: 'PartySchema#' },
      line_items: { type: 'array', items: { $ref: 'LineItemSchema#' } },
      tax_breakdown: { type: 'array', items: { $ref: 'TaxBreakdownSchema#' } },
      total_net_amount: str,
      total_tax_amount: str,
      total_gross_amount: str,
      amount_due: str,
      format: { type: 'string', enum: ['factur-x', 'zugferd', 'xrechnung', 'ubl'] },
      profile: { type: 'string', enum: ['minimum', 'basic', 'en16931', 'extended', 'xrechnung_3.0'] },
      allowances: { type: 'array', items: { $ref: 'AllowanceChargeSchema#' }, description: 'BG-20 (schema 1.1.0)' },
      charges: { type: 'array', items: { $ref: 'AllowanceChargeSchema#' }, description: 'BG-21 (schema 1.1.0)' },
      paid_amount: { type: 'string', description: 'BT-113 (schema 1.1.0)' },
      rounding_amount: { type: 'string', description: 'BT-114 (schema 1.1.0)' },
      payment_terms: { type: 'string', description: 'BT-20 (schema 1.1.0)' },
      payment: {
        type: 'object',
        description: 'BG-16 payment instructions, shaped as in InvoiceMetadata (schema 1.1.0)',
        properties: {
          means_code: str,
          means_text: str,
          remittance_information: str,
          credit_transfers: {
            type: 'array',
            items: { type: 'object', properties: { iban: str, account_id: str, account_name: str, bic: str } },
          },
          card: { type: 'object', properties: { account_number: str, holder_name: str }, required: ['account_number'] },
          direct_debit: {
            type: 'object',
            properties: { mandate_reference: str, creditor_id: str, debited_account: str },
            required: ['mandate_reference', 'creditor_id', 'debited_account'],
          },
        },
        required: ['means_code'],
      },
      delivery: {
        type: 'object',
        description: 'BG-13 delivery: BT-70, BT-72, BG-15 (schema 1.1.0)',
        properties: {
          party_name: str,
          date: { type: 'string', format: 'date' },
          address: {
            type: 'object',
            properties: { line1: str, line2: str, city: str, postcode: str, country_code: str },
            required: ['country_code'],
          },
        },
      },
      invoice_period: {
        type: 'object',
        description: 'BG-14 invoicing period (schema 1.1.0)',
        properties: { start: { type: 'string', format: 'date' }, end: { type: 'string', format: 'date' } },
      },
      tax_currency: { type: 'string', description: 'BT-6 (schema 1.1.0)' },
      tax_total_in_tax_currency: { type: 'string', description: 'BT-111 (schema 1.1.0)' },
    },
    required: [
      'invoice_number',
      'invoice_date',
      'seller',
      'buyer',
      'line_items',
      'tax_breakdown',
      'total_net_amount',
      'total_tax_amount',
      'total_gross_amount',
      'amount_due',
      'format',
      'profile',
    ],
  },
  FallbackApplied: {
    type: 'object',
    properties: {
      field: str,
      fallback_type: {
        type: 'string',
        enum: ['default_value', 'placeholder_value', 'derived_value', 'coercion', 'xml_parser_recovery', 'line_skipped', 'line_truncated'],
      },
      original_state: { type: 'string', enum: ['missing', 'invalid', 'malformed', 'unparseable', 'truncated'] },
      applied_value: { type: ['string', 'integer', 'number', 'boolean', 'null'] },
    },
    required: ['field', 'fallback_type', 'original_state'],
  },
  SerializationResponse: {
    type: 'object',
    properties: {
      success: { type: 'boolean' },
      schema_version: { type: 'string', default: '1.0.0', description: 'Version of BusinessReadyInvoice; this service writes 1.1.0' },
      engine_version: { type: 'string', default: '0.0.0' },
      invoice: { anyOf: [{ $ref: 'BusinessReadyInvoice#' }, { type: 'null' }] },
      xml_recovery_applied: { type: 'boolean', default: false },
      fallbacks_applied: {
        type: 'array',
        items: { $ref: 'FallbackApplied#' },
        description:
          'At most the first 100 of each field pattern (`invoice.line_items[*].quantity`, type, original state); see fallbacks_omitted',
      },
      fallbacks_truncated: {
        type: 'boolean',
        const: true,
        description: 'Present only when fallbacks_applied does not list every fallback (over 100 of one field pattern)',
      },
      fallbacks_omitted: {
        type: 'array',
        description: 'With fallbacks_truncated: per field pattern, type and original state, how many fallbacks are not listed',
        items: {
          type: 'object',
          properties: {
            field: { type: 'string', description: 'The field with its indices as [*], e.g. invoice.line_items[*].quantity' },
            fallback_type: { type: 'string' },
            original_state: { type: 'string' },
            omitted: { type: 'integer', minimum: 1 },
          },
          required: ['field', 'fallback_type', 'original_state', 'omitted'],
        },
      },
      errors: { type: 'array', items: { type: 'object', additionalProperties: { type: 'string' } } },
    },
    required: ['success'],
  },
  DiagnosticsResponse: {
    type: 'object',
    description:
      '`python_version` and `environment.python_version` carry the Node.js version: the field names are kept for client compatibility.',
    properties: {
      version: str,
      git_hash: str,
      build_date: str,
      python_version: str,
      dependencies: { type: 'array', items: { type: 'object', properties: { name: str, version: str }, required: ['name', 'version'] } },
      runtime_config: {
        type: 'object',
        properties: {
          mode: { type: 'string', enum: ['community', 'pro'] },
          workers: { type: 'integer', default: 1 },
          processes: {
            type: 'integer',
            default: 1,
            description: 'Server processes sharing the port (PROCESSES); this answer describes one of them',
          },
          process_id: { type: 'integer', description: 'The answering server process' },
          max_upload_size_mb: { type: 'integer', default: 10 },
        },
        required: ['mode'],
        additionalProperties: true,
      },
      environment: {
        type: 'object',
        properties: { os: str, architecture: str, python_version: str, hostname: str },
        required: ['os', 'architecture', 'python_version', 'hostname'],
      },
      memory_status: {
        type: 'object',
        properties: {
          total_mb: { type: 'number' },
          available_mb: { type: 'number' },
          process_mb: { type: 'number' },
          percent_used: { type: 'number' },
        },
        required: ['total_mb', 'available_mb', 'process_mb', 'percent_used'],
      },
      features_enabled: { type: 'array', items: str },
      uptime_seconds: { type: 'number' },
      license: {
        type: 'object',
        additionalProperties: true,
        description: 'License state: licensee and expiry, or why the key was refused.',
      },
      rule_sets: {
        type: 'array',
        description:
          'The rule sets and schemas bundled, each with its releases (date, default, the /v1/validate field that selects it); see docs/rules.md.',
        items: {
          type: 'object',
          properties: {
            family: str,
            name: str,
            releases: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  version: str,
                  date: str,
                  default: { type: 'boolean' },
                  select: { type: 'object', properties: { field: str, value: str } },
                  note: str,
                },
                required: ['version', 'date', 'default'],
              },
            },
          },
          required: ['family', 'name', 'releases'],
        },
      },
    },
    required: [
      'version',
      'git_hash',
      'build_date',
      'python_version',
      'dependencies',
      'runtime_config',
      'environment',
      'memory_status',
      'features_enabled',
      'uptime_seconds',
    ],
  },
  HealthResponse: {
    type: 'object',
    properties: { status: { type: 'string', enum: ['ok'] } },
    required: ['status'],
  },
  ReadinessResponse: {
    type: 'object',
    description: 'Readiness: `status` is `ready` (200) or `not_ready` (503, a critical check failed); every subsystem check is listed.',
    properties: {
      status: { type: 'string', enum: ['ready', 'not_ready'] },
      edition: { type: 'string', enum: ['community', 'pro'] },
      checks: {
        type: 'object',
        additionalProperties: {
          type: 'object',
          properties: {
            status: { type: 'string', enum: ['ok', 'unavailable'] },
            critical: { type: 'boolean' },
            detail: str,
          },
          required: ['status', 'critical'],
        },
      },
    },
    required: ['status', 'checks'],
  },
};

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Unusable input (ProblemDetails with a `code`)',
  401: 'Missing or wrong bearer token',
  403: 'Forbidden: disabled, or a pro feature without a license (`code` LICENSE_REQUIRED, `license_url`)',
  409: 'Conflict',
  413: 'The upload exceeds MAX_UPLOAD_SIZE_MB (`code` UPLOAD_TOO_LARGE, `max_upload_size_mb`)',
  415: 'The request Content-Type is not one this endpoint reads',
  500: 'Server error (never the internal message)',
  503: 'All validation workers are busy (`code` SERVICE_BUSY, header Retry-After); retry shortly',
};

/** Standard error responses for a route's OpenAPI entry: ProblemDetails, and for 422 also HTTPValidationError. */
export function errorResponses(...statuses: number[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of statuses) {
    out[String(s)] =
      s === 422
        ? {
            description:
              'Request shape failure (HTTPValidationError, `application/json`), or a document the service cannot process in its bounds (ProblemDetails, e.g. `code` PROCESSING_TIMEOUT)',
            content: {
              'application/json': { schema: ref('HTTPValidationError') },
              'application/problem+json': { schema: ref('ProblemDetails') },
            },
          }
        : {
            description: ERROR_DESCRIPTIONS[s] ?? 'Problem details',
            content: { 'application/problem+json': { schema: ref('ProblemDetails') } },
          };
  }
  return out;
}

/** The error answers every upload endpoint can give (400, 413, 415, 422, 500, 503); add the endpoint's own. */
export function uploadErrorResponses(...more: number[]): Record<string, unknown> {
  return errorResponses(...[400, 413, 415, 422, 500, 503, ...more].sort((a, b) => a - b));
}

/** A JSON 200 answer whose body is the named component (or a choice of them). */
export function jsonResponse(description: string, ...names: string[]): Record<string, unknown> {
  const schema = names.length === 1 ? ref(names[0]) : { oneOf: names.map(ref) };
  return { description, content: { 'application/json': { schema } } };
}
