/**
 * Advice for the ids the service reports itself (not from an official rule set): the schema layer, ingest
 * problems, report bounds, number limits, the PDF/A layer's ISO 19005 clause ids, and contract ids such as
 * BT-1-FORMAT.
 */
import type { Advice } from './types.js';

export const OWN: Record<string, Advice & { terms?: string[] }> = {
  XSD: {
    title: 'Not valid against the XML schema',
    explanation:
      'The XML breaks the schema of its syntax (the Factur-X/ZUGFeRD CII schema of the declared profile, or UBL 2.1): an element in the wrong order, an unknown or misspelt element, or a value in the wrong format (a date, an amount, an identifier). Readers that validate the schema first reject such a file before looking at any business term.',
    suggestion:
      'Go to the line the finding names and fix the element there (order, spelling, value format); a schema-aware writer, or validating with the XSD before sending, prevents these errors.',
  },
  'BT-1-FORMAT': {
    title: 'Invoice number (BT-1) is blank',
    explanation:
      'The Invoice number (BT-1) is present but holds only spaces or nothing: an invoice must be identified by a non-blank number, unique in the seller’s numbering.',
    suggestion: 'Write the invoice number from the seller’s numbering sequence into BT-1 (no leading or trailing spaces).',
    terms: ['BT-1'],
  },
  NO_INVOICE: {
    title: 'No invoice found in the upload',
    explanation: 'Nothing in the upload could be read as an EN 16931 invoice (CII or UBL), so no business rule could run.',
    suggestion:
      'Upload the invoice XML itself, or a Factur-X/ZUGFeRD PDF that embeds it (factur-x.xml, zugferd-invoice.xml or xrechnung.xml).',
  },
  NO_XML: {
    title: 'The PDF carries no invoice XML',
    explanation:
      'The PDF has no embedded invoice XML, so it is an ordinary PDF, not a Factur-X/ZUGFeRD hybrid invoice; none of the invoice’s business terms can be checked.',
    suggestion: 'Embed the CII invoice XML as factur-x.xml (e.g. with /v1/convert or /v1/merge), or upload the XML on its own.',
  },
  UNKNOWN_XML: {
    title: 'XML is not an invoice syntax we know',
    explanation:
      'The XML document is neither a UN/CEFACT CII CrossIndustryInvoice nor a UBL 2.1 Invoice/CreditNote, so the EN 16931 rules cannot be applied to it.',
    suggestion: 'Check that the root element and its namespace are those of CII or UBL; other formats have to be converted first.',
  },
  ZUGFERD_1_LEGACY: {
    title: 'ZUGFeRD 1.0 invoice (before EN 16931)',
    explanation:
      'The XML is a ZUGFeRD 1.0 CrossIndustryDocument. It predates EN 16931, so the EN 16931 rule sets do not apply; it was read best-effort only.',
    suggestion:
      'Issue the invoice as ZUGFeRD 2.x / Factur-X (CII) or XRechnung; /v1/xml and /v1/convert produce such files from invoice metadata.',
  },
  MULTIPLE_XML_ATTACHMENTS: {
    title: 'Several candidate invoice XML files in the PDF',
    explanation: 'The PDF embeds more than one XML file that could be the invoice, so it is ambiguous which one is binding.',
    suggestion: 'Keep exactly one invoice XML attachment (named factur-x.xml for Factur-X) and remove or rename the others.',
  },
  PDF_ATTACHMENT_UNREADABLE: {
    title: 'Embedded invoice XML cannot be read',
    explanation: 'The PDF names an invoice XML attachment, but its embedded file stream could not be decoded.',
    suggestion: 'Re-create the PDF and embed the invoice XML again with a current tool.',
  },
  XML_MALFORMED: {
    title: 'Invoice XML is not well-formed',
    explanation:
      'The embedded invoice XML breaks the XML syntax (unclosed element, bad character, broken entity), so no business term can be read from it.',
    suggestion: 'Fix the XML at the position the message names, or regenerate it with an XML writer.',
  },
  XML_DTD_FORBIDDEN: {
    title: 'Invoice XML contains a DTD',
    explanation: 'The invoice XML declares a document type (DTD). Invoices never need one and it is refused for safety (entity expansion).',
    suggestion: 'Remove the <!DOCTYPE …> declaration from the invoice XML.',
  },
  XML_TOO_DEEP: {
    title: 'Invoice XML is nested too deeply',
    explanation: 'The invoice XML nests elements deeper than any invoice needs, beyond the reader’s safety limit.',
    suggestion: 'Check the generator: an invoice is only a few levels deep.',
  },
  XML_TOO_LARGE: {
    title: 'Invoice XML is too large',
    explanation: 'The invoice XML is larger than the configured limit for reading it.',
    suggestion: 'Split the invoice or remove embedded attachments that are not needed; the limit is set by the operator.',
  },
  XML_ENCODING: {
    title: 'Invoice XML encoding is inconsistent',
    explanation:
      'The bytes of the invoice XML do not match its declared encoding (e.g. a byte-order mark contradicting the declaration, or invalid UTF-8).',
    suggestion: 'Save the XML as UTF-8 and declare encoding="UTF-8".',
  },
  XML_ENCODING_UNSUPPORTED: {
    title: 'Invoice XML uses an unsupported encoding',
    explanation: 'The invoice XML declares a character encoding other than UTF-8, UTF-16 or the common single-byte ones we read.',
    suggestion: 'Save the XML as UTF-8 and declare encoding="UTF-8", which every e-invoicing standard expects.',
  },
  EMPTY_FILE: {
    title: 'Empty upload',
    explanation: 'The uploaded file has no content, so there is no invoice to read.',
    suggestion: 'Upload the invoice file itself (PDF or XML) and check that the client sends its bytes.',
  },
  NOT_PDF_OR_XML: {
    title: 'Neither PDF nor XML',
    explanation: 'The upload starts neither like a PDF (%PDF-) nor like an XML document, so no invoice could be looked for.',
    suggestion: 'Upload the invoice as a Factur-X/ZUGFeRD PDF or as CII/UBL XML.',
  },
  PDF_ENCRYPTED: {
    title: 'PDF is encrypted',
    explanation: 'The PDF is encrypted, so its embedded invoice XML could not be read.',
    suggestion: 'Upload the PDF without encryption; PDF/A forbids encryption anyway.',
  },
  PDF_ENCRYPTED_READ: {
    title: 'The PDF is encrypted',
    explanation:
      'The PDF is encrypted with an empty user password (permissions only), so it opens without a password and was read; the invoice data was checked as usual. A Factur-X / ZUGFeRD PDF must be PDF/A-3, and PDF/A forbids encryption.',
    suggestion:
      'Send the invoice PDF without encryption: save it again without "document protection", or remove it (e.g. qpdf --decrypt in.pdf out.pdf).',
  },
  PDF_UNREADABLE: {
    title: 'PDF cannot be read',
    explanation: 'The file looks like a PDF but its structure could not be read.',
    suggestion: 'Re-create the PDF with a current tool.',
  },
  PDF_LIMIT: {
    title: 'PDF exceeds a reading limit',
    explanation: 'The PDF is larger or more complex than the configured reading limits.',
    suggestion: 'Reduce the PDF (fewer pages or smaller images); the limits are set by the operator.',
  },
  NUMBER_TOO_LONG: {
    title: 'Number too long to be read',
    explanation:
      'An amount, quantity or rate has more digits than any invoice value needs, so it was not read and the rules that use it could not check it.',
    suggestion: 'Write the value with a realistic number of digits (amounts with at most two decimals).',
  },
  REPORT_TRUNCATED: {
    title: 'More findings than the report lists',
    explanation:
      'The report lists at most 1,000 entries; this entry counts the findings left out (see `omitted`). They usually repeat the rules already listed.',
    suggestion: 'Fix the findings listed first and validate again.',
  },
  'INTERNAL-RULE-ERROR': {
    title: 'A rule could not be evaluated',
    explanation: 'One rule failed while checking this document, so its verdict is missing from the report; the other rules ran.',
    suggestion: 'Validate again; if it persists, report the document to the service operator.',
  },
  PDFA3_DECLARATION: {
    title: 'PDF does not declare PDF/A-3',
    explanation:
      'A Factur-X/ZUGFeRD invoice must be a PDF/A-3 file (part 3, conformance B, U or A) so that the invoice XML may be embedded; the PDF’s XMP metadata declares something else or nothing.',
    suggestion: 'Produce the PDF as PDF/A-3b (most PDF producers have a PDF/A-3 export), then embed the XML.',
  },
};

