#!/usr/bin/env bash
# Makes the real-world PDF corpus (test/fixtures/real-world-pdf/) with the producers themselves, from our own
# fictitious invoice (data/invoice.json) and images (producers/assets.py), then writes its manifest.json.
#
#   bash scripts/pdf-corpus/install-producers.sh   # once: Debian packages + npm producers (root or sudo)
#   bash scripts/pdf-corpus/make-corpus.sh [OUTDIR]
#
# Not part of `npm test`. Each file is made by a real producer the way its users make invoices; what no producer
# here writes (Microsoft Word's non-embedded fonts, Acrobat's incremental comments, ...) is hand-built by
# producers/handmade.py the way those producers write it, and says so in the manifest. Producers write dates and ids
# of their own, so a rerun makes equivalent, not byte-identical, files.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="$(realpath -m "${1:-$ROOT/test/fixtures/real-world-pdf}")"
export WORK="${WORK:-/tmp/pdf-corpus-work}"
export ASSETS="$WORK/assets"
PY=/usr/bin/python3 # Debian's python3: the python3-* producer packages live there
P="$HERE/producers"
mkdir -p "$OUT" "$OUT/hostile" "$WORK"
rm -f "$OUT"/*.pdf "$OUT"/hostile/*.pdf
MADE="$WORK/made.jsonl"
: >"$MADE"
cd "$P"

dv() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo unknown; }
nv() { node -p "require('$WORK/npm/node_modules/$1/package.json').version"; }
# rec FILE PRODUCER VERSION HOW FEATURES — one manifest line per file (FEATURES: comma-separated tags, see README.md)
rec() {
  [ -s "$OUT/$1" ] || { echo "MISSING: $1" >&2; exit 1; }
  "$PY" -c 'import json,sys; print(json.dumps({"file":sys.argv[1],"producer":sys.argv[2],"producer_version":sys.argv[3],"how":sys.argv[4],"features":[f for f in sys.argv[5].split(",") if f]}, ensure_ascii=False))' "$@" >>"$MADE"
  echo "made $1"
}

# ---- inputs the producers read: images, a test signing certificate, markup --------------------------------
"$PY" assets.py >/dev/null
[ -f "$WORK/test-signer.key" ] || openssl req -x509 -newkey rsa:2048 -nodes -keyout "$WORK/test-signer.key" -out "$WORK/test-signer.crt" -days 3650 \
  -subj "/CN=Test Signer (pdf corpus, not trusted)/O=einvoice-service tests" 2>/dev/null
[ -f "$WORK/test-signer.p12" ] || openssl pkcs12 -export -in "$WORK/test-signer.crt" -inkey "$WORK/test-signer.key" -out "$WORK/test-signer.p12" -passout pass:test -name signer
mkdir -p "$WORK/markup" "$WORK/lo" "$WORK/tex" "$WORK/ps" "$WORK/text" "$WORK/svg" "$WORK/java"
for v in default times cmyk long dejavu pdfa; do "$PY" markup.py fo "$v" >"$WORK/markup/$v.fo"; done
for v in default times long transparency svg jpeg; do "$PY" markup.py html "$v" >"$WORK/markup/$v.html"; done

# ---- ReportLab ----------------------------------------------------------------------------------------------
V="ReportLab $(dv python3-reportlab)"
rl() { "$PY" reportlab_invoices.py "$1" "$OUT/reportlab-$1.pdf"; rec "reportlab-$1.pdf" ReportLab "$V" "reportlab_invoices.py $1: $2" "$3"; }
rl helvetica "canvas API, 2 pages, PNG logo, URL link" "fonts-not-embedded:std14,annot:link,image:png,multi-page"
rl base14 "every standard-14 family incl. Symbol and ZapfDingbats" "fonts-not-embedded:std14,font:symbol,font:zapfdingbats"
rl cmyk "CMYKColor fills and text, CMYK JPEG logo, no output intent" "fonts-not-embedded:std14,colour:devicecmyk,image:jpeg-cmyk"
rl spot "CMYKColorSep spot colour" "fonts-not-embedded:std14,colour:separation"
rl acroform "acroForm text field, check box, choice field" "fonts-not-embedded:std14,acroform"
rl encrypted "StandardEncryption, empty user password, 128-bit" "fonts-not-embedded:std14,encrypted:empty-user-password"
rl ttf "registered TTFont DejaVu Sans (embedded subset), PNG with alpha" "fonts-embedded:truetype-subset,image:png-alpha"
rl platypus "SimpleDocTemplate + Table flowable, 3 pages, indexed PNG" "fonts-not-embedded:std14,image:png-indexed,multi-page"
rl comments "textAnnotation comments, outline" "fonts-not-embedded:std14,annot:text-no-appearance,outline"
rl transparency "setFillAlpha watermark" "fonts-not-embedded:std14,transparency:constant-alpha"
rl many-pages "6 pages" "fonts-not-embedded:std14,multi-page"

# ---- FPDF ---------------------------------------------------------------------------------------------------
V="FPDF $(dv php-fpdf)"
fp() { php fpdf_invoices.php "$1" "$OUT/fpdf-$1.pdf"; rec "fpdf-$1.pdf" FPDF "$V" "fpdf_invoices.php $1: $2" "$3"; }
fp invoice "core font Helvetica, JPEG logo, 3 pages, link, PDF 1.3" "fonts-not-embedded:std14,annot:link,image:jpeg,multi-page,header:1.3"
fp times-alpha-png "Times, PNG with alpha (SMask)" "fonts-not-embedded:std14,image:png-alpha"
fp courier-indexed "Courier, palette PNG" "fonts-not-embedded:std14,image:png-indexed"
fp symbol-dingbats "Symbol and ZapfDingbats" "fonts-not-embedded:std14,font:symbol,font:zapfdingbats"
fp landscape "landscape pages, grey PNG" "fonts-not-embedded:std14,image:png-gray"
fp ttf-embedded "makefont DejaVu Sans cp1252, embedded" "fonts-embedded:truetype"
fp ttf-not-embedded "makefont Liberation Sans with embed=false: simple TrueType referenced by name" "fonts-not-embedded:truetype"

# ---- TCPDF --------------------------------------------------------------------------------------------------
V="TCPDF $(dv php-tcpdf)"
tc() { php tcpdf_invoices.php "$1" "$OUT/tcpdf-$1.pdf"; rec "tcpdf-$1.pdf" TCPDF "$V" "tcpdf_invoices.php $1: $2" "$3"; }
tc core-helvetica "core font helvetica, writeHTML table, 2 pages" "fonts-not-embedded:std14,multi-page"
tc dejavu "default Unicode font DejaVu Sans (Type0, CIDToGIDMap stream), PNG with alpha" "fonts-embedded:type0,image:png-alpha"
tc pdfa1b "TCPDF PDF/A-1b mode" "pdfa:1b,fonts-embedded:type1"
tc times-core-cmyk "Times core font, CMYK fills and text, CMYK JPEG, spot colour" "fonts-not-embedded:std14,colour:devicecmyk,colour:separation,image:jpeg-cmyk"
tc forms-js "text, combo, check box, buttons with JavaScript actions" "fonts-not-embedded:std14,acroform,javascript:field-actions"
tc javascript "IncludeJS document JavaScript" "fonts-not-embedded:std14,javascript:document"
tc annotations "comment, hidden FreeText, FileAttachment annotation, link" "fonts-not-embedded:std14,annot:text-no-appearance,annot:hidden,annot:file-attachment,embedded-files"
tc layers "optional content: a non-printing layer" "fonts-not-embedded:std14,optional-content"
tc transparency "SetAlpha, soft-masked PNG" "fonts-not-embedded:std14,transparency:constant-alpha,image:png-alpha"
tc signed "setSignature: detached PKCS#7 with a self-signed test certificate, invisible" "fonts-not-embedded:std14,signed"
tc signed-visible "the same with a visible signature appearance" "fonts-not-embedded:std14,signed"
tc encrypted-aes "SetProtection AES-128, empty user password" "fonts-not-embedded:std14,encrypted:empty-user-password"
tc encrypted-rc4 "SetProtection RC4-128, empty user password, Courier" "fonts-not-embedded:std14,encrypted:empty-user-password"

# ---- Prawn --------------------------------------------------------------------------------------------------
V="Prawn $(dv ruby-prawn)"
pr() { ruby prawn_invoices.rb "$1" "$OUT/prawn-$1.pdf"; rec "prawn-$1.pdf" Prawn "$V" "prawn_invoices.rb $1: $2" "$3"; }
pr helvetica "AFM Helvetica, 3 pages, page numbers" "fonts-not-embedded:std14,multi-page"
pr times-jpeg "Times-Roman, JPEG logo, link" "fonts-not-embedded:std14,image:jpeg,annot:link"
pr ttf "DejaVu Sans TrueType subsets" "fonts-embedded:truetype-subset,image:png-alpha"
pr cmyk "CMYK colours, CMYK JPEG" "fonts-not-embedded:std14,colour:devicecmyk,image:jpeg-cmyk"
pr encrypted "encrypt_document, empty user password" "fonts-not-embedded:std14,encrypted:empty-user-password"
pr transparency "transparent stamp" "fonts-not-embedded:std14,transparency:constant-alpha"
pr annotations "text annotation, link annotation" "fonts-not-embedded:std14,annot:text-no-appearance,annot:link"

# ---- pdfmake, jsPDF, PDFKit (npm) ---------------------------------------------------------------------------
V="pdfmake $(nv pdfmake)"
pm() { node node_invoices.mjs pdfmake "$1" "$OUT/pdfmake-$1.pdf"; rec "pdfmake-$1.pdf" pdfmake "$V" "node_invoices.mjs pdfmake $1: $2" "$3"; }
pm dejavu "DejaVu Sans TTF (Type0 subsets), table layout" "fonts-embedded:type0,image:png"
pm helvetica "standard fonts Helvetica" "fonts-not-embedded:std14"
pm times "standard fonts Times" "fonts-not-embedded:std14"
pm images "indexed PNG, grey JPEG, PNG with alpha" "fonts-embedded:type0,image:png-indexed,image:jpeg-gray,image:png-alpha"
pm watermark "watermark with opacity" "fonts-embedded:type0,transparency:constant-alpha"
pm long "12 x 8 lines, page footer" "fonts-embedded:type0,multi-page"
V="jsPDF $(nv jspdf)"
js() { node node_invoices.mjs jspdf "$1" "$OUT/jspdf-$1.pdf"; rec "jspdf-$1.pdf" jsPDF "$V" "node_invoices.mjs jspdf $1: $2" "$3"; }
js default "helvetica, JPEG logo, link" "fonts-not-embedded:std14,image:jpeg,annot:link"
js times "times" "fonts-not-embedded:std14"
js courier "courier" "fonts-not-embedded:std14"
js ttf "addFont DejaVu Sans (Identity-H)" "fonts-embedded:type0"
js png "PNG with alpha" "fonts-not-embedded:std14,image:png-alpha"
js encrypted "encryption, empty user password" "fonts-not-embedded:std14,encrypted:empty-user-password"
js autoprint "autoPrint(): JavaScript print on open" "fonts-not-embedded:std14,javascript:open-action"
js gstate "GState opacity" "fonts-not-embedded:std14,transparency:constant-alpha"
js long "5 x 8 lines, 2 pages" "fonts-not-embedded:std14,multi-page"
js compressed "compress: true" "fonts-not-embedded:std14"
V="PDFKit $(nv pdfkit)"
pk() { node node_invoices.mjs pdfkit "$1" "$OUT/pdfkit-$1.pdf"; rec "pdfkit-$1.pdf" PDFKit "$V" "node_invoices.mjs pdfkit $1: $2" "$3"; }
pk default "Helvetica, PNG with alpha" "fonts-not-embedded:std14,image:png-alpha"
pk pdf13 "pdfVersion 1.3" "fonts-not-embedded:std14,header:1.3"
pk times "Times, note and link annotations, highlight" "fonts-not-embedded:std14,annot:text-no-appearance,annot:link,annot:highlight"
pk ttf "registerFont DejaVu Sans (Type0 subsets)" "fonts-embedded:type0"
pk cmyk "CMYK fills, CMYK JPEG" "fonts-not-embedded:std14,colour:devicecmyk,image:jpeg-cmyk"
pk annotations "note, link, highlight" "fonts-not-embedded:std14,annot:text-no-appearance,annot:link,annot:highlight"
pk forms "initForm: text, check box, combo, push button with JavaScript (NeedAppearances)" "fonts-not-embedded:std14,acroform,need-appearances,javascript:field-actions"
pk transparency "fillOpacity text, gradient with alpha" "fonts-not-embedded:std14,transparency:soft-mask,shading"
pk attachment "doc.file(): embedded file" "fonts-not-embedded:std14,embedded-files"
pk encrypted "owner password only, permissions" "fonts-not-embedded:std14,encrypted:empty-user-password"
pk pdfa3 "subset PDF/A-3b, tagged, DejaVu Sans" "pdfa:3b,fonts-embedded:type0"
pk outline "outline, 2 pages" "fonts-not-embedded:std14,outline,multi-page"
pk long "9 x 8 lines, 2 pages" "fonts-not-embedded:std14,multi-page"

# ---- iText 5, iText 2 ---------------------------------------------------------------------------------------
CP5=/usr/share/java/itext5.jar:/usr/share/java/itext5-pdfa.jar:/usr/share/java/bcprov.jar:/usr/share/java/bcpkix.jar:/usr/share/java/bcutil.jar
javac -nowarn -d "$WORK/java" -cp "$CP5" Itext5Invoices.java 2>&1 | grep -v '^Note:' || true
javac -nowarn -d "$WORK/java" -cp /usr/share/java/itext.jar Itext2Invoices.java 2>&1 | grep -v '^Note:' || true
V="iText $(dv libitext5-java)"
i5() { java -cp "$WORK/java:$CP5" Itext5Invoices "$1" "$OUT/itext5-$1.pdf"; rec "itext5-$1.pdf" "iText 5" "$V" "Itext5Invoices.java $1: $2" "$3"; }
i5 helvetica "PdfPTable, Helvetica, JPEG logo, 7 x 8 lines" "fonts-not-embedded:std14,image:jpeg,multi-page"
i5 full-compression "setFullCompression: object streams, xref stream (PDF 1.5)" "fonts-not-embedded:std14,object-streams,xref-stream"
i5 times-interpolate "Times, an image with /Interpolate true" "fonts-not-embedded:std14,image:interpolate"
i5 liberation-not-embedded "Liberation Sans TTF, WINANSI, NOT_EMBEDDED" "fonts-not-embedded:truetype"
i5 identity-h "Carlito TTF, IDENTITY_H, embedded subset" "fonts-embedded:type0,image:png-alpha"
i5 cmyk-spot "CMYKColor fonts, CMYK JPEG, PdfSpotColor" "fonts-not-embedded:std14,colour:devicecmyk,colour:separation,image:jpeg-cmyk"
i5 layers "PdfLayer: non-printing and hidden layers" "fonts-not-embedded:std14,optional-content"
i5 forms-js "TextField with format/keystroke JavaScript, push button, document JavaScript, OpenAction" "fonts-not-embedded:std14,acroform,javascript:field-actions,javascript:open-action"
i5 empty-signature "an empty (unsigned) signature field, AcroForm /SigFlags 1 (SignaturesExist)" "fonts-not-embedded:std14,acroform,signature:empty"
i5 annotations "comments without appearance, hidden, NoView, link" "fonts-not-embedded:std14,annot:text-no-appearance,annot:hidden,annot:link"
i5 encrypted "AES-128, empty user password" "fonts-not-embedded:std14,encrypted:empty-user-password"
i5 pdfa3b "PdfAWriter PDF/A-3B, Liberation Sans embedded, sRGB intent, attachment with AFRelationship" "pdfa:3b,fonts-embedded:truetype-subset,embedded-files"
i5 xfa "PdfStamper: XFA packet in the AcroForm, NeedAppearances" "fonts-not-embedded:std14,acroform,xfa,need-appearances"
i5 signed-incremental "MakeSignature.signDetached (CMS, self-signed test certificate), appended as an incremental update" "fonts-not-embedded:std14,signed,incremental-update"
V="iText $(dv libitext-java)"
i2() { java -cp "$WORK/java:/usr/share/java/itext.jar" Itext2Invoices "$1" "$OUT/itext2-$1.pdf"; rec "itext2-$1.pdf" "iText 2" "$V" "Itext2Invoices.java $1: $2" "$3"; }
i2 helvetica "PdfPTable, Helvetica, PNG, link" "fonts-not-embedded:std14,annot:link"
i2 courier "Courier" "fonts-not-embedded:std14,annot:link"
i2 long "8 x 8 lines" "fonts-not-embedded:std14,multi-page,annot:link"
i2 pdf13 "PDF 1.3, grey JPEG" "fonts-not-embedded:std14,header:1.3,image:jpeg-gray"
i2 annotations "text annotation, text field" "fonts-not-embedded:std14,annot:text-no-appearance,acroform"
i2 encrypted-rc4-40 "STANDARD_ENCRYPTION_40 (RC4-40), empty user password" "fonts-not-embedded:std14,encrypted:empty-user-password"

# ---- Apache FOP ---------------------------------------------------------------------------------------------
V="Apache FOP $(dv fop)"
cat >"$WORK/fop.xconf" <<'XCONF'
<fop version="1.0"><renderers><renderer mime="application/pdf"><fonts><directory>/usr/share/fonts/truetype/dejavu</directory></fonts></renderer></renderers></fop>
XCONF
fo() { fop -q -c "$WORK/fop.xconf" $3 -fo "$WORK/markup/$1.fo" -pdf "$OUT/fop-$2.pdf" >/dev/null 2>&1; rec "fop-$2.pdf" "Apache FOP" "$V" "markup.py fo $1 | fop $3: $4" "$5"; }
fo default default "" "XSL-FO, Helvetica (base-14), table, link" "fonts-not-embedded:std14,annot:link"
fo times times "" "Times (base-14)" "fonts-not-embedded:std14,annot:link"
fo cmyk cmyk "" "cmyk() colours, CMYK JPEG" "fonts-not-embedded:std14,colour:devicecmyk,image:jpeg-cmyk"
fo long long "" "6 x 8 lines, page numbers" "fonts-not-embedded:std14,multi-page"
fo dejavu dejavu "" "DejaVu Sans from a font directory (embedded)" "fonts-embedded:type0"
fo pdfa pdfa3b "-pdfprofile PDF/A-3b" "PDF/A-3b profile, DejaVu Sans" "pdfa:3b,fonts-embedded:type0"

# ---- wkhtmltopdf, Chromium, Qt ------------------------------------------------------------------------------
V="wkhtmltopdf $(dv wkhtmltopdf)"
wk() { QT_QPA_PLATFORM=offscreen timeout 120 wkhtmltopdf -q --title "Rechnung" "$WORK/markup/$1.html" "$OUT/wkhtmltopdf-$1.pdf" >/dev/null 2>&1 || true; rec "wkhtmltopdf-$1.pdf" wkhtmltopdf "$V" "markup.py html $1 | wkhtmltopdf: $2" "$3"; }
wk default "HTML invoice, PNG with alpha, links" "fonts-embedded:truetype-subset,annot:link,image:png-alpha"
wk long "5 x 8 lines" "fonts-embedded:truetype-subset,annot:link,multi-page"
wk svg "inline SVG logo" "fonts-embedded:truetype-subset,annot:link,vector-svg"
V="Chromium $(dv chromium)"
CH=(chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$WORK/chrome-profile" --no-pdf-header-footer)
ch() { timeout 120 "${CH[@]}" --print-to-pdf="$OUT/chromium-$1.pdf" "file://$WORK/markup/$1.html" >/dev/null 2>&1; rec "chromium-$1.pdf" Chromium "$V" "markup.py html $1 | chromium --headless --print-to-pdf: $2" "$3"; }
ch default "HTML invoice" "fonts-embedded:type0,annot:link,image:png-alpha,tagged"
ch times "Times New Roman requested (fontconfig substitute embedded)" "fonts-embedded:type0,annot:link,tagged"
ch transparency "rgba() text, gradient to transparent" "fonts-embedded:type0,transparency:soft-mask,tagged"
ch svg "inline SVG with opacity" "fonts-embedded:type0,transparency:constant-alpha,tagged"
ch long "5 x 8 lines, 2 pages" "fonts-embedded:type0,multi-page,tagged"
V="Qt $(dv python3-pyqt5)"
qt() { "$PY" qt_invoice.py "$1" "$WORK/markup/default.html" "$OUT/qt-$1.pdf" >/dev/null 2>&1; rec "qt-$1.pdf" "Qt 5" "$V" "qt_invoice.py $1: $2" "$3"; }
qt printer "QPrinter PdfFormat, QTextDocument::print" "fonts-embedded:type0"
qt writer "QPdfWriter + QPainter" "fonts-embedded:type0"
qt pdfa "QPdfWriter PdfVersion_A1b" "pdfa:1b,fonts-embedded:type0"
qt painter "QPainter text with a translucent pen" "fonts-embedded:type0,transparency:constant-alpha"

# ---- LibreOffice --------------------------------------------------------------------------------------------
V="LibreOffice $(dv libreoffice-writer-nogui)"
for v in default helvetica arial times carlito comments form cmyk long; do "$PY" odf_invoice.py "$v" >"$WORK/lo/$v.fodt"; done
"$PY" odf_invoice.py calc >"$WORK/lo/calc.fods"
lo() {
  rm -rf "$WORK/lo/out"
  timeout 180 libreoffice -env:UserInstallation="file://$WORK/lo-profile" --headless --convert-to "pdf:${4:-writer_pdf_Export}:$3" --outdir "$WORK/lo/out" "$WORK/lo/$2" >/dev/null 2>&1
  mv "$WORK/lo/out/"*.pdf "$OUT/libreoffice-$1.pdf"
  rec "libreoffice-$1.pdf" LibreOffice "$V" "odf_invoice.py | soffice --convert-to pdf $3: $5" "$6"
}
lo writer default.fodt '{}' "" "Writer document in Liberation Sans (embedded subsets), PNG logo, link" "fonts-embedded:truetype-subset,annot:link"
lo writer-helvetica helvetica.fodt '{}' "" "document in Helvetica (fontconfig: Nimbus Sans, embedded Type 1)" "fonts-embedded:type1-subset,annot:link"
lo writer-times times.fodt '{"SelectPdfVersion":{"type":"long","value":"15"}}' "" "document in Times New Roman (Liberation Serif), PDF 1.5" "fonts-embedded:truetype-subset,annot:link,header:1.5"
lo writer-carlito carlito.fodt '{}' "" "document in Carlito (Calibri metrics)" "fonts-embedded:truetype-subset,annot:link"
lo pdfa1b default.fodt '{"SelectPdfVersion":{"type":"long","value":"1"}}' "" "PDF/A-1b export" "pdfa:1b,fonts-embedded:truetype-subset"
lo pdfa2b times.fodt '{"SelectPdfVersion":{"type":"long","value":"2"}}' "" "PDF/A-2b export" "pdfa:2b,fonts-embedded:truetype-subset"
lo pdfa3b carlito.fodt '{"SelectPdfVersion":{"type":"long","value":"3"}}' "" "PDF/A-3b export" "pdfa:3b,fonts-embedded:truetype-subset"
lo comments comments.fodt '{"ExportNotes":{"type":"boolean","value":"true"}}' "" "ExportNotes: comments as text annotations" "fonts-embedded:truetype-subset,annot:text"
lo form form.fodt '{"ExportFormFields":{"type":"boolean","value":"true"}}' "" "form controls exported as AcroForm fields" "fonts-embedded:truetype-subset,acroform"
lo cmyk cmyk.fodt '{}' "" "CMYK JPEG logo" "fonts-embedded:truetype-subset,image:jpeg-cmyk"
lo tagged-long long.fodt '{"UseTaggedPDF":{"type":"boolean","value":"true"}}' "" "tagged PDF, 5 x 8 lines" "fonts-embedded:truetype-subset,tagged,multi-page"
lo encrypted arial.fodt '{"RestrictPermissions":{"type":"boolean","value":"true"},"PermissionPassword":{"type":"string","value":"owner-0417"},"Changes":{"type":"long","value":"0"},"EnableCopyingOfContent":{"type":"boolean","value":"false"}}' "" "permission password only (empty open password), Arial document" "fonts-embedded:truetype-subset,encrypted:empty-user-password"
lo watermark default.fodt '{"Watermark":{"type":"string","value":"ENTWURF"}}' "" "Watermark option" "fonts-embedded:truetype-subset"
lo calc calc.fods '{}' calc_pdf_Export "Calc spreadsheet invoice" "fonts-embedded:truetype-subset"

# ---- cairo, Inkscape, Scribus -------------------------------------------------------------------------------
V="cairo $(dv libcairo2), pycairo $(dv python3-cairo)"
ca() { "$PY" cairo_invoice.py "$1" "$OUT/cairo-$1.pdf"; rec "cairo-$1.pdf" cairo "$V" "cairo_invoice.py $1: $2" "$3"; }
ca default "PDFSurface, Liberation Sans, RGBA PNG (/Interpolate from the default filter), link tag (cairo 1.16 writes an xref entry for an object it never writes)" "fonts-embedded:truetype-subset,image:interpolate,image:png-alpha,annot:link,transparency:constant-alpha,broken-xref"
ca v14 "restrict_to_version 1.4" "fonts-embedded:truetype-subset,image:interpolate,header:1.4"
ca serif "DejaVu Serif" "fonts-embedded:truetype-subset,image:interpolate"
ca long "3 pages, link tag (xref entry of a missing object)" "fonts-embedded:truetype-subset,image:interpolate,multi-page,annot:link,broken-xref"
ca nearest "image drawn with FILTER_NEAREST (no /Interpolate)" "fonts-embedded:truetype-subset,image:png-alpha"
V="Inkscape $(dv inkscape)"
"$PY" svg_invoice.py >"$WORK/svg/invoice.svg"
ik() { timeout 180 inkscape "$WORK/svg/invoice.svg" --export-type=pdf $2 --export-filename="$OUT/inkscape-$1.pdf" >/dev/null 2>&1; rec "inkscape-$1.pdf" Inkscape "$V" "svg_invoice.py | inkscape --export-type=pdf $2: $3" "$4"; }
ik text "" "SVG with text, PNG with alpha, translucent band" "fonts-embedded:truetype-subset,image:png-alpha,transparency:constant-alpha"
ik paths-pdf14 "--export-text-to-path --export-pdf-version=1.4" "text as paths, PDF 1.4" "no-fonts,image:png-alpha,transparency:constant-alpha"
V="Scribus $(dv scribus)"
sc() { QT_QPA_PLATFORM=offscreen timeout 180 scribus -g -ns -py scribus_invoice.py "$1" "$OUT/scribus-$1.pdf" >/dev/null 2>&1; rec "scribus-$1.pdf" Scribus "$V" "scribus -g -ns -py scribus_invoice.py $1: $2" "$3"; }
sc default "PDF 1.4 export, subset fonts" "fonts-embedded:truetype-subset,image:png"
sc cmyk "CMYK output (printer), PDF 1.5 with layers, CMYK JPEG" "fonts-embedded:truetype-subset,colour:devicecmyk,image:jpeg-cmyk,optional-content"

# ---- Ghostscript, groff, enscript, pdfTeX, pandoc -----------------------------------------------------------
V="Ghostscript $(dv ghostscript)"
for v in plain cmyk separation devicen transfer interpolate symbol courier; do "$PY" postscript_invoice.py "$v" >"$WORK/ps/$v.ps"; done
gs_() { ps2pdf $3 "$WORK/ps/$2.ps" "$OUT/ghostscript-$1.pdf"; rec "ghostscript-$1.pdf" Ghostscript "$V" "postscript_invoice.py $2 | ps2pdf $3: $4" "$5"; }
gs_ default plain "" "PostScript with standard fonts by name, default settings (substitutes embedded)" "fonts-embedded:type1c-subset"
gs_ noembed plain "-dEmbedAllFonts=false" "fonts left unembedded, as print-to-PDF drivers configure it" "fonts-not-embedded:std14"
gs_ cmyk cmyk "-dEmbedAllFonts=false" "setcmykcolor" "fonts-not-embedded:std14,colour:devicecmyk"
gs_ separation separation "" "a Separation colour space" "fonts-embedded:type1c-subset,colour:separation"
gs_ devicen devicen "" "a DeviceN colour space (black + a spot colour), written without /Colorants" "fonts-embedded:type1c-subset,colour:devicen"
gs_ transfer transfer "" "settransfer (kept as /TR)" "fonts-embedded:type1c-subset,transfer-function"
gs_ interpolate interpolate "" "an image with /Interpolate true" "fonts-embedded:type1c-subset,image:interpolate"
gs_ symbol-pdf13 symbol "-dCompatibilityLevel=1.3 -dEmbedAllFonts=false" "Symbol and ZapfDingbats, PDF 1.3" "fonts-not-embedded:std14,font:symbol,font:zapfdingbats,header:1.3"
gs_ pdfa2b plain "-dPDFA=2 -dPDFACompatibilityPolicy=1 -sColorConversionStrategy=RGB" "ps2pdf -dPDFA=2 (no output intent file given)" "pdfa:2b,fonts-embedded:type1c-subset"
V="groff $(dv groff)"
"$PY" text_invoice.py ms default >"$WORK/text/invoice.ms"
groff -k -ms -t -Tpdf "$WORK/text/invoice.ms" >"$OUT/groff-gropdf.pdf" 2>/dev/null
rec groff-gropdf.pdf groff "$V" "text_invoice.py ms | groff -ms -t -Tpdf (gropdf)" "fonts-not-embedded:std14,font:symbol"
groff -k -ms -t -Tps "$WORK/text/invoice.ms" 2>/dev/null >"$WORK/text/invoice.ps"
ps2pdf "$WORK/text/invoice.ps" "$OUT/groff-ps2pdf.pdf"
rec groff-ps2pdf.pdf "groff + Ghostscript" "$V, Ghostscript $(dv ghostscript)" "groff -ms -t -Tps | ps2pdf" "fonts-embedded:type1c-subset"
V="enscript $(dv enscript), Ghostscript $(dv ghostscript)"
"$PY" text_invoice.py txt default >"$WORK/text/invoice.txt"
enscript -q -X 88591 -B -f Courier9 -o "$WORK/text/enscript.ps" "$WORK/text/invoice.txt"
ps2pdf "$WORK/text/enscript.ps" "$OUT/enscript-ps2pdf.pdf"
rec enscript-ps2pdf.pdf "enscript + Ghostscript" "$V" "text_invoice.py txt | enscript -f Courier9 | ps2pdf" "fonts-embedded:type1c-subset"
ps2pdf -dEmbedAllFonts=false "$WORK/text/enscript.ps" "$OUT/enscript-ps2pdf-noembed.pdf"
rec enscript-ps2pdf-noembed.pdf "enscript + Ghostscript" "$V" "text_invoice.py txt | enscript | ps2pdf -dEmbedAllFonts=false" "fonts-not-embedded:std14"
V="pdfTeX (TeX Live $(dv texlive-binaries))"
cp "$ASSETS/logo-rgb.jpg" "$ASSETS/logo-rgba.png" "$WORK/tex/"
tx() {
  "$PY" text_invoice.py tex "$1" >"$WORK/tex/$1.tex"
  (cd "$WORK/tex" && rm -f "$1.pdf" && timeout 180 pdflatex -interaction=nonstopmode "$1.tex" >/dev/null 2>&1 || true)
  cp "$WORK/tex/$1.pdf" "$OUT/pdflatex-$1.pdf"
  rec "pdflatex-$1.pdf" pdfTeX "$V" "text_invoice.py tex $1 | pdflatex: $2" "$3"
}
tx ot1 "article, OT1 Computer Modern (Type 1), textcomp euro (bitmap Type 3), hyperref colour links, JPEG" "fonts-embedded:type1-subset,fonts-embedded:type3,annot:link,image:jpeg"
tx t1 "T1 encoding without cm-super: bitmap Type 3 fonts" "fonts-embedded:type3,annot:link"
tx helvet "helvet package (Nimbus Sans L, embedded)" "fonts-embedded:type1-subset,annot:link"
tx times "mathptmx (Nimbus Roman)" "fonts-embedded:type1-subset,annot:link"
tx hyperref-boxes "hyperref with link borders, PNG with alpha" "fonts-embedded:type1-subset,annot:link"
tx ocg "ocgx2: a never-printed optional-content layer" "fonts-embedded:type1-subset,optional-content,annot:link"
tx pdfa "pdfx package, PDF/A-2b" "pdfa:2b,fonts-embedded:type1-subset"
V="pandoc $(dv pandoc)"
"$PY" text_invoice.py md default >"$WORK/text/invoice.md"
(cd "$WORK/text" && timeout 180 pandoc invoice.md -o "$OUT/pandoc-pdflatex.pdf")
rec pandoc-pdflatex.pdf pandoc "$V, pdfTeX" "text_invoice.py md | pandoc (LaTeX engine, Latin Modern)" "fonts-embedded:type1-subset,annot:link"
(cd "$WORK/text" && QT_QPA_PLATFORM=offscreen timeout 180 pandoc invoice.md --pdf-engine=wkhtmltopdf -o "$OUT/pandoc-wkhtmltopdf.pdf" >/dev/null 2>&1)
rec pandoc-wkhtmltopdf.pdf pandoc "$V, wkhtmltopdf" "text_invoice.py md | pandoc --pdf-engine=wkhtmltopdf" "fonts-embedded:truetype-subset,annot:link"

# ---- scanners: ImageMagick, img2pdf -------------------------------------------------------------------------
V="ImageMagick $(dv imagemagick-6.q16)"
im() { (cd "$ASSETS" && /usr/bin/convert $2 "$OUT/imagemagick-$1.pdf"); rec "imagemagick-$1.pdf" ImageMagick "$V" "convert $2: $3" "$4"; }
im scan-jpeg "scan-page.jpg -compress JPEG -quality 45" "a scanned page as JPEG (Info /Title as UTF-16 with a trailing U+0000)" "scan,image:jpeg,info-title-nul"
im scan-gray-lzw "scan-page-gray.jpg -compress LZW" "grey scan, LZW" "scan,image:lzw,info-title-nul"
im scan-bw-group4 "scan-page-bw.png -compress Group4" "bilevel scan, CCITT G4" "scan,image:ccitt,info-title-nul"
im multipage-zip "scan-page.jpg scan-page-gray.jpg -compress Zip -resize 60%" "two pages, Flate" "scan,multi-page,info-title-nul"
im cmyk-jpeg "scan-page-cmyk.jpg -compress JPEG" "CMYK JPEG, no output intent" "scan,image:jpeg-cmyk,info-title-nul"
im logo-alpha "logo-rgba.png -compress Zip" "RGBA image (SMask)" "image:png-alpha,info-title-nul"
im logo-lzw "logo-rgb.png -compress LZW" "RGB image, LZW" "image:lzw,info-title-nul"
V="img2pdf $(dv img2pdf)"
i2p() { (cd "$ASSETS" && img2pdf $2 -o "$OUT/img2pdf-$1.pdf"); rec "img2pdf-$1.pdf" img2pdf "$V" "img2pdf $2: $3" "$4"; }
i2p scan-jpeg "--pagesize A4 scan-page.jpg" "JPEG passed through" "scan,image:jpeg"
i2p cmyk-jpeg "--pagesize A4 scan-page-cmyk.jpg" "CMYK JPEG passed through (Adobe inverted)" "scan,image:jpeg-cmyk"
i2p gray16 "logo-gray16.png" "16-bit grey PNG (BitsPerComponent 16)" "image:16bit"
i2p indexed "logo-indexed.png" "palette PNG (Indexed)" "image:png-indexed"
i2p bw-ccitt "--pagesize A4 scan-page-bw.tif" "G4 TIFF passed through" "scan,image:ccitt"
i2p pdfa-multipage "--pagesize A4 --pdfa=/usr/share/color/icc/sRGB.icc scan-page.jpg scan-page-gray.jpg" "--pdfa (PDF/A-1b), two pages" "scan,pdfa:1b,multi-page"

# ---- PDF tools on producers' files: qpdf, MuPDF, pdftk, poppler ---------------------------------------------
V="qpdf $(dv qpdf)"
qp() { # qp NAME INPUT HOW FEATURES QPDF-ARGS...
  local name=$1 input=$2 how=$3 features=$4
  shift 4
  qpdf "$@" "$OUT/$input" "$OUT/qpdf-$name.pdf" || [ $? -eq 3 ]
  rec "qpdf-$name.pdf" qpdf "$V" "qpdf $* $input: $how" "$features"
}
qp object-streams tcpdf-core-helvetica.pdf "object streams and an xref stream" "fonts-not-embedded:std14,object-streams,xref-stream" --object-streams=generate
qp linearized prawn-helvetica.pdf "linearized (web optimised)" "fonts-not-embedded:std14,linearized,multi-page" --linearize
qp aes256 fpdf-invoice.pdf "AES-256 (R6), empty user password" "fonts-not-embedded:std14,encrypted:empty-user-password,multi-page" --encrypt "" owner-0417 256 --
qp rc4-40 jspdf-default.pdf "RC4-40 (R2), empty user password" "fonts-not-embedded:std14,encrypted:empty-user-password" --allow-weak-crypto --encrypt "" owner-0417 40 --
qp attachment cairo-default.pdf "--add-attachment" "fonts-embedded:truetype-subset,embedded-files,image:interpolate" --add-attachment "$ASSETS/logo-rgb.png" --mimetype=image/png --
qp pdf20 chromium-default.pdf "header forced to 2.0" "fonts-embedded:type0,header:2.0" --force-version=2.0
V="MuPDF $(dv mupdf-tools)"
"$PY" mutool_page.py >"$WORK/text/mutool-page.txt"
mutool create -o "$OUT/mutool-create.pdf" "$WORK/text/mutool-page.txt"
rec mutool-create.pdf MuPDF "$V" "mutool_page.py | mutool create" "fonts-not-embedded:std14,image:png"
mutool convert -o "$OUT/mutool-convert-html.pdf" "$WORK/markup/default.html" >/dev/null 2>&1
rec mutool-convert-html.pdf MuPDF "$V" "mutool convert (XHTML layout)" "fonts-embedded:cff-cid,image:png-alpha,annot:link"
mutool clean -gggg -z -l "$OUT/itext5-helvetica.pdf" "$OUT/mutool-clean-linearized.pdf"
rec mutool-clean-linearized.pdf MuPDF "$V" "mutool clean -gggg -z -l itext5-helvetica.pdf" "fonts-not-embedded:std14,linearized,multi-page"
V="pdftk-java $(dv pdftk-java)"
pdftk "$OUT/prawn-times-jpeg.pdf" attach_files "$ASSETS/logo-rgb.png" output "$OUT/pdftk-attach.pdf"
rec pdftk-attach.pdf pdftk "$V" "pdftk prawn-times-jpeg.pdf attach_files logo-rgb.png" "fonts-not-embedded:std14,embedded-files"
pdftk "$OUT/fop-default.pdf" output "$OUT/pdftk-owner-password.pdf" owner_pw owner-0417 allow printing
rec pdftk-owner-password.pdf pdftk "$V" "pdftk fop-default.pdf owner_pw (RC4-128), allow printing" "fonts-not-embedded:std14,encrypted:empty-user-password"
pdftk A="$OUT/reportlab-helvetica.pdf" B="$OUT/libreoffice-writer.pdf" cat A1 B output "$OUT/pdftk-cat-mixed.pdf"
rec pdftk-cat-mixed.pdf pdftk "$V" "pdftk cat reportlab-helvetica.pdf p1 + libreoffice-writer.pdf" "fonts-not-embedded:std14,fonts-embedded:truetype-subset,multi-page"
V="poppler-utils $(dv poppler-utils)"
pdfunite "$OUT/fpdf-times-alpha-png.pdf" "$OUT/wkhtmltopdf-default.pdf" "$OUT/poppler-pdfunite.pdf"
rec poppler-pdfunite.pdf "poppler pdfunite" "$V" "pdfunite fpdf-times-alpha-png.pdf wkhtmltopdf-default.pdf" "fonts-not-embedded:std14,fonts-embedded:truetype-subset,multi-page"
pdftocairo -pdf "$OUT/reportlab-base14.pdf" "$OUT/poppler-pdftocairo.pdf"
rec poppler-pdftocairo.pdf "poppler pdftocairo" "$V" "pdftocairo -pdf reportlab-base14.pdf (fonts re-embedded by cairo)" "fonts-embedded:truetype-subset"

# ---- hand-built the way producers not installable here write them --------------------------------------------
V="handmade.py (this repository)"
hm() { "$PY" handmade.py "$1" "$OUT/handmade-$1.pdf" ${5:+"$OUT/$5"}; rec "handmade-$1.pdf" "$2" "$V" "handmade.py $1${5:+ $5}: $3" "$4"; }
hm word-truetype-not-embedded "Microsoft Word (as written by Word 2016, hand-built)" "Arial, Arial Bold, Times New Roman, Courier New as simple TrueType, WinAnsi, /Widths, not embedded" "fonts-not-embedded:truetype,word"
hm word-type0-calibri-cambria "Microsoft Word (as written by Word 365, hand-built)" "Calibri and Cambria as Type0 Identity-H with ToUnicode and /W, not embedded (CIDs: Carlito/Caladea glyph ids)" "fonts-not-embedded:type0,word"
hm word-type0-arial-foreign-gids "Microsoft Word (hand-built)" "ArialMT Type0 Identity-H not embedded, CIDs from another font's glyph ids (DejaVu Sans): only ToUnicode maps them" "fonts-not-embedded:type0,word"
hm cidfont-no-cidtogidmap "writer omitting /CIDToGIDMap (hand-built)" "embedded CIDFontType2 subset (Liberation Sans) without /CIDToGIDMap, 2 pages" "fonts-embedded:type0,cidtogidmap-missing,multi-page"
hm cidfont-no-cidtogidmap-carlito "writer omitting /CIDToGIDMap (hand-built)" "the same with Carlito" "fonts-embedded:type0,cidtogidmap-missing,multi-page"
hm cidfont-no-cidtogidmap-bold "writer omitting /CIDToGIDMap (hand-built)" "the same with Liberation Sans Bold" "fonts-embedded:type0,cidtogidmap-missing,multi-page"
hm cidset-incomplete "Microsoft Word 2010 PDF/A style (hand-built)" "embedded CIDFontType2 subset with a /CIDSet missing page 2's glyphs" "fonts-embedded:type0,cidset-incomplete,multi-page"
hm cidset-incomplete-caladea "Microsoft Word 2010 PDF/A style (hand-built)" "the same with Caladea (Cambria metrics)" "fonts-embedded:type0,cidset-incomplete,multi-page"
hm widths-mismatch "substituting writer (hand-built)" "DejaVu Sans program embedded under Arial's /Widths" "fonts-embedded:truetype-subset,widths-mismatch"
hm widths-mismatch-type0 "substituting writer (hand-built)" "Type0: Calibri's /W (Carlito metrics) over an embedded Liberation Sans program" "fonts-embedded:type0,widths-mismatch"
hm latin1-names "QuarkXPress 4 style (hand-built)" "Latin-1 names: Separation /Grün, font resource /Fü1" "fonts-not-embedded:std14,colour:separation,names-not-utf8"
hm latin1-devicen "prepress tool (hand-built)" "Latin-1 names: DeviceN colorants /Blauäugig /Grün, font resource /Schriftä1" "fonts-not-embedded:std14,colour:devicen,names-not-utf8"
hm lzw-content "Acrobat Distiller 3 style (hand-built)" "LZWDecode page content, PDF 1.3" "fonts-not-embedded:std14,lzw,header:1.3"
hm transfer-function "PScript5 print driver style (hand-built)" "ExtGState /TR and /TR2 functions" "fonts-not-embedded:std14,transfer-function"
hm transfer-in-form "scan software (hand-built)" "a /TR array in a form XObject's ExtGState" "fonts-not-embedded:std14,transfer-function"
hm xfa-static "Adobe LiveCycle Designer static form (hand-built)" "XFA packets (array form) next to AcroForm fields, NeedAppearances" "fonts-not-embedded:std14,acroform,xfa,need-appearances"
hm xfa-dynamic-js "Adobe LiveCycle Designer dynamic form (hand-built)" "XFA with a script, NeedsRendering" "fonts-not-embedded:std14,acroform,xfa,javascript:xfa"
hm acroform-need-appearances "form filler (hand-built)" "text fields and a check box without appearance streams, NeedAppearances true" "fonts-not-embedded:std14,acroform,need-appearances"
hm xmp-custom-properties "Acrobat PDFMaker style (hand-built)" "XMP with undeclared pdfx: and private-schema properties" "fonts-not-embedded:std14,xmp-undeclared"
hm ocg-as-config "InDesign style (hand-built)" "optional content with /AS print and view events, a config without /Name" "fonts-not-embedded:std14,optional-content"
hm annotations-viewer "Adobe Acrobat review comments (hand-built)" "comments with popups, hidden, unprintable and NoView notes, stamp and free text without appearance, highlight, widget without appearance, link without /F" "fonts-not-embedded:std14,annot:text-no-appearance,annot:hidden,annot:link,acroform"
hm actions-javascript "Crystal Reports style (hand-built)" "JavaScript OpenAction, page /AA, names-tree JavaScript, catalog /AA, Launch and Named actions" "fonts-not-embedded:std14,javascript:open-action,javascript:document,action:launch"
hm embedded-files "SAP Smart Forms style (hand-built)" "EmbeddedFiles name tree and a FileAttachment annotation, no /AFRelationship, no /AF" "fonts-not-embedded:std14,embedded-files,annot:file-attachment"
hm pdf20 "PDF 2.0 writer (hand-built)" "header %PDF-2.0, XMP only, embedded Type0 subset" "fonts-embedded:type0,header:2.0"
hm php-leading-newline "FPDF via a PHP script with a stray newline (damaged)" "fpdf-invoice.pdf with one byte before %PDF: every offset off by one" "fonts-not-embedded:std14,broken-xref,multi-page" fpdf-invoice.pdf
hm xref-offsets-wrong "FPDF, xref rewritten wrongly (damaged)" "fpdf-invoice.pdf with every xref offset wrong (qpdf reconstructs)" "fonts-not-embedded:std14,broken-xref,multi-page" fpdf-invoice.pdf
hm incremental-comment "Adobe Acrobat incremental save (hand-built)" "reportlab-helvetica.pdf + an incremental update adding a free-text comment" "fonts-not-embedded:std14,incremental-update,annot:text-no-appearance,multi-page" reportlab-helvetica.pdf
hm many-findings "Microsoft Dynamics NAV style statement (hand-built)" "12 pages x 40 links without /F, Helvetica not embedded: ~500 findings" "fonts-not-embedded:std14,annot:link,multi-page,many-findings"
"$PY" handmade.py cyclic-embeddedfiles "$OUT/hostile/cyclic-embeddedfiles.pdf"
rec hostile/cyclic-embeddedfiles.pdf "hostile (hand-built)" "$V" "handmade.py cyclic-embeddedfiles: an /EmbeddedFiles name tree whose Kids lead back to its root" "fonts-not-embedded:std14,embedded-files,hostile:cyclic-name-tree"

# ---- manifest --------------------------------------------------------------------------------------------------
"$PY" "$HERE/manifest.py" "$MADE" "$OUT"
echo "corpus: $(ls "$OUT"/*.pdf "$OUT"/hostile/*.pdf | wc -l) files, $(du -sh "$OUT" | cut -f1)"
