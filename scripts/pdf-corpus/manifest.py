"""manifest.json of the corpus: what make-corpus.sh recorded for each file (producer, version, how it was made, the
features it was made to have) plus what an independent reader (pikepdf/qpdf) finds in it: pages, header, size,
fonts not embedded, annotations, forms, actions, colour, images, structure. Usage: manifest.py made.jsonl OUTDIR"""
import json
import os
import re
import sys
import pikepdf
from pikepdf import Name

STD14 = {'Helvetica', 'Helvetica-Bold', 'Helvetica-Oblique', 'Helvetica-BoldOblique', 'Times-Roman', 'Times-Bold', 'Times-Italic',
         'Times-BoldItalic', 'Courier', 'Courier-Bold', 'Courier-Oblique', 'Courier-BoldOblique', 'Symbol', 'ZapfDingbats'}


def detect(path):
    raw = open(path, 'rb').read()
    found = set()
    head = raw[:1024]
    m = re.search(rb'%PDF-(\d\.\d)', head)
    header = m.group(1).decode() if m else None
    if not raw.startswith(b'%PDF-'):
        found.add('header-not-at-start')
    if raw.count(b'startxref') > 1:
        found.add('several-xref-sections')
    if b'/LZWDecode' in raw:
        found.add('lzw')
    with pikepdf.open(path) as pdf:
        pages = len(pdf.pages)
        if pdf.is_encrypted:
            found.add('encrypted')
        if pdf.is_linearized:
            found.add('linearized')
        root = pdf.Root
        not_embedded = set()
        for obj in pdf.objects:
            if not isinstance(obj, pikepdf.Dictionary):
                continue
            t = obj.get('/Type')
            st = obj.get('/Subtype')
            if t == Name.ObjStm:
                found.add('object-streams')
            if t == Name.XRef:
                found.add('xref-stream')
            if t == Name.Font and st in (Name.Type1, Name.TrueType, Name.MMType1, Name.CIDFontType0, Name.CIDFontType2):
                fd = obj.get('/FontDescriptor')
                emb = fd is not None and any(k in fd for k in ('/FontFile', '/FontFile2', '/FontFile3'))
                if not emb:
                    base = str(obj.get('/BaseFont', '/?'))[1:]
                    not_embedded.add(base)
                if st == Name.CIDFontType2 and '/CIDToGIDMap' not in obj and emb:
                    found.add('cidtogidmap-missing')
                if fd is not None and '/CIDSet' in fd:
                    found.add('cidset')
            if t == Name.Font and st == Name.Type3:
                found.add('type3-font')
            if t == Name.Annot or ('/Subtype' in obj and '/Rect' in obj and st in (Name.Link, Name.Text, Name.Widget, Name.FreeText)):
                found.add(f'annot:{str(st)[1:]}')
                if '/F' not in obj or not (int(obj.get('/F', 0)) & 4) or (int(obj.get('/F', 0)) & 0x23):
                    if st != Name.Popup:
                        found.add('annot-flags-not-print')
                if '/AP' not in obj and st not in (Name.Popup, Name.Link):
                    found.add('annot-without-appearance')
            if obj.get('/S') == Name.JavaScript:
                found.add('javascript')
            if obj.get('/S') == Name.Launch:
                found.add('action:launch')
            if st == Name.Image:
                if obj.get('/Interpolate') is True:
                    found.add('image:interpolate')
                cs = obj.get('/ColorSpace')
                if cs == Name.DeviceCMYK:
                    found.add('image:devicecmyk')
                bpc = obj.get('/BitsPerComponent')
                if bpc == 16:
                    found.add('image:16bit')
                if '/SMask' in obj:
                    found.add('image:smask')
            if t == Name.ExtGState and ('/TR' in obj or '/TR2' in obj):
                found.add('transfer-function')
            if obj.get('/FT') == Name.Sig:
                found.add('signature-field:signed' if '/V' in obj else 'signature-field:empty')
            if t == Name.Group or obj.get('/S') == Name.Transparency:
                found.add('transparency-group')
            if t == Name.OCG:
                found.add('optional-content')
        for p in pdf.pages:
            for res in _resources(p):
                for _, cs in (res.ColorSpace.items() if '/ColorSpace' in res else []):
                    if isinstance(cs, pikepdf.Array) and len(cs) and cs[0] in (Name.Separation, Name.DeviceN):
                        found.add(f'colour:{str(cs[0])[1:].lower()}')
        if not_embedded:
            std = {f for f in not_embedded if f.split(',')[0] in STD14}
            if std:
                found.add('fonts-not-embedded:std14')
            if not_embedded - std:
                found.add('fonts-not-embedded:other')
        if '/AcroForm' in root:
            found.add('acroform')
            if '/XFA' in root.AcroForm:
                found.add('xfa')
            if root.AcroForm.get('/NeedAppearances') is True:
                found.add('need-appearances')
        if '/Names' in root and '/EmbeddedFiles' in root.Names:
            found.add('embedded-files')
        if '/OutputIntents' in root:
            found.add('output-intent')
        if '/OCProperties' in root:
            found.add('optional-content')
        if '/Metadata' in root:
            try:
                xmp = bytes(root.Metadata.read_bytes()).decode('utf-8', 'replace')
                pm = re.search(r'pdfaid:part(?:>|=")(\d)', xmp)
                cm = re.search(r'pdfaid:conformance(?:>|=")([ABU])', xmp)
                if pm:
                    found.add(f'declares-pdfa:{pm.group(1)}{(cm.group(1) if cm else "").lower()}')
            except Exception:
                pass
        if '/Perms' in root:
            found.add('perms')
        content_cmyk = False
        for p in pdf.pages:
            try:
                data = p.Contents.read_bytes() if isinstance(p.Contents, pikepdf.Stream) else b''.join(c.read_bytes() for c in p.Contents)
            except Exception:
                data = b''
            if re.search(rb'(^|\s)k(\s|$)|(^|\s)K(\s|$)', data):
                content_cmyk = True
        if content_cmyk:
            found.add('colour:devicecmyk')
        info = {}
        if pdf.trailer.get('/Info') is not None:
            for k in ('/Producer', '/Creator'):
                v = pdf.trailer.Info.get(k)
                if v is not None:
                    info[k[1:].lower()] = str(v)
    return {'pages': pages, 'pdf_header': header, 'bytes': len(raw), 'detected': sorted(found), 'fonts_not_embedded': sorted(not_embedded), **({'info': info} if info else {})}


