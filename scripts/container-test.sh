#!/usr/bin/env bash
# Builds the container image (Dockerfile) with podman and checks it for real (docs/deployment.md):
# - the image is at most 120 MB above its Node base image, runs as a non-root user, has a HEALTHCHECK;
# - the service runs on a read-only root file system with no writable /tmp, all capabilities dropped and no
#   privilege escalation: /health, /healthz, a validation, a convert (whose PDF validates), the HEALTHCHECK;
# - PROCESSES=auto follows the container's CPU quota (--cpus 1: one process, --cpus 2: a supervisor and two), and
#   the memory ceiling follows its memory limit (--memory 1g, two processes: 384 MB each);
# - SIGTERM during an upload: the upload is answered 200, the container exits 0 within SHUTDOWN_GRACE_S;
# - the batch command of deploy/kubernetes/batch-job.yaml, run in the image as its pods run it (read-only, one
#   shard per container), writes each shard's JSON lines;
# - a short load: requests per second and the peak memory of the server process and of the container; six uploads
#   near the size limit at once (the memory gate answers 503, the container is not killed);
# - with the corpus beside the checkout (EINVOICE_CORPUS, default ../shared/corpus): all of it validated by the image's
#   command line gets every verdict the checkout's sources give.
# Prints the figures and "container-test: PASS", or the failed check and exits 1. Without podman it prints one line
# and exits 0 (scripts/install-container-tools.sh installs podman and mmdebstrap on Debian).
#
# Base images: NODE_IMAGE and NODE_BUILD_IMAGE when set; else the official node:20-trixie-slim if it is present or
# can be pulled; else Node 20 images made from Debian trixie with mmdebstrap (minbase + nodejs + ca-certificates,
# and npm for the build stage), imported once as localhost/einvoice-base:node20-trixie[-npm]. The CA bundle named
# by NODE_EXTRA_CA_CERTS (a TLS-inspecting proxy's; else the machine's trust store) is passed to the build as the
# secret "ca" so that npm ci trusts it. CONTAINER_RUNTIME (default: runc when installed) and the ulimits below suit
# machines where crun cannot set up cgroups or raised rlimits.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v podman >/dev/null 2>&1; then
  echo "container-test: skipped (podman is not installed; scripts/install-container-tools.sh installs it)"
  exit 0
fi

IMAGE="${CONTAINER_IMAGE:-localhost/einvoice-service:test}"
MAX_GROWTH_MB=120
GRACE_S=10
RUN_OPTS=(--ulimit nofile=4096:4096 --ulimit nproc=4096:4096)
runtime="${CONTAINER_RUNTIME:-}"
if [ -z "$runtime" ] && command -v runc >/dev/null 2>&1; then runtime=runc; fi
if [ -n "$runtime" ]; then RUN_OPTS+=(--runtime "$runtime"); fi
# What the image must survive: no writable file system at all, no capabilities, no privilege escalation.
LOCKED=(--read-only --read-only-tmpfs=false --cap-drop=all --security-opt=no-new-privileges)

work="$(mktemp -d)"
containers=()
cleanup() {
  for c in "${containers[@]}"; do podman rm -f "$c" >/dev/null 2>&1 || true; done
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "container-test: FAIL: $*" >&2
  for c in "${containers[@]}"; do
    echo "--- logs of $c" >&2
    podman logs "$c" 2>&1 | tail -20 >&2 || true
  done
  exit 1
}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }

# --- base images
base_from_debian() { # name, packages
  if ! podman image exists "$1"; then
    command -v mmdebstrap >/dev/null 2>&1 || fail "no Node base image: set NODE_IMAGE, or install mmdebstrap"
    echo "container-test: making $1 from Debian trixie ($2)"
    mmdebstrap --quiet --variant=minbase --include="$2" trixie - | podman import --quiet --change 'CMD ["node"]' - "$1" >/dev/null
  fi
}
if [ -z "${NODE_IMAGE:-}" ]; then
  official=docker.io/library/node:20-trixie-slim
  if podman image exists "$official" || timeout 120 podman pull -q "$official" >/dev/null 2>&1; then
    NODE_IMAGE="$official"
  else
    NODE_IMAGE=localhost/einvoice-base:node20-trixie
    NODE_BUILD_IMAGE="${NODE_BUILD_IMAGE:-localhost/einvoice-base:node20-trixie-npm}"
    base_from_debian "$NODE_IMAGE" nodejs,ca-certificates
    base_from_debian "$NODE_BUILD_IMAGE" nodejs,npm,ca-certificates
  fi
