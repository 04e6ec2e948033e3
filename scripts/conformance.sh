#!/usr/bin/env bash
# The conformance suite: every corpus file against its official verdict (test/conformance/).
# The corpus is read from EINVOICE_CORPUS (default ../shared/corpus, beside the checkout). Without it the suite
# says so in one line and fails: it never "passes" on nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${EINVOICE_CORPUS:-../shared/corpus}"
if [ ! -f "$corpus/verdicts.jsonl" ]; then
  echo "conformance: corpus not found at $corpus (set EINVOICE_CORPUS to the folder holding verdicts.jsonl)" >&2
  exit 2
fi
export EINVOICE_CORPUS="$(cd "$corpus" && pwd)"
exec node --import tsx --test --test-reporter=spec test/conformance/*.test.ts "$@"
