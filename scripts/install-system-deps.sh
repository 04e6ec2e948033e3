#!/usr/bin/env bash
# System tools the test suite uses as independent readers of our PDFs (not needed at run time).
# Idempotent: installs only what is missing. Debian/Ubuntu (apt-get); run as root or with sudo.
set -euo pipefail
if ! command -v qpdf >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends qpdf
fi
# No pipe into head: with pipefail, qpdf could die of SIGPIPE and fail the whole test run.
version="$(qpdf --version)"
echo "${version%%$'\n'*}"
