"""A held-out set of real-world PDFs for report.ts (local only, never committed: the files' licences do not allow it,
and the corpus must not be tuned to them): invoices first, then ordinary PDFs of many producers, about 200,
deduplicated by SHA-256. Sources: the shared corpus (ZUGFeRD community corpus, French CTC examples) and git
mirrors of public repositories (ZUGFeRD/mustangproject, horstoeko/zugferd, py-pdf/sample-files, mozilla/pdf.js).

Usage: /usr/bin/python3 scripts/pdf-corpus/select-heldout.py OUTDIR [SHARED_CORPUS] [MIRRORS]
  SHARED_CORPUS default ../shared/corpus; MIRRORS: a folder of bare git mirrors named owner+name/repo
  (default /work/.mirror). Missing sources are skipped.
"""
import hashlib, os, re, shutil, subprocess, sys
import pikepdf

if len(sys.argv) < 2:
    sys.exit(__doc__)
OUT = sys.argv[1]
SHARED = sys.argv[2] if len(sys.argv) > 2 else '../shared/corpus'
MIRRORS = sys.argv[3] if len(sys.argv) > 3 else '/work/.mirror'
shutil.rmtree(OUT, ignore_errors=True)
os.makedirs(OUT)
seen = set()
count = {}

def take(src, group, name=None):
    data = open(src, 'rb').read()
    h = hashlib.sha256(data).hexdigest()
    if h in seen or len(data) > 10 * 2**20 or not data[:1024].lstrip().startswith(b'%PDF') and b'%PDF' not in data[:1024]:
        return False
    seen.add(h)
    d = os.path.join(OUT, group)
    os.makedirs(d, exist_ok=True)
    base = re.sub(r'[^A-Za-z0-9._-]+', '_', name or os.path.basename(src))
    dst = os.path.join(d, base)
    i = 1
    while os.path.exists(dst):
        dst = os.path.join(d, f'{i}-{base}'); i += 1
    open(dst, 'wb').write(data)
    count[group] = count.get(group, 0) + 1
    return True

def walk(root):
    for dp, _, fs in os.walk(root):
        for f in sorted(fs):
            if f.lower().endswith('.pdf'):
                yield os.path.join(dp, f)

# 1. invoices: ZUGFeRD / Factur-X / XRechnung from many producers
for p in walk(f'{SHARED}/zugferd'):
    take(p, 'zugferd-corpus', os.path.relpath(p, f'{SHARED}/zugferd'))
fr = list(walk(f'{SHARED}/fr-ctc'))
per = {}
for p in fr:
    folder = os.path.dirname(p)
    if 'facturx-1.08' in p and per.get(folder, 0) >= 2:
        continue
    if take(p, 'fr-ctc', os.path.relpath(p, f'{SHARED}/fr-ctc/lunatech/specs')):
        per[folder] = per.get(folder, 0) + 1

def git_files(repo, pattern=r'\.pdf$'):
    if not os.path.isdir(repo):
        return []
    out = subprocess.run(['git', '-C', repo, 'ls-tree', '-r', '--name-only', 'HEAD'], capture_output=True, text=True).stdout.split('\n')
    return [f for f in out if re.search(pattern, f, re.I)]

def git_take(repo, path, group):
    data = subprocess.run(['git', '-C', repo, 'show', f'HEAD:{path}'], capture_output=True).stdout
    tmp = '/tmp/heldout-tmp.pdf'
    open(tmp, 'wb').write(data)
    return take(tmp, group, path.replace('/', '_'))

HOSTILE = re.compile(r'corrupt|invalid|broken|bad|fuzz|crash|poc|bomb|damaged|waytoosmall|empty|veraPDF|fail', re.I)
M = f'{MIRRORS}/ZUGFeRD+mustangproject/repo'
for f in git_files(M):
    if not HOSTILE.search(f) and not f.startswith('doc/'):
        git_take(M, f, 'mustangproject')
H = f'{MIRRORS}/horstoeko+zugferd/repo'
for f in git_files(H):
    if not HOSTILE.search(f):
        git_take(H, f, 'horstoeko-zugferd')
S = f'{MIRRORS}/py-pdf+sample-files/repo'
for f in git_files(S):
    if not HOSTILE.search(f):
        git_take(S, f, 'py-pdf-sample-files')
# 2. ordinary PDFs from pdf.js's test files (bug reports from the real world): one per producer, no broken ones
J = f'{MIRRORS}/mozilla+pdf.js/repo'
producers = set()
target = 200 - sum(count.values())
for f in git_files(J, r'^test/pdfs/.*\.pdf$'):
    if target <= 0:
        break
    if HOSTILE.search(f):
        continue
    data = subprocess.run(['git', '-C', J, 'show', f'HEAD:{f}'], capture_output=True).stdout
    if len(data) > 3 * 2**20 or len(data) < 2000:
        continue
    open('/tmp/heldout-tmp.pdf', 'wb').write(data)
    try:
        with pikepdf.open('/tmp/heldout-tmp.pdf') as pdf:
            info = pdf.trailer.get('/Info')
            prod = str(info.get('/Producer', '')) if info is not None else ''
            prod = re.sub(r'[\d.]+', '', prod).strip().lower()[:30] or 'unknown'
            if pdf.is_encrypted or len(pdf.pages) > 40:
                continue
    except Exception:
        continue
    if prod in producers:
        continue
    producers.add(prod)
    if take('/tmp/heldout-tmp.pdf', 'pdfjs-test-pdfs', f.replace('test/pdfs/', '')):
        target -= 1
print(count, sum(count.values()))
