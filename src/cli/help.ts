/** The CLI's help texts (`einvoice help COMMAND`, `einvoice COMMAND --help`). */
export const HELP: Record<string, string> = {
  main: `einvoice — validate, read and build e-invoices (Factur-X / ZUGFeRD, XRechnung CII and UBL) against EN 16931,
in-process, without a server.

Usage: einvoice COMMAND [options]

Commands:
  validate FILE|DIR|GLOB...        validate invoices (folders are walked for PDF and XML), in parallel
  extract FILE                     read a PDF or XML invoice: format, profile, invoice JSON
  xml METADATA.json                generate CII or UBL XML from invoice metadata
  transform FILE --to ubl|cii      convert an invoice between CII and UBL (EN 16931, XRechnung, Peppol BIS)
  convert [PDF] METADATA.json -o OUT.pdf  embed generated XML into a PDF, or into the invoice drawn (Factur-X / XRechnung)
  merge PDF XML -o OUT.pdf         embed an existing invoice XML into a PDF/A-3
  serialize FILE                   normalized ERP JSON (pro: needs LICENSE_KEY)
  status STATUS.json               build a French lifecycle status message (CDAR D22B XML) from JSON
  render FILE [-o OUT.html|.pdf]   the invoice as a human-readable HTML page or PDF (--lang en|de|fr)
  serve                            start the HTTP service (the same as npm start)
  help [COMMAND]                   this text, or a command's
  --version                        engine and rule-set versions

Exit codes: 0 all valid / success; 1 at least one file invalid or unreadable (per --fail-on), or the input was
refused (the error code is printed); 2 usage error, input path not found, output not writable, license missing.
`,
  validate: `Usage: einvoice validate FILE|DIR|GLOB... [options]

Validates each PDF (the embedded invoice XML) and XML file against EN 16931 and the rule sets its profile calls
for (Factur-X profiles, XRechnung), in parallel worker threads. Folders are walked recursively for *.pdf and *.xml;
globs (*, **, ?, [..], {a,b}) are expanded by the CLI too (quote them). A corrupt, huge or hostile file is one
unreadable entry; the batch goes on.

Options:
  --rules LAYER            extra rule layer: br_fr_ctc (French CTC rules); repeatable or comma-separated
  --br-fr-edition E        1.2.0, 1.4 (default) or 1.4-warning
  --xrechnung-version V    XRechnung schematron release: 2.5.0 or 2.4.0 (default: the engine's current one)
  --facturx-version V      Factur-X / ZUGFeRD schema release: 1.09.2 or 1.08 (default: 1.09.2)
  --peppol-version V       Peppol BIS Billing 3.0 release: 2026.5, 2025.11 or 2025.5 (default: 2026.5)
  --extended-ctc-fr-version V  EXTENDED-CTC-FR rules release: 1.4.0.02, 1.4.0.01 or 1.4.0 (default: 1.4.0.02)
  --pdfa                   check PDFs against PDF/A (the part their XMP declares; the native pdfa3b layer);
                           pro: needs LICENSE_KEY, else exit 2 LICENSE_REQUIRED
  -f, --format F           text (default), json (one line per file, in input order), junit, sarif,
                           html (one self-contained page: per file its verdict and findings)
  -o, --output FILE        write the report there instead of stdout
  --fail-on LEVEL          error (default): exit 1 when a file has errors; warning: also when it has warnings;
                           never: exit 0 whatever the verdicts (2 still for usage and I/O errors)
  -j, --jobs N             worker threads at most (default: the number of cores); a smaller batch gets one
                           per 800 files or 16 MB, as more would start slower than they help
  --shard i/n              validate only the i-th of n slices of the input list (1 <= i <= n), for parallel jobs
  --shard-index i/n        the same counted from 0 (0 <= i < n), as Kubernetes' $(JOB_COMPLETION_INDEX)
  --max-size MB            larger files are unreadable entries, not read (default 100)
  --timeout S              a file taking longer is an unreadable entry (TIMEOUT), its thread replaced (default 60)
  --progress / --no-progress   force the progress bar on stderr on or off (default: on when stderr is a terminal)
  -q, --quiet              text: only the summary line

Exit codes: 0 every file valid; 1 at least one invalid or unreadable file (or with warnings, per --fail-on);
2 usage error or an input path that names nothing.
`,
  extract: `Usage: einvoice extract FILE [-o OUT.json]

Prints the ExtractionResult of POST /v1/extract as JSON: format_detected, profile_detected, xml_extracted,
invoice_json, errors. --xml writes the invoice XML found instead.

Options:
  -o, --output FILE   write there instead of stdout
  --xml               output the embedded/uploaded invoice XML itself (exit 1 with NO_XML when there is none)

Exit codes: 0 read; 1 refused (NOT_PDF_OR_XML, PDF_ENCRYPTED, XML_MALFORMED, ...); 2 usage or I/O error.
`,
  xml: `Usage: einvoice xml METADATA.json [--profile P] [--syntax cii|ubl] [-o OUT.xml]

Generates Factur-X / ZUGFeRD / XRechnung CII D22B XML, or EN 16931 / XRechnung / Peppol BIS UBL 2.1 XML, from
invoice metadata (the API's InvoiceMetadata JSON; "-" reads stdin), as POST /v1/xml does. Fields the profile
cannot carry are listed on stderr.

Options:
  --profile P         minimum, basic_wl, basic, en16931, extended, xrechnung, extended_ctc_fr or peppol
                      (overrides the metadata's)
  --syntax S          cii (default) or ubl (with en16931, xrechnung, peppol; peppol is ubl anyway)
  -o, --output FILE   write there instead of stdout

Exit codes: 0 written; 1 refused (METADATA_NOT_JSON, METADATA_INVALID, METADATA_INCONSISTENT); 2 usage or I/O error.
`,
  transform: `Usage: einvoice transform FILE --to ubl|cii [--profile P] [--json] [-o OUT]

Converts a CII or UBL invoice, or the CII of a Factur-X / ZUGFeRD PDF, into the other syntax through the EN 16931
model, as POST /v1/transform does. What does not reach the target (content outside EN 16931, terms the target
cannot carry, the identifiers it replaces) is listed on stderr, one line per group.

Options:
  --to S              ubl or cii (required)
  --profile P         ubl: en16931, xrechnung or peppol; cii: minimum, basic_wl, basic, en16931, extended or
                      xrechnung (default: the source's, where the target syntax has it, else en16931)
  --json              write the API's JSON answer (xml, syntax, profile, source, dropped) instead of the XML
  -o, --output FILE   write there instead of stdout

Exit codes: 0 written; 1 refused (NOT_PDF_OR_XML, XML_MALFORMED, NO_XML, UNKNOWN_XML, OPTION_INVALID, ...); 2 usage
or I/O error.
`,
  convert: `Usage: einvoice convert [PDF] METADATA.json -o OUT.pdf [--profile P] [--lang en|de|fr] [--allow-signature-invalidation] [--pdfa-strict]

Generates the invoice XML from the metadata and embeds it in the PDF (factur-x.xml, or xrechnung.xml for the
xrechnung profile), as POST /v1/convert does. Without a PDF the invoice is drawn from the metadata as a PDF/A-3b
(labels in --lang) and the XML embedded into it: a complete Factur-X / XRechnung from the metadata alone. A
digitally signed PDF is refused (PDF_SIGNED): embedding would invalidate its signature;
--allow-signature-invalidation embeds anyway (and says so on stderr).

PDF/A never stops a conversion: what the input breaks is repaired where the pages stay as they are, and the
output is checked against PDF/A-3b. stderr says so when something was repaired or the check did not pass
("PDF/A-3b: failed, unmet: 6.2.2-1", then the findings). --pdfa-strict refuses such a PDF instead
(PDFA_NONCONFORMANT, exit 1, nothing written).

Exit codes: 0 written; 1 refused (NOT_PDF, PDF_ENCRYPTED, PDF_SIGNED, METADATA_*, PDFA_NONCONFORMANT with --pdfa-strict);
2 usage or I/O error.
`,
  merge: `Usage: einvoice merge PDF XML -o OUT.pdf [--format factur-x|zugferd|xrechnung] [--allow-signature-invalidation] [--pdfa-strict]

Embeds an existing invoice XML into an existing PDF/A-3 PDF, as POST /v1/merge does (the PDF must declare
PDF/A-3 and carry no invoice yet; the XML must pass EN 16931). A digitally signed PDF is refused (PDF_SIGNED)
unless --allow-signature-invalidation is given. Content of the PDF that fails PDF/A-3b is repaired and the result
checked, as for convert (stderr says what was repaired or is still unmet; --pdfa-strict refuses instead).

Exit codes: 0 written; 1 refused (NOT_PDF, NOT_XML, XML_ALREADY_EMBEDDED, NOT_PDFA3, EN16931_INVALID, PDF_SIGNED,
PDFA_NONCONFORMANT with --pdfa-strict, ...; the failed rules are listed); 2 usage or I/O error.
`,
  render: `Usage: einvoice render FILE [-o OUT.html] [--lang en|de|fr] [--format html|pdf]

Draws a PDF or XML invoice as one self-contained HTML page, as POST /v1/render answers it: every business term with
its label, each value marked with its EN 16931 id (data-bt), codes with their meaning; or (--format pdf, or -o x.pdf)
as a PDF/A-3b on A4 pages. Without -o the page goes to stdout.

Options:
  -o, --output FILE   write the page there (a name ending in .pdf asks for format pdf)
  --lang L            language of the labels: en (default), de, fr
  --format F          html (default) or pdf

Exit codes: 0 written; 1 refused (NOT_PDF_OR_XML, XML_MALFORMED, NO_XML, UNKNOWN_XML, ...);
2 usage or I/O error (a --lang or --format that is not accepted is a usage error).
`,
  serialize: `Usage: einvoice serialize FILE [-o OUT.json]

Pro: normalized, typed ERP JSON (BusinessReadyInvoice) as POST /v1/serialize answers it. Needs LICENSE_KEY (and
LICENSE_PUBLIC_KEY when licenses are signed with another key), verified as the server verifies them.

Exit codes: 0 written; 1 refused (NOT_PDF_OR_XML, XML_MALFORMED, ...); 2 usage or I/O error, or LICENSE_REQUIRED.
`,
  status: `Usage: einvoice status STATUS.json [--json] [-o OUT.xml]

Builds a French lifecycle status message (CDV, AFNOR XP Z12-012) as UN/CEFACT CDAR D22B XML from JSON (the API's
StatusMessage; "-" reads stdin), as POST /v1/status does: the defaults filled in (label, phase, detail status,
business process, guideline, detail numbers), then checked by the CDAR XSD and the BR-FR-CDV rules. Warnings (a
status code outside the published list) go to stderr. \`einvoice validate\` and \`einvoice extract\` read CDAR files.

Options:
  --json              write { xml, status_json, warnings } (status_json: the complete message written)
  -o, --output FILE   write there instead of stdout

Exit codes: 0 written; 1 refused (STATUS_NOT_JSON, STATUS_INVALID with the fields, STATUS_NOT_ALLOWED with the
rules broken); 2 usage or I/O error.
`,
  serve: `Usage: einvoice serve

Starts the HTTP service, configured by the environment as for npm start (PORT, HOST, WORKERS, PROCESSES,
LICENSE_KEY, ...), with the same Node flags. Stops on SIGTERM / SIGINT.
`,
  help: `Usage: einvoice help [COMMAND]
`,
};
