#!/usr/bin/env bash
# Run `npm test` N times in a row from this checkout (default 10), every second run with the machine loaded (one
# CPU-bound process per core for that whole run), and print a table: run, loaded, duration, tests, failures, tests
# over their time limit, and the names of the failed tests. A suite that passes only on a quiet machine, or only
# most of the time, shows here. Exit 0 when every run passed.
#
#   scripts/test-repeat.sh [N]          (npm run test:repeat -- N)
#   REPEAT_COMMAND='node --import tsx --import ./test/setup.mjs --test test/x.test.ts' scripts/test-repeat.sh 2
#
# Each run's full output is kept in a folder under $TMPDIR (named at the start). The load processes are this
# script's own children, started before a loaded run and killed after it, also on Ctrl-C or any other exit.
set -uo pipefail
cd "$(dirname "$0")/.."

runs="${1:-10}"
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: scripts/test-repeat.sh [N]   (N: runs, default 10; every second one loaded)" >&2
  exit 2
fi
command="${REPEAT_COMMAND:-npm test}"
cores="$(nproc)"
logs="$(mktemp -d "${TMPDIR:-/tmp}/test-repeat-XXXXXX")"

load_pids=()
start_load() {
  for _ in $(seq "$cores"); do
    # A shell loop: one core's worth of CPU, no memory, no I/O.
    bash -c 'while :; do :; done' &
    load_pids+=("$!")
  done
}
stop_load() {
  if ((${#load_pids[@]})); then
    kill -KILL "${load_pids[@]}" 2>/dev/null
    wait "${load_pids[@]}" 2>/dev/null
  fi
  load_pids=()
}
test_pid=""
cleanup() {
  stop_load
  # The suite itself, when interrupted: its process group (npm, node --test and the files under it).
  if [ -n "$test_pid" ]; then kill -TERM -- "-$test_pid" 2>/dev/null; fi
}
trap cleanup EXIT
trap 'echo "interrupted" >&2; exit 130' INT TERM

count() { grep -E "^ℹ $1 [0-9]+$" "$log" | tail -1 | awk '{print $3}'; }

echo "test-repeat: $runs runs of \`$command\` in $(pwd), $cores cores; every second run with $cores CPU-bound processes; logs in $logs"
rows=()
failed_runs=0
for i in $(seq "$runs"); do
  loaded="no"
  if ((i % 2 == 0)); then loaded="yes"; fi
  log="$logs/run-$i.log"
  [ "$loaded" = yes ] && start_load
  echo "test-repeat: run $i/$runs (loaded: $loaded, load average $(cut -d' ' -f1 /proc/loadavg)) ..."
  began=$(date +%s)
  # A process group of its own (setsid), so that an interrupt can end the whole suite and nothing else.
  setsid bash -c "$command" >"$log" 2>&1 &
  test_pid=$!
  wait "$test_pid"
  code=$?
  test_pid=""
  took=$(($(date +%s) - began))
  stop_load

  # Node's spec reporter: the summary ("ℹ tests 1918", "ℹ fail 0", "ℹ cancelled 0": a test stopped at its time limit
  # is "cancelled") and, after "✖ failing tests:", each failed test's name line and its error.
  tests="$(count tests)"
  fail="$(count fail)"
  cancelled="$(count cancelled)"
  failures=$((${fail:-0} + ${cancelled:-0}))
  failing="$(sed -n '/^✖ failing tests:/,$p' "$log")"
  overtime="$(grep -c "timed out after" <<<"$failing")"
  names="$(grep -E '^ *✖ ' <<<"$failing" | grep -v '^✖ failing tests:' | sed -E 's/^ *✖ //; s/ \([0-9.]+ms\)$//' | sort -u | paste -sd ';' - | sed 's/;/; /g')"
  # test/setup.mjs names the processes a test file left running (it kills them and fails the file).
  leaks="$(grep -c '^test/setup.mjs: ' "$log")"
  if ((leaks > 0)); then names="${names:+$names; }processes left running by $leaks test file(s)"; fi
  if [ -z "$tests" ]; then
    # No summary: the suite did not get to run its tests (the type check failed, say).
    tests="-"
    names="no test summary (exit $code): $(grep -v '^\s*$' "$log" | tail -3 | paste -sd ' ' - | cut -c1-200)"
    failures=1
  elif [ "$code" -ne 0 ] && [ "$failures" -eq 0 ]; then
    failures=1
    names="exit $code with no failed test listed (see $log)"
  fi
  ((failures > 0)) && failed_runs=$((failed_runs + 1))
  rows+=("$(printf '| %s | %s | %dm%02ds | %s | %s | %s | %s |' "$i" "$loaded" $((took / 60)) $((took % 60)) "$tests" "$failures" "$overtime" "${names:-—}")")
  echo "test-repeat: run $i: ${took}s, tests ${tests}, failures ${failures}, over their time limit ${overtime}"
done

echo
echo "| run | loaded | duration | tests | failures | over time limit | failed tests |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "$((runs - failed_runs)) of $runs runs passed; logs in $logs"
((failed_runs == 0))