fi
NODE_BUILD_IMAGE="${NODE_BUILD_IMAGE:-$NODE_IMAGE}"

# --- build
build_args=(--build-arg "NODE_IMAGE=$NODE_IMAGE" --build-arg "NODE_BUILD_IMAGE=$NODE_BUILD_IMAGE")
git_hash="$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
build_args+=(--build-arg "GIT_HASH=$git_hash")
# The CA bundle npm ci must trust inside the build: NODE_EXTRA_CA_CERTS's, else this machine's trust store (which
# holds a local CA added with update-ca-certificates, and the public ones).
ca="${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}"
if [ -s "$ca" ]; then build_args+=(--secret "id=ca,src=$ca"); fi
if [ -n "$runtime" ]; then build_args+=(--runtime "$runtime"); fi
t0="$(now)"
# --format docker: the OCI image format has no HEALTHCHECK.
podman build --quiet --format docker --network=host --ulimit nofile=4096:4096 --ulimit nproc=4096:4096 \
  "${build_args[@]}" -t "$IMAGE" . >"$work/build.log" 2>&1 || {
  tail -40 "$work/build.log" >&2
  fail "podman build"
}
build_s="$(since "$t0")"

size="$(podman image inspect "$IMAGE" --format '{{.Size}}')"
base_size="$(podman image inspect "$NODE_IMAGE" --format '{{.Size}}')"
growth=$((size - base_size))
echo "container-test: built $IMAGE in ${build_s} s on $NODE_IMAGE (build stage $NODE_BUILD_IMAGE)"
echo "container-test: image $(mb "$size") MB, base $(mb "$base_size") MB: +$(mb "$growth") MB (limit +$MAX_GROWTH_MB MB)"
[ "$growth" -le $((MAX_GROWTH_MB * 1048576)) ] || fail "the image is more than $MAX_GROWTH_MB MB above its base"
user="$(podman image inspect "$IMAGE" --format '{{.Config.User}}')"
case "$user" in "" | 0 | 0:* | root | root:*) fail "the image runs as root (USER \"$user\")" ;; esac
[ "$(podman image inspect "$IMAGE" --format '{{len .HealthCheck.Test}}')" -gt 0 ] || fail "no HEALTHCHECK"

# --- the service
start_service() { # name, extra options... (run in $(...): the caller adds the name to containers)
  local name="$1"
  shift
  podman rm -f "$name" >/dev/null 2>&1 || true
  podman run -d --name "$name" "${RUN_OPTS[@]}" "${LOCKED[@]}" -p 127.0.0.1::8080 "$@" "$IMAGE" >/dev/null 2>"$work/$name.err" ||
    fail "podman run $name: $(cat "$work/$name.err")"
  local port
  port="$(podman port "$name" 8080/tcp)"
  echo "http://${port}"
}
wait_healthy() { # url → seconds until /health answered 200
  local t
  t="$(now)"
  for _ in $(seq 1 600); do
    if [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$1/health" || true)" = 200 ]; then
      since "$t"
      return 0
    fi
    sleep 0.05
  done
  fail "/health did not answer 200 within 30 s"
}
# The log lines the service wrote so far (JSON lines on stdout); whether they have a string, how many lines do.
# (Read whole before grep: with pipefail, grep -q ending a pipe early would fail it.)
logs() { podman logs "$1" 2>/dev/null; }
logged() { grep -qF -- "$2" <<<"$(logs "$1")"; }
count_logged() { grep -cF -- "$2" <<<"$(logs "$1")" || true; }

name=einvoice-ct-$$
containers+=("$name")
url="$(start_service "$name" --cpus 1 --memory 1g -e PROCESSES=auto -e "SHUTDOWN_GRACE_S=$GRACE_S" -e DIAGNOSTICS_TOKEN=ct)"
startup_s="$(wait_healthy "$url")"
idle_rss="$(podman exec "$name" node -p "/VmRSS:\s+(\d+)/.exec(require('fs').readFileSync('/proc/1/status','utf8'))[1]*1024")"
echo "container-test: started in ${startup_s} s (podman run → first 200 on /health); RSS idle $(mb "$idle_rss") MB"