/** ISO 19005 (PDF/A-2/3) clause families, for the PDF/A layer's clause-test ids ("6.2.11.4.1-1"). */
const PDFA_CLAUSES: [prefix: string, title: string, explanation: string, suggestion: string][] = [
  [
    '6.1.2',
    'PDF/A: file header',
    'The file header must be "%PDF-1.n" followed by a comment line with four bytes above 127.',
    'Re-save the PDF with a PDF/A producer.',
  ],
  [
    '6.1.3',
    'PDF/A: file trailer',
    'The trailer must carry a file ID and no encryption, and nothing may follow the last end-of-file marker.',
    'Re-save the PDF with a PDF/A producer, without encryption.',
  ],
  [
    '6.1.4',
    'PDF/A: cross-reference table',
    'The cross-reference sections must follow the exact layout ISO 32000 gives.',
    'Re-save the PDF (a full rewrite rebuilds the cross-reference table).',
  ],
  [
    '6.1.6',
    'PDF/A: string objects',
    'Hexadecimal strings must have an even number of hex digits, and strings stay within the length limits.',
    'Re-save the PDF with a PDF/A producer.',
  ],
  [
    '6.1.7',
    'PDF/A: stream objects',
    'Streams must give their exact Length, use only allowed filters (no LZW, no external files) and keep their keyword layout.',
    'Re-save the PDF; check the tool that wrote the affected stream.',
  ],
  [
    '6.1.8',
    'PDF/A: indirect objects',
    'Object headers ("n g obj" / "endobj") must follow the exact syntax.',
    'Re-save the PDF with a PDF/A producer.',
  ],
  [
    '6.1.9',
    'PDF/A: linearization',
    'A linearized file must keep its linearization dictionary consistent.',
    'Re-save the PDF without linearization.',
  ],
  [
    '6.1.10',
    'PDF/A: inline images',
    'Inline images must not use LZW or unknown filters.',
    'Re-create the page content with allowed filters.',
  ],
  [
    '6.1.12',
    'PDF/A: implementation limits',
    'Numbers, names and nesting stay within the PDF/A implementation limits.',
    'Re-save the PDF with a PDF/A producer.',
  ],
  [
    '6.1.13',
    'PDF/A: implementation limits',
    'Integers, reals, strings, names, arrays and nesting must stay within the limits PDF/A sets.',
    'Re-save the PDF with a PDF/A producer.',
  ],
  [
    '6.2.2',
    'PDF/A: output intent',
    'The document needs one PDF/A output intent with an embedded ICC profile, so colours print the same everywhere.',
    'Add a PDF/A output intent (e.g. sRGB) with its ICC profile.',
  ],
  [
    '6.2.3',
    'PDF/A: ICC profiles',
    'Embedded ICC profiles must be valid and of a version PDF/A allows.',
    'Embed a valid ICC profile (e.g. sRGB IEC61966-2.1).',
  ],
  [
    '6.2.4',
    'PDF/A: colour spaces',
    'Device-dependent colours need a matching output intent or a default colour space; Separation/DeviceN colours need consistent alternates.',
    'Convert colours to the output intent’s colour space, or add a matching output intent.',
  ],
  [
    '6.2.5',
    'PDF/A: graphics state',
    'Transfer functions, halftones and rendering intents are restricted in PDF/A.',
    'Remove transfer functions and custom halftones; use a standard rendering intent.',
  ],
  [
    '6.2.6',
    'PDF/A: graphics state',
    'Transfer functions, halftones and rendering intents are restricted in PDF/A.',
    'Remove transfer functions and custom halftones; use a standard rendering intent.',
  ],
  [
    '6.2.8',
    'PDF/A: images',
    'Images must not use alternates, OPI or interpolation, and JPEG 2000 images must meet the PDF/A limits.',
    'Re-embed the images without alternates or interpolation.',
  ],
  [
    '6.2.9',
    'PDF/A: form XObjects',
    'Form XObjects must not use OPI or PostScript, and reference XObjects are not allowed.',
    'Flatten the affected XObjects with a PDF/A producer.',
  ],
  [
    '6.2.10',
    'PDF/A: transparency',
    'Transparency groups and blend modes need a blending colour space PDF/A can reproduce.',
    'Add an output intent or a group colour space; use the standard blend modes.',
  ],
  [
    '6.2.11',
    'PDF/A: fonts',
    'Every font used for rendering must be embedded (with the glyphs used), with consistent widths and encodings.',
    'Embed all fonts (subsets are fine) when creating the PDF.',
  ],
  [
    '6.3',
    'PDF/A: annotations',
    'Annotations must be of allowed types, printable, and have appearance streams.',
    'Flatten or remove the annotations, or give them appearance streams.',
  ],
  [
    '6.4',
    'PDF/A: interactive forms',
    'Form fields must have appearances and must not ask the viewer to generate them.',
    'Flatten the form or give every field an appearance stream.',
  ],
  [
    '6.5',
    'PDF/A: actions',
    'Launch, JavaScript and other dynamic actions are not allowed in PDF/A.',
    'Remove the actions (links to URIs are fine).',
  ],
  [
    '6.6.2.1',
    'PDF/A: XMP metadata',
    'The document must carry XMP metadata in a stream, well-formed and without forbidden headers.',
    'Write the XMP metadata packet again with a PDF/A producer.',
  ],
  [
    '6.6.2.3',
    'PDF/A: XMP extension schemas',
    'Every XMP property outside the predefined schemas (e.g. the Factur-X fx: properties) must be described by a PDF/A extension schema.',
    'Add the PDF/A extension schema description for the custom properties (for Factur-X: the fx namespace).',
  ],
  [
    '6.6.4',
    'PDF/A: identification',
    'The XMP metadata must identify the PDF/A part and conformance (pdfaid:part, pdfaid:conformance).',
    'Set pdfaid:part and pdfaid:conformance in the XMP metadata (3 and B for Factur-X).',
  ],
  [
    '6.6',
    'PDF/A: metadata',
    'The document information and the XMP metadata must agree.',
    'Write the metadata again so that Info and XMP match.',
  ],
  [
    '6.8',
    'PDF/A: embedded files',
    'Embedded files (such as the invoice XML) need a MIME type, an AFRelationship and a file specification with UF/F names; PDF/A-2 allows only PDF/A files as attachments.',
    'Embed the invoice XML with /Subtype text/xml, AFRelationship (Alternative/Data) and both F and UF names.',
  ],
  [
    '6.9',
    'PDF/A: optional content',
    'Optional content configurations must have names and list every content group.',
    'Flatten the layers or give every configuration a name.',
  ],
  [
    '6.10',
    'PDF/A: alternate presentations and transitions',
    'Alternate presentations and page transitions are not allowed.',
    'Remove the presentation steps and transitions.',
  ],
  [
    '6.11',
    'PDF/A: document requirements',
    'The document must not require features PDF/A forbids.',
    'Re-create the PDF with a PDF/A producer.',
  ],
];

/** Advice for a PDF/A clause-test id, or undefined for another id. */
export function pdfaAdvice(ruleId: string): Advice | undefined {
  if (!/^6\.\d+(\.\d+)*-\d+$/.test(ruleId)) return undefined;
  const clause = ruleId.replace(/-\d+$/, '');
  let best: (typeof PDFA_CLAUSES)[number] | undefined;
  for (const c of PDFA_CLAUSES) if ((clause === c[0] || clause.startsWith(`${c[0]}.`)) && (!best || c[0].length > best[0].length)) best = c;
  if (!best) return undefined;
  return {
    title: `${best[1]} (ISO 19005 clause ${clause})`,
    explanation: `${best[2]} A Factur-X/ZUGFeRD invoice must be a valid PDF/A-3 file; this clause of ISO 19005 is not met.`,
    suggestion: `${best[3]} Producing the PDF with a PDF/A-3b export and then embedding the XML avoids most of these findings.`,
  };
}