def _resources(page):
    res = page.get('/Resources')
    if res is None:
        return []
    out = [res]
    for _, x in (res.XObject.items() if '/XObject' in res else []):
        if x.get('/Subtype') == Name.Form and '/Resources' in x:
            out.append(x.Resources)
    return out


made, outdir = sys.argv[1], sys.argv[2]
entries = []
for line in open(made, encoding='utf-8'):
    e = json.loads(line)
    e.update(detect(os.path.join(outdir, e['file'])))
    e['signed'] = 'signed' in e['features']
    entries.append(e)
doc = {
    'about': 'Real-world PDF corpus for /v1/convert (issue #30): every file made by scripts/pdf-corpus/make-corpus.sh from our own '
             'fictitious invoice data with the producer named. "features": what the file was made to have; "detected": what pikepdf '
             'finds in it. "signed": carries a real digital signature (convert needs allow_signature_invalidation=true).',
    'files': entries,
}
json.dump(doc, open(os.path.join(outdir, 'manifest.json'), 'w', encoding='utf-8'), ensure_ascii=False, indent=1)
real = {e['producer'] for e in entries if not re.search('hand-built|damaged|hostile', e['producer'])}
print(f'manifest: {len(entries)} files, {len(real)} real producers (and {sum(1 for e in entries if e["producer"] not in real)} hand-built files)')