[ "$(curl -sS --max-time 10 -o /dev/null -w '%{http_code}' "$url/health")" = 200 ] || fail "/health"
healthz="$(curl -sS --max-time 30 -w ' %{http_code}' "$url/healthz")"
[[ "$healthz" == *'"status":"ready"'*' 200' ]] || fail "/healthz: $healthz"
validate="$(curl -sS --max-time 30 -F file=@examples/invoice.xml -w ' %{http_code}' "$url/v1/validate")"
[[ "$validate" == *'"valid":true'*' 200' ]] || fail "/v1/validate: ${validate:0:300}"
code="$(curl -sS --max-time 30 -F pdf=@examples/plain.pdf -F 'metadata=<examples/invoice.json' -o "$work/converted.pdf" \
  -w '%{http_code}' "$url/v1/convert")"
[ "$code" = 200 ] && [ "$(head -c 5 "$work/converted.pdf")" = "%PDF-" ] || fail "/v1/convert: $code"
again="$(curl -sS --max-time 30 -F file=@"$work/converted.pdf" -w ' %{http_code}' "$url/v1/validate")"
[[ "$again" == *'"valid":true'*'"format":"factur-x"'*' 200' || "$again" == *'"format":"factur-x"'*'"valid":true'*' 200' ]] ||
  fail "the converted PDF does not validate: ${again:0:300}"
diag="$(curl -sS --max-time 10 -H 'Authorization: Bearer ct' "$url/diagnostics")"
[[ "$diag" == *"\"git_hash\":\"$git_hash\""* ]] || fail "/diagnostics git_hash: ${diag:0:200}"
podman healthcheck run "$name" >/dev/null 2>&1 || fail "the image's HEALTHCHECK failed"
echo "container-test: /health, /healthz (ready), /v1/validate, /v1/convert (its PDF validates), /diagnostics, HEALTHCHECK: ok"

uid="$(podman exec "$name" node -p 'process.getuid()')"
[ "$uid" != 0 ] || fail "the service runs as root"
writes="$(podman exec "$name" node -p "['/app/x','/tmp/x'].map(f=>{try{require('fs').writeFileSync(f,'');return 'written'}catch(e){return e.code}}).join(' ')")"
[ "$writes" = "EROFS EROFS" ] || fail "the root file system is writable: $writes"
echo "container-test: uid $uid, /app and /tmp read-only ($writes), capabilities dropped, served everything above"

# PROCESSES=auto under --cpus 1 on a machine with more cores: one server process, no supervisor.
listening="$(count_logged "$name" '"einvoice-service listening')"
logged "$name" '"role":"supervisor"' && fail "PROCESSES=auto with --cpus 1 started a supervisor"
[ "$listening" = 1 ] || fail "PROCESSES=auto with --cpus 1: $listening server processes"
# The MAX_MEMORY_MB default: 75% of the container's memory per process, at most V8's heap limit (which node itself
# sizes from the cgroup's limit: half of it, plus the young generation).
heap_mb="$(podman exec "$name" node --max-semi-space-size=16 -p 'Math.floor(require("v8").getHeapStatistics().heap_size_limit / 1048576)')"
ceiling() { awk -v p="$1" -v h="$heap_mb" 'BEGIN { c = int(1024 * 0.75 / p); print (c < h ? c : h) }'; }
logged "$name" "\"max_memory_mb\":$(ceiling 1)," ||
  fail "MAX_MEMORY_MB default under --memory 1g is not $(ceiling 1): $(logs "$name" | grep listening)"

