#!/usr/bin/env bash
# System tools the test suite uses as independent readers of our PDFs (not needed at run time): qpdf, and poppler's
# pdftoppm to render pages (test/real-world-pdf.test.ts) with the fonts poppler substitutes for fonts a PDF does not
# embed (URW base 35 for the standard 14, Liberation for Arial / Times New Roman / Courier New, Carlito and Caladea
# for Calibri and Cambria), so that renders do not depend on which fonts a machine happens to have; and Debian's
# Chromium for the browser UI test (test/ui-browser.test.ts drives it with playwright-core; no browser is ever
# downloaded).
# Idempotent: installs only what is missing. Debian/Ubuntu (apt-get); run as root or with sudo.
set -euo pipefail
PKGS=(qpdf poppler-utils fonts-urw-base35 fonts-liberation2 fonts-crosextra-carlito fonts-crosextra-caladea fonts-dejavu-core chromium)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
# No pipe into head: with pipefail, qpdf could die of SIGPIPE and fail the whole test run.
version="$(qpdf --version)"
echo "${version%%$'\n'*}"
version="$(pdftoppm -v 2>&1)"
echo "${version%%$'\n'*}"
# (stdout only: Debian's launcher script can print a shell warning on stderr first)
version="$(chromium --version 2>/dev/null)"
echo "${version%%$'\n'*}"
