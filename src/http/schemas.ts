/**
 * Shared OpenAPI component schemas, under the spec's names. Registered with app.addSchema() and
 * referenced from routes as `{ $ref: 'Name#' }`; they appear in /openapi.json under components.schemas.
 */
const str = { type: 'string' } as const;
const strOrNull = { type: ['string', 'null'] } as const;

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
    properties: {
      layer: { type: 'string', description: 'xsd, schematron, pdfa3b or br_fr_ctc' },
      reason: { type: 'string', description: 'e.g. tool_missing:<tool_name>, license_required, not_applicable' },
    },
    required: ['layer', 'reason'],
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
      fallbacks_applied: { type: 'array', items: { $ref: 'FallbackApplied#' } },
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

/** Standard error responses for a route's OpenAPI entry. */
export function errorResponses(...statuses: number[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of statuses) {
    out[String(s)] =
      s === 422
        ? {
            description: 'Request shape failure (FastAPI HTTPValidationError)',
            content: { 'application/json': { schema: { $ref: 'HTTPValidationError#' } } },
          }
        : { description: 'Problem details', content: { 'application/problem+json': { schema: { $ref: 'ProblemDetails#' } } } };
  }
  return out;
}