# --- a short load: mixed requests, 8 at a time (the client shares the machine's cores with the server)
node --input-type=module - "$url" "$work" >"$work/load.txt" <<'EOF'
import { readFileSync } from 'node:fs';
const [url, work] = process.argv.slice(2);
const xml = readFileSync('examples/invoice.xml');
const pdf = readFileSync(`${work}/converted.pdf`);
const plain = readFileSync('examples/plain.pdf');
const metadata = readFileSync('examples/invoice.json', 'utf8');
const requests = [
  () => { const f = new FormData(); f.set('file', new Blob([xml]), 'invoice.xml'); return ['/v1/validate', f]; },
  () => { const f = new FormData(); f.set('file', new Blob([pdf]), 'invoice.pdf'); return ['/v1/validate', f]; },
  () => { const f = new FormData(); f.set('file', new Blob([pdf]), 'invoice.pdf'); return ['/v1/extract', f]; },
  () => { const f = new FormData(); f.set('pdf', new Blob([plain]), 'plain.pdf'); f.set('metadata', metadata); return ['/v1/convert', f]; },
];
const total = 2000;
let next = 0, bad = 0;
const start = performance.now();
await Promise.all(Array.from({ length: 8 }, async () => {
  while (next < total) {
    const [path, body] = requests[next++ % requests.length]();
    const r = await fetch(url + path, { method: 'POST', body });
    await r.arrayBuffer();
    if (r.status !== 200) bad++;
  }
}));
const s = (performance.now() - start) / 1000;
console.log(`${total} ${bad} ${(total / s).toFixed(0)}`);
EOF
read -r load_n load_bad load_rate <"$work/load.txt"
[ "$load_bad" = 0 ] || fail "$load_bad of $load_n requests under load were not 200"
mem="$(podman exec "$name" node -p "const fs=require('fs');const r=f=>{try{return fs.readFileSync(f,'utf8').trim()}catch{return ''}};
const hwm=/VmHWM:\s+(\d+)/.exec(r('/proc/1/status'))[1]*1024;
const peak=r('/sys/fs/cgroup/memory.peak')||r('/sys/fs/cgroup/memory/memory.max_usage_in_bytes')||'0';
hwm+' '+peak")"
read -r rss_peak cgroup_peak <<<"$mem"
echo "container-test: load: $load_n mixed requests (validate XML, validate PDF, extract, convert), 8 at a time: $load_rate req/s (shared machine);" \
  "peak RSS of the server process $(mb "$rss_peak") MB, of the container (cgroup, page cache included) $(mb "$cgroup_peak") MB"

# --- uploads near the size limit, 6 at once, under --memory 1g: the memory gate answers what does not fit 503
# MEMORY_BUSY with Retry-After, and the container is never killed for memory
node --import tsx -e "import('./scripts/_load-inputs.ts').then((m) => process.stdout.write(m.ciiInvoice(7500)))" >"$work/big.xml"
big_mb="$(mb "$(stat -c %s "$work/big.xml")")"
for i in 1 2 3 4 5 6; do
  curl -sS --max-time 120 -F file=@"$work/big.xml" -o "$work/big-$i.json" -w '%{http_code}\n' "$url/v1/validate" >"$work/big-$i.code" 2>&1 &
done
wait
codes="$(cat "$work"/big-*.code | sort | uniq -c | awk '{ printf "%s×%s ", $1, $2 }')"
grep -qvE '^(200|503)$' "$work"/big-*.code && fail "uploads near the limit: $codes"
grep -qx 200 "$work"/big-*.code || fail "no upload near the limit was served: $codes"
for f in "$work"/big-*.json; do
  if grep -q MEMORY_BUSY "$f"; then continue; fi
  grep -q '"valid"' "$f" || fail "a large validation answered: $(head -c 200 "$f")"
done
[ "$(podman inspect "$name" --format '{{.State.OOMKilled}} {{.State.Running}}')" = "false true" ] || fail "the container died under large uploads"
big_rss="$(podman exec "$name" node -p "/VmHWM:\s+(\d+)/.exec(require('fs').readFileSync('/proc/1/status','utf8'))[1]*1024")"
echo "container-test: 6 uploads of a $big_mb MB invoice at once under --memory 1g: ${codes}(503 = MEMORY_BUSY); peak RSS now $(mb "$big_rss") MB, not killed"

# --- SIGTERM while an upload arrives (a valid invoice with a 300 KB comment, sent at 60 KB/s): it is answered, and
# the container exits 0 once it has, within the grace
{
  cat examples/invoice.xml
  printf '<!-- %s -->\n' "$(head -c 300000 /dev/zero | tr '\0' x)"
} >"$work/slow.xml"
curl -sS --max-time 60 --limit-rate 60k -F file=@"$work/slow.xml" -o "$work/drained.json" -w '%{http_code}' \
  "$url/v1/validate" >"$work/drained.code" 2>&1 &
