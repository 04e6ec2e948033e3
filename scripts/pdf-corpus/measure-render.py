"""Where test/real-world-pdf.test.ts's render thresholds come from.

For every corpus file with simple fonts that are not embedded (the standard 14 text fonts, Arial, Times New Roman,
Courier New, Liberation), a copy gets exactly what a font repair gives it: each such font becomes a TrueType font
with the metric-compatible Liberation font embedded (Liberation Sans for Helvetica and Arial, Serif for Times, Mono
for Courier), encoding and /Widths kept. Nothing else changes. poppler renders input and copy (pdftoppm, 36 dpi,
grey; for the input it substitutes its own fonts: URW Nimbus for the standard 14, Liberation for Arial / Times New
Roman) and the share of pixels whose grey differs by more than 48 is printed for each file's worst page, with the
distribution. A control copy of every file, saved by pikepdf without any change, shows what re-serialisation alone
does to the render.

Usage: /usr/bin/python3 scripts/pdf-corpus/measure-render.py [folder]   (Debian's python3 with python3-pikepdf, python3-pil)
"""
import glob
import json
import os
import subprocess
import sys
import tempfile
import pikepdf
from pikepdf import Name
from PIL import Image

DPI, DELTA = 36, 48
folder = sys.argv[1] if len(sys.argv) > 1 else 'test/fixtures/real-world-pdf'
LIB = '/usr/share/fonts/truetype/liberation2/Liberation{}-{}.ttf'
FAMILY = {'helvetica': 'Sans', 'arial': 'Sans', 'arialmt': 'Sans', 'liberationsans': 'Sans', 'times': 'Serif', 'timesnewroman': 'Serif',
          'timesnewromanpsmt': 'Serif', 'courier': 'Mono', 'couriernew': 'Mono', 'couriernewpsmt': 'Mono'}


def liberation(basefont):
    name = basefont.split('+')[-1]
    fam, _, style = name.replace(',', '-').partition('-')
    fam = fam.lower().replace(' ', '')
    if fam.endswith('-roman'):
        fam = fam[:-6]
    fam = {'times-roman': 'times'}.get(fam, fam)
    if fam not in FAMILY:
        return None
    s = style.lower()
    bold, italic = 'bold' in s, ('italic' in s or 'oblique' in s)
    return LIB.format(FAMILY[fam], 'BoldItalic' if bold and italic else 'Bold' if bold else 'Italic' if italic else 'Regular')


def substitute(src, dst):
    """Embed Liberation for every non-embedded simple font with a metric-compatible Liberation face; count them."""
    n = 0
    with pikepdf.open(src) as pdf:
        cache = {}
        for obj in pdf.objects:
            if not isinstance(obj, pikepdf.Dictionary) or obj.get('/Type') != Name.Font or obj.get('/Subtype') not in (Name.Type1, Name.TrueType):
                continue
            fd = obj.get('/FontDescriptor')
            if fd is not None and any(k in fd for k in ('/FontFile', '/FontFile2', '/FontFile3')):
                continue
            path = liberation(str(obj.get('/BaseFont', '/'))[1:])
            if not path:
                continue
            if path not in cache:
                data = open(path, 'rb').read()
                cache[path] = pdf.make_stream(data, Length1=len(data))
            desc = pikepdf.Dictionary(Type=Name.FontDescriptor, FontName=obj.get('/BaseFont'), Flags=32, FontBBox=[-600, -300, 2000, 1000],
                                      ItalicAngle=0, Ascent=905, Descent=-212, CapHeight=716, StemV=80, FontFile2=cache[path])
            obj.Subtype = Name.TrueType
            obj.FontDescriptor = pdf.make_indirect(desc)
            if '/Encoding' not in obj:
                obj.Encoding = Name.WinAnsiEncoding
            n += 1
        pdf.save(dst)
    return n


def pages(pdf, prefix):
    subprocess.run(['pdftoppm', '-r', str(DPI), '-gray', pdf, prefix], check=True, capture_output=True)
    files = sorted(glob.glob(prefix + '-*.pgm'), key=lambda f: int(f.rsplit('-', 1)[1][:-4]))
    return [Image.open(f) for f in files]


def diff(a, b):
    if a.size != b.size:
        return 1.0
    pa, pb = a.tobytes(), b.tobytes()
    return sum(1 for x, y in zip(pa, pb) if abs(x - y) > DELTA) / len(pa)


manifest = json.load(open(os.path.join(folder, 'manifest.json'), encoding='utf-8'))['files']
work = tempfile.mkdtemp(prefix='measure-render-')
res = {'substituted': [], 'control': []}
for i, e in enumerate(manifest):
    if e['file'].startswith('hostile/'):
        continue
    src = os.path.join(folder, e['file'])
    try:
        a = pages(src, f'{work}/a{i}')
        for group in ('control', 'substituted'):
            copy = f'{work}/{group}{i}.pdf'
            if group == 'control':
                with pikepdf.open(src) as pdf:
                    pdf.save(copy)
            elif substitute(src, copy) == 0:
                continue
            b = pages(copy, f'{work}/{group[0]}{i}')
            if len(a) != len(b):
                continue
            worst = max(diff(x, y) for x, y in zip(a, b))
            res[group].append(worst)
            print(f'{group:<12} {worst * 100:7.3f} %  {e["file"]}', flush=True)
    except Exception as err:  # a file pikepdf or poppler cannot take is left out of the measurement
        print(f'skipped {e["file"]}: {err}', flush=True)
for g, v in res.items():
    v.sort()
    if v:
        q = lambda p: v[min(len(v) - 1, max(0, int(p * len(v) + 0.999) - 1))] * 100
        print(f'{g}: {len(v)} files, worst page per file: median {q(0.5):.3f} %, p90 {q(0.9):.3f} %, p99 {q(0.99):.3f} %, max {v[-1] * 100:.3f} %')
