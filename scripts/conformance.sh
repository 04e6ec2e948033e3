#!/usr/bin/env bash
# The conformance suite: every corpus file against its official verdict, and the OpenAPI document against the
# API contract and the answers (test/conformance/).
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
# The API contract (api-spec.md), which the OpenAPI document is compared with: EINVOICE_SPEC, default ../shared/spec.
spec="${EINVOICE_SPEC:-../shared/spec}"
if [ ! -f "$spec/api-spec.md" ]; then
  echo "conformance: API contract not found at $spec (set EINVOICE_SPEC to the folder holding api-spec.md)" >&2
  exit 2
fi
export EINVOICE_SPEC="$(cd "$spec" && pwd)"
exec node --import tsx --test --test-reporter=spec test/conformance/*.test.ts "$@"
