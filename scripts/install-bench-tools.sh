#!/usr/bin/env bash
# Tools the benchmarks use besides npm packages: wrk, a C HTTP load generator (Debian package `wrk`),
# which leaves more of a 2-core machine to the server than autocannon does (see bench/_wrk.ts).
# Optional: without it the benchmarks print autocannon figures only, so a failed install warns and
# does not stop `npm run bench`. Idempotent; Debian/Ubuntu (apt-get), as root or with sudo.
set -uo pipefail
if command -v wrk >/dev/null 2>&1; then exit 0; fi
SUDO=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
if ! { $SUDO apt-get update && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends wrk; } >/dev/null; then
  echo "install-bench-tools: could not install wrk; the HTTP benchmarks will use autocannon only" >&2
fi
exit 0
