#!/usr/bin/env bash
# Tools the benchmarks use besides npm packages, from Debian's packages:
# - wrk, a C HTTP load generator, which leaves more of a 2-core machine to the server than autocannon does
#   (bench/_wrk.ts); without it the HTTP benchmarks print autocannon figures only;
# - Saxon-HE (libsaxonhe-java), to run the official EN 16931 Schematron on a warm JVM beside the CLI's batch figures
#   (bench/cli-batch.ts, with a JDK and EN16931_ARTEFACTS); without it that line says why it was not run;
# - valgrind, whose callgrind counts instructions, the same whatever the machine's load (bench/peppol.ts --instructions).
# Optional: a failed install warns and does not stop `npm run bench`. Idempotent; Debian/Ubuntu (apt-get), as root
# or with sudo.
set -uo pipefail
wanted=()
command -v wrk >/dev/null 2>&1 || wanted+=(wrk)
[ -e /usr/share/java/Saxon-HE.jar ] || wanted+=(libsaxonhe-java)
command -v valgrind >/dev/null 2>&1 || wanted+=(valgrind)
[ ${#wanted[@]} -eq 0 ] && exit 0
SUDO=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
if ! { $SUDO apt-get update && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${wanted[@]}"; } >/dev/null; then
  echo "install-bench-tools: could not install ${wanted[*]}; the benchmarks that use them print why they were not run" >&2
fi
exit 0