upload=$!
sleep 1
t0="$(now)"
podman kill --signal TERM "$name" >/dev/null
wait "$upload" || true
answered_s="$(since "$t0")"
podman wait "$name" >"$work/exit.code" 2>/dev/null || true
stop_s="$(since "$t0")"
exit_code="$(tr -d '[:space:]' <"$work/exit.code")"
[ "$exit_code" = 0 ] || fail "exit code $exit_code after SIGTERM"
[ "$(cat "$work/drained.code")" = 200 ] && grep -q '"valid":true' "$work/drained.json" ||
  fail "the upload in flight at SIGTERM was not answered 200: $(cat "$work/drained.code") $(head -c 200 "$work/drained.json")"
awk -v a="$answered_s" 'BEGIN { exit !(a >= 1) }' || fail "the upload was answered ${answered_s} s after SIGTERM: it was not in flight"
awk -v s="$stop_s" -v g="$GRACE_S" 'BEGIN { exit !(s <= g + 2) }' || fail "SIGTERM → exit took $stop_s s (grace $GRACE_S s)"
echo "container-test: SIGTERM during a 300 KB upload at 60 KB/s: answered 200 ${answered_s} s after the signal, exit 0 after ${stop_s} s (SHUTDOWN_GRACE_S=$GRACE_S)"

