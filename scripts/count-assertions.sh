#!/usr/bin/env bash
# Counts the assertions and test cases written in the test sources, for the npm test suite (test/*.ts) and the
# conformance suite (test/conformance/*.ts), at a git revision (default: the working tree).
#   assertions = call sites of assert.<fn>( / assert( / t.assert…( ; tests = call sites of test( / it(
# Static counts: an assertion inside a loop counts once. Usage: scripts/count-assertions.sh [git-rev]
set -euo pipefail
cd "$(dirname "$0")/.."
rev="${1:-}"
list() { if [ -n "$rev" ]; then git ls-tree -r --name-only "$rev" -- "$1"; else git ls-files --cached --others --exclude-standard -- "$1"; fi; }
show() { if [ -n "$rev" ]; then git show "$rev:$1"; else cat "$1"; fi; }
count() {
  local files=("$@") a=0 t=0 f
  for f in "${files[@]}"; do
    a=$((a + $(show "$f" | grep -oE '\b(t\.)?assert(\.[a-zA-Z]+)?\(' | wc -l)))
    t=$((t + $(show "$f" | grep -oE '(^|[^.a-zA-Z])(test|it)\(' | wc -l)))
  done
  echo "$a assertions, $t test cases in ${#files[@]} files"
}
mapfile -t unit < <(list test | grep -E '^test/[^/]+\.ts$' || true)
mapfile -t conf < <(list test/conformance | grep -E '\.ts$' || true)
# Before the split the corpus-wide tests lived in test/corpus-*.test.ts.
echo "npm test (test/*.ts):                    $(count "${unit[@]}")"
if [ ${#conf[@]} -gt 0 ]; then echo "conformance (test/conformance/*.ts):     $(count "${conf[@]}")"; fi
