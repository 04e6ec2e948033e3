#!/usr/bin/env bash
# The PDF producers the corpus is made with (scripts/pdf-corpus/make-corpus.sh): Debian packages and three npm packages.
# Not part of `npm test`: this is how test/fixtures/real-world-pdf/ was made. Debian 12 (bookworm), run as root or with sudo.
# Idempotent. npm producers go to $WORK/npm (default /tmp/pdf-corpus-work/npm), outside the repository.
set -euo pipefail
WORK="${WORK:-/tmp/pdf-corpus-work}"
SUDO=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
PKGS=(
  python3-reportlab python3-cairo python3-pyqt5 python3-pil python3-fonttools python3-pikepdf
  php-cli php-fpdf php-tcpdf php-gd ruby ruby-prawn
  default-jre-headless libitext-java libitext5-java libbcprov-java libbcpkix-java fop
  wkhtmltopdf chromium libreoffice-writer-nogui libreoffice-calc-nogui
  texlive-latex-base texlive-latex-recommended texlive-latex-extra texlive-fonts-recommended lmodern pandoc
  ghostscript groff enscript imagemagick img2pdf poppler-utils qpdf mupdf-tools pdftk-java inkscape scribus openssl
  fonts-liberation2 fonts-crosextra-carlito fonts-crosextra-caladea fonts-dejavu-core fonts-urw-base35 icc-profiles-free
)
missing=()
for p in "${PKGS[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p"); done
if [ "${#missing[@]}" -gt 0 ]; then
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
# Debian's ImageMagick policy forbids writing PDF (a guard against Ghostscript exploits when reading untrusted
# files); the corpus only writes PDFs from our own images, so allow the PDF coder.
POLICY=/etc/ImageMagick-6/policy.xml
if [ -f "$POLICY" ] && grep -q '<policy domain="coder" rights="none" pattern="PDF" />' "$POLICY"; then
  $SUDO sed -i 's|<policy domain="coder" rights="none" pattern="PDF" />|<policy domain="coder" rights="read\|write" pattern="PDF" />|' "$POLICY"
fi
mkdir -p "$WORK/npm"
if [ ! -f "$WORK/npm/node_modules/pdfkit/package.json" ]; then
  (cd "$WORK/npm" && echo '{"private":true}' > package.json &&
    npm install --no-audit --no-fund --ignore-scripts pdfmake@0.2.20 jspdf@3.0.3 pdfkit@0.17.2)
fi
echo "producers installed; npm producers in $WORK/npm"