# --- PROCESSES=auto under --cpus 2 (when the machine has 2 cores or more): a supervisor and two server processes
if [ "$(nproc)" -ge 2 ]; then
  name2=einvoice-ct2-$$
  containers+=("$name2")
  url2="$(start_service "$name2" --cpus 2 --memory 1g -e PROCESSES=auto)"
  wait_healthy "$url2" >/dev/null
  for _ in $(seq 1 100); do
    [ "$(count_logged "$name2" '"einvoice-service listening')" -ge 2 ] && break
    sleep 0.1
  done
  logged "$name2" '"msg":"starting 2 server processes"' || fail "PROCESSES=auto with --cpus 2 did not start 2 processes"
  [ "$(count_logged "$name2" '"einvoice-service listening')" = 2 ] || fail "PROCESSES=auto with --cpus 2: not 2 listening"
  logged "$name2" "\"max_memory_mb\":$(ceiling 2)," ||
    fail "MAX_MEMORY_MB default of 2 processes under --memory 1g is not $(ceiling 2)"
  podman stop -t 15 "$name2" >/dev/null 2>&1
  echo "container-test: PROCESSES=auto follows the CPU quota: --cpus 1 → 1 process, --cpus 2 → 2;" \
    "MAX_MEMORY_MB under --memory 1g: $(ceiling 1) MB (V8's heap limit), $(ceiling 2) MB per process of 2"
fi

# --- the Indexed Job's command, in the image, one container per shard (deploy/kubernetes/batch-job.yaml)
mkdir -p "$work/invoices/a" "$work/reports"
cp examples/invoice.xml "$work/invoices/a/"
cp "$work/converted.pdf" "$work/invoices/converted.pdf"
cp examples/factur-x.pdf "$work/invoices/a/"
printf 'not an invoice' >"$work/invoices/broken.xml"
chmod -R a+rX "$work/invoices"
chmod 0777 "$work/reports"
mapfile -t job < <(node --input-type=module -e "
  import { readFileSync } from 'node:fs';
  import { parseAllDocuments } from 'yaml';
  const job = parseAllDocuments(readFileSync('deploy/kubernetes/batch-job.yaml', 'utf8')).map((d) => d.toJS()).find((d) => d.kind === 'Job' && d.spec.completionMode === 'Indexed');
  const c = job.spec.template.spec.containers[0];
  console.log(job.spec.completions);
  for (const a of [...c.command, ...c.args]) console.log(a);
")
shards="${job[0]}"
for ((i = 0; i < shards; i++)); do
  args=()
  for a in "${job[@]:1}"; do args+=("${a//\$(SHARD_INDEX)/$i}"); done
  set +e
  podman run --rm "${RUN_OPTS[@]}" "${LOCKED[@]}" --cpus 1 --memory 1g --network none \
    -v "$work/invoices:/invoices:ro" -v "$work/reports:/reports" "$IMAGE" "${args[@]}" >"$work/shard-$i.out" 2>&1
  code=$?
  set -e
  [ "$code" = 0 ] || fail "shard $i of the batch command exited $code: $(cat "$work/shard-$i.out")"
done
lines="$(cat "$work/reports"/shard-*.jsonl | wc -l)"
[ "$lines" = 4 ] || fail "the $shards shards reported $lines files, not 4"
broken="$(grep -h '"file":"/invoices/broken.xml"' "$work/reports"/shard-*.jsonl)"
[[ "$broken" == *'"status":"unreadable"'* ]] || fail "broken.xml not unreadable: $broken"
echo "container-test: the batch Job's command in the image: $shards shards, read-only, no network: 4 files reported, exit 0"

# --- the whole corpus, when it is beside the checkout: the image's command line (compiled, trimmed dependencies, the
# base image's node) gives every file the verdict the checkout's sources give
corpus="${EINVOICE_CORPUS:-../shared/corpus}"
if [ -f "$corpus/verdicts.jsonl" ]; then
  corpus="$(cd "$corpus" && pwd)"
  mkdir -p "$work/corpus-reports"
  chmod 0777 "$work/corpus-reports"
  t0="$(now)"
  podman run --rm "${RUN_OPTS[@]}" "${LOCKED[@]}" --cpus 2 --memory 2g --network none \
    -v "$corpus:/invoices:ro" -v "$work/corpus-reports:/reports" "$IMAGE" node -e "
      const r = require('child_process').spawnSync('node', ['/app/bin/einvoice.js', 'validate', '/invoices', '--format', 'json',
        '--fail-on', 'never', '--output', '/reports/image.jsonl'], { stdio: 'inherit' });
      const fs = require('fs');
      const read = (f) => { try { return fs.readFileSync(f, 'utf8').trim(); } catch { return ''; } };
      const peak = read('/sys/fs/cgroup/memory.peak') || read('/sys/fs/cgroup/memory/memory.max_usage_in_bytes') || '0';
      fs.writeFileSync('/reports/peak', peak);
      process.exit(r.status ?? 2);" >"$work/corpus-image.out" 2>&1 || fail "the corpus in the image: $(tail -5 "$work/corpus-image.out")"
  image_s="$(since "$t0")"
  node --import tsx src/cli/main.ts validate "$corpus" --format json --fail-on never --output "$work/corpus-reports/checkout.jsonl" \
    >/dev/null 2>&1 || fail "the corpus from the checkout"
  compared="$(node -e "
    const fs = require('fs');
    const read = (f, prefix) => new Map(fs.readFileSync(f, 'utf8').split('\\n').filter(Boolean).map((l) => JSON.parse(l)).map((r) =>
      [r.file.slice(prefix.length), JSON.stringify([r.status, r.error_count, r.warning_count, r.problem?.code,
        (r.errors ?? []).map((e) => e.severity + ' ' + e.rule_id + ' ' + e.location).sort()])]));
    const a = read(process.argv[1], '/invoices'), b = read(process.argv[2], process.argv[3]);
    const differ = [...b.keys()].filter((f) => a.get(f) !== b.get(f));
    console.log(a.size + ' ' + b.size + ' ' + differ.length + ' ' + (differ[0] ?? ''));
  " "$work/corpus-reports/image.jsonl" "$work/corpus-reports/checkout.jsonl" "$corpus")"
  read -r n_image n_checkout n_differ first_differ <<<"$compared"
  [ "$n_image" = "$n_checkout" ] && [ "$n_differ" = 0 ] ||
    fail "the image and the checkout disagree on the corpus: $n_image / $n_checkout files, $n_differ differ (first: $first_differ)"
  echo "container-test: the corpus ($n_image files) validated in the image (--cpus 2, read-only) in ${image_s} s, peak memory" \
    "$(mb "$(cat "$work/corpus-reports/peak")") MB (cgroup): every verdict the checkout's"
fi

echo "container-test: PASS"
