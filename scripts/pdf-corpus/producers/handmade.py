"""Hand-built PDFs for what no producer installed here writes, made the way the real producers write it.

Usage: handmade.py VARIANT OUT [INPUT]

Fonts referenced by name and never embedded as Microsoft Word writes them when it may not embed a font (simple TrueType
with WinAnsi and /Widths; Type0 Identity-H with ToUnicode and /W), embedded CIDFontType2 subsets without CIDToGIDMap or
with an incomplete CIDSet, /Widths that disagree with the embedded program, Latin-1 colourant names, LZW content streams,
transfer functions, undeclared XMP properties, optional-content configurations with /AS, annotations in every state a
viewer leaves them, incremental updates, JavaScript and Launch actions, embedded files without AFRelationship, damaged
cross-reference tables, and the hostile inputs of issue #30 (a cyclic /EmbeddedFiles name tree).

The fonts' metrics come from the metric-compatible free fonts installed here (Liberation = Arial / Times New Roman /
Courier New, Carlito = Calibri, Caladea = Cambria), so /Widths are what Word writes for the originals. The glyph ids
(CIDs) of Word's Identity-H fonts are the glyph ids of the font on the writer's machine; the originals are not here, so
the Calibri and Cambria files use Carlito's and Caladea's glyph ids, and the Arial one uses DejaVu Sans glyph ids (as a
file written with a different font version): a repair has to map through /ToUnicode, not assume CID = glyph id.
"""
import io
import re
import sys
import zlib
from fontTools.ttLib import TTFont
from fontTools import subset as ftsubset
from common import DATA as D, lines

variant = out = None
FONTS = {
    'LiberationSans': '/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf',
    'LiberationSans-Bold': '/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf',
    'LiberationSerif': '/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf',
    'LiberationMono': '/usr/share/fonts/truetype/liberation2/LiberationMono-Regular.ttf',
    'Carlito': '/usr/share/fonts/truetype/crosextra/Carlito-Regular.ttf',
    'Carlito-Bold': '/usr/share/fonts/truetype/crosextra/Carlito-Bold.ttf',
    'Caladea': '/usr/share/fonts/truetype/crosextra/Caladea-Regular.ttf',
    'DejaVuSans': '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
}
_tt = {}


def tt(name):
    if name not in _tt:
        _tt[name] = TTFont(FONTS[name])
    return _tt[name]


def advance(name, ch):
    f = tt(name)
    g = f.getBestCmap().get(ord(ch))
    if g is None:
        return 0
    return round(f['hmtx'][g][0] * 1000 / f['head'].unitsPerEm)


def gid(name, ch):
    f = tt(name)
    g = f.getBestCmap().get(ord(ch))
    return f.getGlyphID(g) if g else 0


class Pdf:
    """A minimal writer: numbered objects, a classic xref table, correct offsets (unless asked otherwise)."""

    def __init__(self, version='1.4'):
        self.version = version
        self.objs = {}
        self.n = 0

    def reserve(self):
        self.n += 1
        return self.n

    def add(self, body, num=None):
        num = num or self.reserve()
        self.objs[num] = body.encode('latin-1') if isinstance(body, str) else body
        return num

    def stream(self, dict_entries, data, compress=True, num=None, filt=None):
        if isinstance(data, str):
            data = data.encode('latin-1')
        if filt:
            entries = f'{dict_entries} /Filter /{filt}'
        elif compress:
            data = zlib.compress(data)
            entries = f'{dict_entries} /Filter /FlateDecode'
        else:
            entries = dict_entries
        return self.add(b'<< ' + entries.encode('latin-1') + b' /Length %d >>\nstream\n' % len(data) + data + b'\nendstream', num)

    def bytes(self, root, info=None, trailer_extra=''):
        buf = io.BytesIO()
        buf.write(f'%PDF-{self.version}\n%\xe2\xe3\xcf\xd3\n'.encode('latin-1'))
        offsets = {}
        for num in sorted(self.objs):
            offsets[num] = buf.tell()
            buf.write(b'%d 0 obj\n' % num + self.objs[num] + b'\nendobj\n')
        xref = buf.tell()
        size = max(self.objs) + 1
        buf.write(b'xref\n0 %d\n0000000000 65535 f \n' % size)
        for num in range(1, size):
            buf.write(b'%010d 00000 n \n' % offsets[num] if num in offsets else b'0000000000 65535 f \n')
        info_ref = f' /Info {info} 0 R' if info else ''
        buf.write(f'trailer\n<< /Size {size} /Root {root} 0 R{info_ref} /ID [<8a1f0c6e2b7d4e93a0c5d7e1f2a3b4c5> <8a1f0c6e2b7d4e93a0c5d7e1f2a3b4c5>]{trailer_extra} >>\nstartxref\n{xref}\n%%EOF\n'.encode('latin-1'))
        return buf.getvalue()


def pdf_string(s):
    b = s.encode('cp1252')
    return '(' + ''.join(chr(c) if 32 <= c < 127 and c not in (40, 41, 92) else '\\%03o' % c for c in b) + ')'


def utf16_hex(s):
    return '<FEFF' + s.encode('utf-16-be').hex().upper() + '>'


def info(pdf, producer, creator, title=None, extra=''):
    t = title or f"Rechnung {D['number']}"
    return pdf.add(f"<< /Title {utf16_hex(t)} /Author {utf16_hex(D['seller']['name'])} /Producer {pdf_string(producer)} /Creator {pdf_string(creator)} "
                   f"/CreationDate (D:20261102101500+01'00') /ModDate (D:20261102101500+01'00'){extra} >>")


# ------------------------------------------------------------------------------------------------
# Page content: the invoice as text lines, shown through a text function per font kind

def invoice_ops(show, regular='/F1', bold='/F2', rows=None):
    """Content-stream operators of the invoice page; `show(font, text)` returns the string operand for that font."""
    rows = rows or lines(1)
    ops = ['q 0.2 0.33 0.67 rg 40 800 515 6 re f Q', 'BT', f'{bold} 16 Tf 40 760 Td {show(bold, "Rechnung " + D["number"])} Tj ET']
    y = 740
    for t in (D['seller']['name'], D['seller']['street'], D['seller']['city']):
        ops.append(f'BT {regular} 8 Tf 380 {y} Td {show(regular, t)} Tj ET')
        y -= 10
    y = 700
    for t in (D['buyer']['name'], D['buyer']['street'], D['buyer']['city']):
        ops.append(f'BT {regular} 9 Tf 40 {y} Td {show(regular, t)} Tj ET')
        y -= 12
    y = 630
    for x, t in ((40, 'Pos.'), (70, 'Beschreibung'), (330, 'Menge'), (380, 'Einheit'), (440, 'Preis'), (505, 'Betrag')):
        ops.append(f'BT {bold} 9 Tf {x} {y} Td {show(bold, t)} Tj ET')
    ops.append(f'0.6 G 0.4 w 40 {y - 4} m 555 {y - 4} l S')
    y -= 18
    for l in rows:
        for x, k in ((40, 'pos'), (70, 'desc'), (330, 'qty'), (380, 'unit'), (440, 'price'), (505, 'total')):
            ops.append(f'BT {regular} 9 Tf {x} {y} Td {show(regular, l[k])} Tj ET')
        y -= 15
    ops.append(f'BT {bold} 10 Tf 400 {y - 10} Td {show(bold, "Gesamtbetrag " + D["gross"])} Tj ET')
    ops.append(f'BT {regular} 8 Tf 40 60 Td {show(regular, D["terms"])} Tj ET')
    return '\n'.join(ops)


def winansi_show(font, text):
    return pdf_string(text)


def simple_truetype(pdf, basefont, metrics, flags=32, embed=None):
    """A simple TrueType font with WinAnsiEncoding and /Widths 32..255 from `metrics` (a font of FONTS)."""
    widths = []
    for code in range(32, 256):
        try:
            ch = bytes([code]).decode('cp1252')
        except UnicodeDecodeError:
            ch = ''
        widths.append(str(advance(metrics, ch)) if ch else '0')
    f = tt(metrics)
    upm = f['head'].unitsPerEm
    s = lambda v: round(v * 1000 / upm)
    hh = f['hhea']
    bbox = f['head']
    fd = (f"<< /Type /FontDescriptor /FontName /{basefont} /Flags {flags} /ItalicAngle 0 /Ascent {s(hh.ascent)} /Descent {s(hh.descent)} "
          f"/CapHeight {s(getattr(f['OS/2'], 'sCapHeight', 700) or 700)} /AvgWidth {s(f['OS/2'].xAvgCharWidth)} /MaxWidth {s(hh.advanceWidthMax)} "
          f"/FontWeight {f['OS/2'].usWeightClass} /XHeight 250 /StemV 80 /FontBBox [{s(bbox.xMin)} {s(bbox.yMin)} {s(bbox.xMax)} {s(bbox.yMax)}]")
    if embed is not None:
        fd += f' /FontFile2 {embed} 0 R'
    fd += ' >>'
    fdn = pdf.add(fd)
    wn = pdf.add('[' + ' '.join(widths) + ']')
    return pdf.add(f'<< /Type /Font /Subtype /TrueType /BaseFont /{basefont} /Encoding /WinAnsiEncoding /FontDescriptor {fdn} 0 R /FirstChar 32 /LastChar 255 /Widths {wn} 0 R >>')


def tounicode(pairs):
    body = ['/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
            '/CMapName /Adobe-Identity-UCS def /CMapType 2 def 1 begincodespacerange <0000> <FFFF> endcodespacerange']
    items = sorted(pairs.items())
    for i in range(0, len(items), 100):
        chunk = items[i:i + 100]
        body.append(f'{len(chunk)} beginbfchar')
        body += [f'<{c:04X}> <{ord(u):04X}>' for c, u in chunk]
        body.append('endbfchar')
    body.append('endcmap CMapName currentdict /CMap defineresource pop end end')
    return '\n'.join(body)


class Type0:
    """A Type0 / CIDFontType2 font with Identity-H: CIDs from `gid_font`'s glyph ids, widths from `metrics`."""

    def __init__(self, basefont, metrics, gid_font=None):
        self.basefont, self.metrics, self.gid_font = basefont, metrics, gid_font or metrics
        self.used = {}

    def show(self, text):
        out = []
        for ch in text:
            cid = gid(self.gid_font, ch)
            self.used[cid] = ch
            out.append(f'{cid:04X}')
        return '<' + ''.join(out) + '>'

    def write(self, pdf, fontfile=None, cidtogid=True, cidset=None):
        w = ' '.join(f'{cid} [{advance(self.metrics, ch)}]' for cid, ch in sorted(self.used.items()))
        f = tt(self.metrics)
        upm = f['head'].unitsPerEm
        s = lambda v: round(v * 1000 / upm)
        fd = (f"<< /Type /FontDescriptor /FontName /{self.basefont} /Flags 32 /ItalicAngle 0 /Ascent {s(f['hhea'].ascent)} /Descent {s(f['hhea'].descent)} "
              f"/CapHeight 700 /AvgWidth {s(f['OS/2'].xAvgCharWidth)} /MaxWidth {s(f['hhea'].advanceWidthMax)} /FontWeight {f['OS/2'].usWeightClass} /XHeight 250 /StemV 80 "
              f"/FontBBox [{s(f['head'].xMin)} {s(f['head'].yMin)} {s(f['head'].xMax)} {s(f['head'].yMax)}]")
        if fontfile:
            fd += f' /FontFile2 {fontfile} 0 R'
        if cidset:
            fd += f' /CIDSet {cidset} 0 R'
        fdn = pdf.add(fd + ' >>')
        cid = pdf.add(f"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /{self.basefont} /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> "
                      f"/FontDescriptor {fdn} 0 R /DW 1000 /W [{w}]{' /CIDToGIDMap /Identity' if cidtogid else ''} >>")
        tu = pdf.stream('', tounicode(self.used))
        return pdf.add(f'<< /Type /Font /Subtype /Type0 /BaseFont /{self.basefont} /Encoding /Identity-H /DescendantFonts [{cid} 0 R] /ToUnicode {tu} 0 R >>')


def subset_program(name, text, extra_text=''):
    """The TrueType program of `name` cut down to the glyphs of text (+ extra_text), glyph ids kept."""
    font = TTFont(FONTS[name])
    opts = ftsubset.Options()
    opts.retain_gids = True
    opts.notdef_outline = True
    opts.name_IDs = ['*']
    opts.layout_features = []
    opts.hinting = False
    sub = ftsubset.Subsetter(opts)
    sub.populate(unicodes=[ord(c) for c in set(text + extra_text)])
    sub.subset(font)
    b = io.BytesIO()
    font.save(b)
    return b.getvalue()


def all_text():
    t = ''.join(''.join(l.values()) for l in lines(1))
    return t + ''.join(D['seller'].values()) + ''.join(D['buyer'].values()) + D['terms'] + D['gross'] + 'Rechnung Gesamtbetrag Pos.BeschreibungMengeEinheitPreisBetrag' + D['number']


def page_tree(pdf, contents, resources, annots='', extra_page='', mediabox='[0 0 595 842]'):
    pages = pdf.reserve()
    kids = []
    for c in contents:
        kids.append(pdf.add(f'<< /Type /Page /Parent {pages} 0 R /MediaBox {mediabox} /Resources {resources} /Contents {c} 0 R{annots}{extra_page} >>'))
    pdf.add(f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} >>", pages)
    return pages, kids


def lzw_encode(data):
    """LZW as PDF's LZWDecode reads it (EarlyChange 1, 9..12-bit codes, clear-table 256, EOD 257)."""
    table = {bytes([i]): i for i in range(256)}
    nxt, width = 258, 9
    bits, nbits, out = 0, 0, bytearray()

    def emit(code):
        nonlocal bits, nbits
        bits = (bits << width) | code
        nbits += width
        while nbits >= 8:
            nbits -= 8
            out.append((bits >> nbits) & 0xFF)

    emit(256)
    w = b''
    for c in data:
        wc = w + bytes([c])
        if wc in table:
            w = wc
            continue
        emit(table[w])
        table[wc] = nxt
        nxt += 1
        if nxt + 1 > (1 << width) and width < 12:
            width += 1
        if nxt >= 4094:
            emit(256)
            table = {bytes([i]): i for i in range(256)}
            nxt, width = 258, 9
        w = bytes([c])
    if w:
        emit(table[w])
    emit(257)
    if nbits:
        out.append((bits << (8 - nbits)) & 0xFF)
    return bytes(out)


def word_catalog(pdf, pages, extra=''):
    return pdf.add(f'<< /Type /Catalog /Pages {pages} 0 R /Lang (de-DE){extra} >>')


def build():
    pdf = Pdf('1.7')
    if variant == 'word-truetype-not-embedded':
        # Word "Save as PDF" of a document in Arial, Times New Roman and Courier New with embedding off.
        pdf.version = '1.5'
        f1 = simple_truetype(pdf, 'ArialMT', 'LiberationSans')
        f2 = simple_truetype(pdf, 'Arial,Bold', 'LiberationSans-Bold', flags=32 | 262144)
        f3 = simple_truetype(pdf, 'TimesNewRomanPSMT', 'LiberationSerif', flags=34)
        f4 = simple_truetype(pdf, 'CourierNewPSMT', 'LiberationMono', flags=33)
        ops = invoice_ops(winansi_show) + f'\nBT /F3 9 Tf 40 90 Td {pdf_string("Vielen Dank für Ihren Auftrag – merci beaucoup.")} Tj ET\nBT /F4 8 Tf 40 76 Td {pdf_string("Ref. 0417/A € 1.599,00")} Tj ET'
        c = pdf.stream('', ops)
        pages, _ = page_tree(pdf, [c], f'<< /Font << /F1 {f1} 0 R /F2 {f2} 0 R /F3 {f3} 0 R /F4 {f4} 0 R >> /ProcSet [/PDF /Text] >>')
        return pdf.bytes(word_catalog(pdf, pages), info(pdf, 'Microsoft® Word 2016', 'Microsoft® Word 2016'))
    if variant in ('word-type0-calibri-cambria', 'word-type0-arial-foreign-gids'):
        # Word's Identity-H fonts with ToUnicode and /W, not embedded.
        if variant == 'word-type0-calibri-cambria':
            reg, bold = Type0('Calibri', 'Carlito'), Type0('Cambria', 'Caladea')
        else:
            reg, bold = Type0('ArialMT', 'LiberationSans', 'DejaVuSans'), Type0('Arial-BoldMT', 'LiberationSans-Bold', 'DejaVuSans')
        show = lambda font, text: (bold if font == '/F2' else reg).show(text)
        ops = invoice_ops(show)
        c = pdf.stream('', ops)
        f1, f2 = reg.write(pdf), bold.write(pdf)
        pages, _ = page_tree(pdf, [c], f'<< /Font << /F1 {f1} 0 R /F2 {f2} 0 R >> /ProcSet [/PDF /Text] >>')
        return pdf.bytes(word_catalog(pdf, pages, ' /MarkInfo << /Marked true >>'), info(pdf, 'Microsoft® Word für Microsoft 365', 'Microsoft® Word für Microsoft 365'))
    if variant.startswith(('cidfont-no-cidtogidmap', 'cidset-incomplete')):
        # An embedded CIDFontType2 subset (glyph ids kept) written without /CIDToGIDMap, or with a /CIDSet that
        # lists the glyphs of the first page only while the program holds those of both pages.
        fontname = {'carlito': 'Carlito', 'caladea': 'Caladea', 'bold': 'LiberationSans-Bold'}.get(variant.rsplit('-', 1)[-1], 'LiberationSans')
        reg = Type0('ABCDEF+' + fontname.replace('LiberationSans', 'LiberationSans'), fontname)
        show = lambda font, text: reg.show(text)
        page1 = invoice_ops(show, '/F1', '/F1')
        later = 'Zahlungserinnerung: Wir bitten um Überweisung – Référence 0417 ½ ¼ ¾ ©'
        page2 = f'BT /F1 11 Tf 40 760 Td {reg.show(later)} Tj ET'
        used_page1 = set(gid(fontname, ch) for ch in all_text()) | {0}
        prog = subset_program(fontname, all_text(), later)
        ff = pdf.stream(f'/Length1 {len(prog)}', prog)
        cidset = None
        if variant.startswith('cidset-incomplete'):
            nbits = max(reg.used) + 1
            bits = bytearray((nbits + 7) // 8)
            for g in used_page1:
                bits[g // 8] |= 0x80 >> (g % 8)
            cidset = pdf.stream('', bytes(bits))
        c1, c2 = pdf.stream('', page1), pdf.stream('', page2)
        f1 = reg.write(pdf, ff, cidtogid=not variant.startswith('cidfont-no-cidtogidmap'), cidset=cidset)
        pages, _ = page_tree(pdf, [c1, c2], f'<< /Font << /F1 {f1} 0 R >> >>')
        producer = 'report writer (hand-built, no CIDToGIDMap)' if variant.startswith('cidfont-no-cidtogidmap') else 'Microsoft® Word 2010'
        return pdf.bytes(word_catalog(pdf, pages), info(pdf, producer, producer))
    if variant == 'widths-mismatch':
        # A substitute font embedded (DejaVu Sans) under the original's widths (Arial's): what a producer writes when
        # it keeps the metrics of the requested font and embeds whatever font it found.
        prog = subset_program('DejaVuSans', all_text() + ''.join(chr(c) for c in range(32, 127)))
        ff = pdf.stream(f'/Length1 {len(prog)}', prog)
        f1 = simple_truetype(pdf, 'EFGHIJ+ArialMT', 'LiberationSans', embed=ff)
        c = pdf.stream('', invoice_ops(winansi_show, '/F1', '/F1'))
        pages, _ = page_tree(pdf, [c], f'<< /Font << /F1 {f1} 0 R >> >>')
        return pdf.bytes(word_catalog(pdf, pages), info(pdf, 'Nitro PDF Creator', 'Rechnungsdruck'))
    if variant == 'widths-mismatch-type0':
        # A Type0 font whose /W comes from Calibri's metrics (Carlito) over an embedded Liberation Sans program.
        reg = Type0('KLMNOP+Calibri', 'Carlito', 'LiberationSans')
        c = pdf.stream('', invoice_ops(lambda f, t: reg.show(t), '/F1', '/F1'))
        prog = subset_program('LiberationSans', all_text())
        ff = pdf.stream(f'/Length1 {len(prog)}', prog)
        f1 = reg.write(pdf, ff)
        pages, _ = page_tree(pdf, [c], f'<< /Font << /F1 {f1} 0 R >> >>')
        return pdf.bytes(word_catalog(pdf, pages), info(pdf, 'substituting writer (hand-built)', 'Rechnungsdruck'))
    if variant in ('xfa-static', 'xfa-dynamic-js'):
        # LiveCycle Designer forms: the XFA packets (array form) next to AcroForm fields; the dynamic one with
        # NeedsRendering and form-calc scripts, the static one with NeedAppearances.
        f1 = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>')
        c = pdf.stream('', invoice_ops(winansi_show, '/F1', '/F1'))
        pages = pdf.reserve()
        page = pdf.reserve()
        ap = pdf.stream('/Type /XObject /Subtype /Form /BBox [0 0 200 18] /Resources << /Font << /Helv %d 0 R >> >>' % f1, '/Tx BMC BT /Helv 9 Tf 2 5 Td (PO-88412) Tj ET EMC')
        field = pdf.add(f'<< /Type /Annot /Subtype /Widget /FT /Tx /T (po) /V (PO-88412) /Rect [300 100 500 118] /F 4 /DA (/Helv 9 Tf 0 g) /P {page} 0 R /AP << /N {ap} 0 R >> >>')
        pdf.add(f'<< /Type /Page /Parent {pages} 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 {f1} 0 R >> >> /Contents {c} 0 R /Annots [{field} 0 R] >>', page)
        pdf.add(f'<< /Type /Pages /Kids [{page} 0 R] /Count 1 >>', pages)
        script = '<script contentType="application/x-javascript">xfa.host.messageBox("Bitte pruefen");</script>' if variant == 'xfa-dynamic-js' else ''
        packets = [('preamble', '<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/" timeStamp="2026-11-02T10:00:00Z">'),
                   ('template', f'<template xmlns="http://www.xfa.org/schema/xfa-template/3.3/"><subform name="form1" layout="tb"><pageSet><pageArea name="Page1"/></pageSet><field name="po" w="70mm" h="6mm"><ui><textEdit/></ui>{script}</field></subform></template>'),
                   ('datasets', '<xfa:datasets xmlns:xfa="http://www.xfa.org/schema/xfa-data/1.0/"><xfa:data><form1><po>PO-88412</po></form1></xfa:data></xfa:datasets>'),
                   ('postamble', '</xdp:xdp>')]
        arr = ' '.join(f'({n}) {pdf.stream("", body)} 0 R' for n, body in packets)
        helv = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Name /Helv >>')
        extra = ' /NeedsRendering true' if variant == 'xfa-dynamic-js' else ''
        na = '' if variant == 'xfa-dynamic-js' else ' /NeedAppearances true'
        return pdf.bytes(pdf.add(f'<< /Type /Catalog /Pages {pages} 0 R /AcroForm << /Fields [{field} 0 R] /DR << /Font << /Helv {helv} 0 R >> >> /DA (/Helv 0 Tf 0 g) /XFA [{arr}]{na} >>{extra} >>'),
                         info(pdf, 'Adobe LiveCycle Designer ES 9.0', 'Adobe LiveCycle Designer ES 9.0'))
    if variant == 'acroform-need-appearances':
        # A form whose fields have no appearance streams and /NeedAppearances true (the viewer draws them), as
        # form-filling libraries leave it after setting values.
        f1 = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>')
        c = pdf.stream('', invoice_ops(winansi_show, '/F1', '/F1'))
        pages = pdf.reserve()
        page = pdf.reserve()
        fields = []
        for i, (name, value) in enumerate((('kunde', 'K-88412'), ('bestellung', 'PO-88412'), ('lieferdatum', '30.10.2026'))):
            fields.append(pdf.add(f'<< /Type /Annot /Subtype /Widget /FT /Tx /T ({name}) /V ({value}) /Rect [300 {150 - i * 22} 500 {168 - i * 22}] /F 4 /DA (/Helv 9 Tf 0 g) /P {page} 0 R >>'))
        cb = pdf.add(f'<< /Type /Annot /Subtype /Widget /FT /Btn /T (bezahlt) /V /Off /AS /Off /Rect [300 60 314 74] /F 4 /MK << /CA (4) >> /DA (/ZaDb 0 Tf 0 g) /P {page} 0 R >>')
        fields.append(cb)
        pdf.add(f"<< /Type /Page /Parent {pages} 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 {f1} 0 R >> >> /Contents {c} 0 R /Annots [{' '.join(f'{x} 0 R' for x in fields)}] >>", page)
        pdf.add(f'<< /Type /Pages /Kids [{page} 0 R] /Count 1 >>', pages)
        helv = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Name /Helv >>')
        zadb = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /ZapfDingbats /Name /ZaDb >>')
        return pdf.bytes(pdf.add(f"<< /Type /Catalog /Pages {pages} 0 R /AcroForm << /Fields [{' '.join(f'{x} 0 R' for x in fields)}] /NeedAppearances true /DR << /Font << /Helv {helv} 0 R /ZaDb {zadb} 0 R >> >> /DA (/Helv 0 Tf 0 g) >> >>"),
                         info(pdf, 'form filler (hand-built)', 'Microsoft Word'))
    if variant == 'latin1-devicen':
        # DeviceN colorants and a font resource named in Latin-1 (a prepress tool of the 1990s).
        f1 = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>')
        fn2 = pdf.stream('/FunctionType 4 /Domain [0 1 0 1] /Range [0 1 0 1 0 1 0 1]', '{ 0 0 3 -1 roll 0.1 mul }', compress=False)
        cs = f'[/DeviceN [/Blau#E4ugig /Gr#FCn] /DeviceCMYK {fn2} 0 R]'
        ops = 'q /CS1 cs 1 0.5 scn 0 812 595 30 re f Q\n' + invoice_ops(winansi_show, '/Schrift#E41', '/Schrift#E41')
        c = pdf.stream('', ops)
        pages, _ = page_tree(pdf, [c], f'<< /Font << /Schrift#E41 {f1} 0 R >> /ColorSpace << /CS1 {cs} >> >>')
        return pdf.bytes(pdf.add(f'<< /Type /Catalog /Pages {pages} 0 R >>'), info(pdf, 'prepress tool (hand-built)', 'Satzsystem'))
    if variant == 'transfer-in-form':
        # A transfer function inside a form XObject's graphics state: a scanned letterhead placed as a form.
        f1 = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>')
        fn = pdf.add('<< /FunctionType 2 /Domain [0 1] /C0 [0] /C1 [1] /N 1.4 >>')
        gs = pdf.add(f'<< /Type /ExtGState /TR [{fn} 0 R {fn} 0 R {fn} 0 R {fn} 0 R] >>')
        form = pdf.stream(f'/Type /XObject /Subtype /Form /BBox [0 0 595 60] /Resources << /ExtGState << /G0 {gs} 0 R >> >>', '/G0 gs 0.2 0.3 0.6 rg 0 0 595 60 re f')
        c = pdf.stream('', 'q 1 0 0 1 0 782 cm /Fm0 Do Q\n' + invoice_ops(winansi_show, '/F1', '/F1'))
        pages, _ = page_tree(pdf, [c], f'<< /Font << /F1 {f1} 0 R >> /XObject << /Fm0 {form} 0 R >> >>')
        return pdf.bytes(pdf.add(f'<< /Type /Catalog /Pages {pages} 0 R >>'), info(pdf, 'scan software (hand-built)', 'Briefpapier'))
    if variant == 'latin1-names':
        # Names written in Latin-1, not UTF-8: a spot colour "Grün" and a font resource name with an umlaut.
        pdf.version = '1.4'
        f1 = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>')
        fn = pdf.add('<< /FunctionType 2 /Domain [0 1] /C0 [0 0 0 0] /C1 [0.8 0 1 0.1] /N 1 >>')
        ops = 'q /CS0 cs 1 scn 0 812 595 30 re f Q\n' + invoice_ops(winansi_show, '/F#FC1', '/F#FC1')
        c = pdf.stream('', ops)
        pages, _ = page_tree(pdf, [c], f'<< /Font << /F#FC1 {f1} 0 R >> /ColorSpace << /CS0 [/Separation /Gr#FCn /DeviceCMYK {fn} 0 R] >> >>')
        return pdf.bytes(pdf.add(f'<< /Type /Catalog /Pages {pages} 0 R >>'), info(pdf, 'QuarkXPress Passport 4.11', 'QuarkXPress'))
    if variant == 'lzw-content':
        # LZW-compressed content (PDF 1.3 era writers, Acrobat Distiller 3 and TIFF-based scan software).
        pdf.version = '1.3'
        f1 = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>')
        f2 = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Times-Bold /Encoding /WinAnsiEncoding >>')
        data = invoice_ops(winansi_show).encode('latin-1')
        c = pdf.stream('', lzw_encode(data), filt='LZWDecode')
        pages, _ = page_tree(pdf, [c], f'<< /Font << /F1 {f1} 0 R /F2 {f2} 0 R >> /ProcSet [/PDF /Text] >>')
        return pdf.bytes(pdf.add(f'<< /Type /Catalog /Pages {pages} 0 R >>'), info(pdf, 'Acrobat Distiller 3.01 for Windows', 'Microsoft Word'))
    if variant == 'transfer-function':
        # ExtGState transfer functions (/TR and /TR2), as print drivers write a density curve.
        f1 = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>')
        fn = pdf.add('<< /FunctionType 2 /Domain [0 1] /C0 [0.1] /C1 [1] /N 0.8 >>')
        gs = pdf.add(f'<< /Type /ExtGState /TR {fn} 0 R /TR2 {fn} 0 R /SA true >>')
        c = pdf.stream('', '/GS1 gs\n' + invoice_ops(winansi_show, '/F1', '/F1'))
        pages, _ = page_tree(pdf, [c], f'<< /Font << /F1 {f1} 0 R >> /ExtGState << /GS1 {gs} 0 R >> >>')
        return pdf.bytes(pdf.add(f'<< /Type /Catalog /Pages {pages} 0 R >>'), info(pdf, 'PScript5.dll Version 5.2.2', 'Acrobat PDFMaker'))
    if variant == 'xmp-custom-properties':
        # XMP with custom document properties (Acrobat's pdfx: namespace) and a private schema, never declared.
        f1 = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>')
        c = pdf.stream('', invoice_ops(winansi_show, '/F1', '/F1'))
        pages, _ = page_tree(pdf, [c], f'<< /Font << /F1 {f1} 0 R >> >>')
        xmp = f'''<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
 xmlns:pdfx="http://ns.adobe.com/pdfx/1.3/" xmlns:erp="http://example.com/ns/erp/1.0/">
<dc:format>application/pdf</dc:format><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Rechnung {D['number']}</rdf:li></rdf:Alt></dc:title>
<pdf:Producer>Acrobat PDFMaker 23 für Word</pdf:Producer><xmp:CreateDate>2026-11-02T10:15:00+01:00</xmp:CreateDate>
<pdfx:Kundennummer>K-88412</pdfx:Kundennummer><pdfx:Belegart>Rechnung</pdfx:Belegart><erp:DocumentId>0417</erp:DocumentId>
</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>'''
        meta = pdf.stream('/Type /Metadata /Subtype /XML', xmp.encode('utf-8'), compress=False)
        return pdf.bytes(pdf.add(f'<< /Type /Catalog /Pages {pages} 0 R /Metadata {meta} 0 R >>'), info(pdf, 'Acrobat PDFMaker 23 für Word', 'Microsoft Word', extra=' /Kundennummer (K-88412)'))
    if variant == 'ocg-as-config':
        # Optional content as Illustrator/InDesign write it: a print-state /AS entry, a config without /Name.
        f1 = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>')
        ocg1 = pdf.add('<< /Type /OCG /Name (Hintergrund) /Usage << /Print << /PrintState /ON >> /View << /ViewState /ON >> >> >>')
        ocg2 = pdf.add('<< /Type /OCG /Name (Entwurf) /Usage << /Print << /PrintState /OFF >> >> >>')
        ops = f'/OC /L1 BDC q 0.9 0.95 1 rg 0 0 595 842 re f Q EMC\n/OC /L2 BDC BT /F1 60 Tf 0.9 0.8 0.8 rg 120 400 Td (ENTWURF) Tj ET EMC\n' + invoice_ops(winansi_show, '/F1', '/F1')
        c = pdf.stream('', ops)
        pages, _ = page_tree(pdf, [c], f'<< /Font << /F1 {f1} 0 R >> /Properties << /L1 {ocg1} 0 R /L2 {ocg2} 0 R >> >>')
        ocp = (f'/OCProperties << /OCGs [{ocg1} 0 R {ocg2} 0 R] /D << /Order [{ocg1} 0 R {ocg2} 0 R] /ON [{ocg1} 0 R {ocg2} 0 R] '
               f'/AS [<< /Event /Print /OCGs [{ocg1} 0 R {ocg2} 0 R] /Category [/Print] >> << /Event /View /OCGs [{ocg1} 0 R {ocg2} 0 R] /Category [/View] >>] >> '
               f'/Configs [<< /Order [{ocg1} 0 R] >>] >>')
        return pdf.bytes(pdf.add(f'<< /Type /Catalog /Pages {pages} 0 R {ocp} >>'), info(pdf, 'Adobe PDF Library 15.0', 'Adobe InDesign 16.0 (Windows)'))
    if variant == 'annotations-viewer':
        # What reviewers leave in a viewer: comments with popups, a hidden and an unprintable note, a stamp and a
        # free-text box without appearance streams, highlights, a widget without appearance, links without /F.
        f1 = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>')
        c = pdf.stream('', invoice_ops(winansi_show, '/F1', '/F1'))
        pages = pdf.reserve()
        page = pdf.reserve()
        popup = pdf.reserve()
        note = pdf.add(f'<< /Type /Annot /Subtype /Text /Rect [500 600 520 620] /Contents {utf16_hex("Preis für Pos. 4 prüfen")} /T (Buchhaltung) /Name /Comment /F 4 /Popup {popup} 0 R /P {page} 0 R >>')
        pdf.add(f'<< /Type /Annot /Subtype /Popup /Rect [520 520 700 620] /Parent {note} 0 R /Open false >>', popup)
        hidden = pdf.add('<< /Type /Annot /Subtype /Text /Rect [500 560 520 580] /Contents (intern) /F 2 >>')
        noprint = pdf.add('<< /Type /Annot /Subtype /Square /Rect [60 500 200 530] /C [1 0 0] /F 0 >>')
        noview = pdf.add('<< /Type /Annot /Subtype /Circle /Rect [300 500 360 530] /C [0 0 1] /F 36 >>')
        stamp = pdf.add('<< /Type /Annot /Subtype /Stamp /Rect [380 150 550 200] /Name /Approved /F 4 >>')
        free = pdf.add('<< /Type /Annot /Subtype /FreeText /Rect [40 150 250 180] /Contents (Geprüft 03.11.2026) /DA (/Helv 10 Tf 0 g) /F 4 >>')
        hl = pdf.add('<< /Type /Annot /Subtype /Highlight /Rect [68 590 300 602] /QuadPoints [68 602 300 602 68 590 300 590] /C [1 1 0] /F 4 >>')
        link = pdf.add('<< /Type /Annot /Subtype /Link /Rect [40 55 300 70] /Border [0 0 0] /A << /S /URI /URI (https://example.com/rechnung) >> >>')
        field = pdf.add(f'<< /Type /Annot /Subtype /Widget /FT /Tx /T (bemerkung) /V (keine) /Rect [300 100 500 118] /F 4 /DA (/Helv 9 Tf 0 g) /P {page} 0 R >>')
        annots = [note, popup, hidden, noprint, noview, stamp, free, hl, link, field]
        pdf.add(f"<< /Type /Page /Parent {pages} 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 {f1} 0 R >> >> /Contents {c} 0 R /Annots [{' '.join(f'{a} 0 R' for a in annots)}] >>", page)
        pdf.add(f'<< /Type /Pages /Kids [{page} 0 R] /Count 1 >>', pages)
        helv = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Name /Helv >>')
        return pdf.bytes(pdf.add(f'<< /Type /Catalog /Pages {pages} 0 R /AcroForm << /Fields [{field} 0 R] /DR << /Font << /Helv {helv} 0 R >> >> /DA (/Helv 0 Tf 0 g) >> >>'),
                         info(pdf, 'Adobe Acrobat Pro DC 21.1.20155', 'Microsoft Word'))
    if variant == 'actions-javascript':
        # Forbidden actions: an OpenAction and a page-open action in JavaScript, a Launch action on a link,
        # document JavaScript in the names tree, a named action and a catalog /AA.
        f1 = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>')
        c = pdf.stream('', invoice_ops(winansi_show, '/F1', '/F1'))
        js = pdf.stream('', "var d = util.printd('dd.mm.yyyy', new Date()); this.info.Gedruckt = d;")
        link = pdf.add('<< /Type /Annot /Subtype /Link /Rect [40 55 300 70] /F 4 /Border [0 0 0] /A << /S /Launch /F (lieferschein.pdf) /NewWindow true >> >>')
        nav = pdf.add('<< /Type /Annot /Subtype /Link /Rect [40 40 120 52] /F 4 /Border [0 0 0] /A << /S /Named /N /Print >> >>')
        pages, _ = page_tree(pdf, [c], f'<< /Font << /F1 {f1} 0 R >> >>', annots=f' /Annots [{link} 0 R {nav} 0 R]',
                             extra_page=' /AA << /O << /S /JavaScript /JS (app.alert\\("Bitte pruefen"\\);) >> >>')
        names = pdf.add(f'<< /JavaScript << /Names [(Datum) << /S /JavaScript /JS {js} 0 R >>] >> >>')
        return pdf.bytes(pdf.add(f'<< /Type /Catalog /Pages {pages} 0 R /Names {names} 0 R /OpenAction << /S /JavaScript /JS (this.print\\({{bUI: true}}\\);) >> '
                                 f'/AA << /WC << /S /JavaScript /JS (app.alert\\("Danke"\\);) >> >> >>'), info(pdf, 'Crystal Reports', 'Crystal Reports'))
    if variant == 'embedded-files':
        # An ERP's attachments: a delivery note in the EmbeddedFiles name tree and a file-attachment annotation,
        # neither with /AFRelationship nor in /AF (PDF 1.7 practice before PDF/A-3).
        f1 = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>')
        c = pdf.stream('', invoice_ops(winansi_show, '/F1', '/F1'))
        data = 'Lieferschein 0417\nPos;Artikel;Menge\n1;Schraubendreher-Satz;4\n'.encode('utf-8')
        ef = pdf.stream(f'/Type /EmbeddedFile /Subtype /text#2Fcsv /Params << /Size {len(data)} >>', data)
        fs = pdf.add(f'<< /Type /Filespec /F (lieferschein.csv) /UF {utf16_hex("lieferschein.csv")} /EF << /F {ef} 0 R >> /Desc (Lieferschein) >>')
        data2 = b'%PDF-1.4 placeholder of an attached order confirmation\n'
        ef2 = pdf.stream('/Type /EmbeddedFile', data2)
        fs2 = pdf.add(f'<< /Type /Filespec /F (auftrag.txt) /EF << /F {ef2} 0 R >> >>')
        att = pdf.add(f'<< /Type /Annot /Subtype /FileAttachment /Rect [540 780 555 800] /FS {fs2} 0 R /Name /Paperclip /F 4 /Contents (Auftrag) >>')
        pages, _ = page_tree(pdf, [c], f'<< /Font << /F1 {f1} 0 R >> >>', annots=f' /Annots [{att} 0 R]')
        names = pdf.add(f'<< /EmbeddedFiles << /Names [(lieferschein.csv) {fs} 0 R] >> >>')
        return pdf.bytes(pdf.add(f'<< /Type /Catalog /Pages {pages} 0 R /Names {names} 0 R /PageMode /UseAttachments >>'), info(pdf, 'SAP NetWeaver 7.5', 'SAP Smart Forms'))
    if variant == 'pdf20':
        # A PDF 2.0 file (header 2.0, no Info dictionary but XMP, as ISO 32000-2 recommends).
        pdf.version = '2.0'
        reg = Type0('GHIJKL+LiberationSans', 'LiberationSans')
        show = lambda font, text: reg.show(text)
        ops = invoice_ops(show, '/F1', '/F1')
        prog = subset_program('LiberationSans', all_text())
        ff = pdf.stream(f'/Length1 {len(prog)}', prog)
        c = pdf.stream('', ops)
        f1 = reg.write(pdf, ff)
        pages, _ = page_tree(pdf, [c], f'<< /Font << /F1 {f1} 0 R >> >>')
        xmp = f'''<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Rechnung {D['number']}</rdf:li></rdf:Alt></dc:title><pdf:Producer>pdf corpus hand-built 2.0 writer</pdf:Producer></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>'''
        meta = pdf.stream('/Type /Metadata /Subtype /XML', xmp.encode('utf-8'), compress=False)
        return pdf.bytes(pdf.add(f'<< /Type /Catalog /Pages {pages} 0 R /Metadata {meta} 0 R >>'))
    if variant == 'cyclic-embeddedfiles':
        # Hostile (issue #30): an /EmbeddedFiles name tree whose Kids lead back to its root.
        f1 = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>')
        c = pdf.stream('', invoice_ops(winansi_show, '/F1', '/F1'))
        pages, _ = page_tree(pdf, [c], f'<< /Font << /F1 {f1} 0 R >> >>')
        data = b'Lieferschein 0417'
        ef = pdf.stream(f'/Type /EmbeddedFile /Params << /Size {len(data)} >>', data)
        fs = pdf.add(f'<< /Type /Filespec /F (lieferschein.txt) /UF (lieferschein.txt) /EF << /F {ef} 0 R >> >>')
        root = pdf.reserve()
        mid = pdf.reserve()
        leaf = pdf.add(f'<< /Names [(lieferschein.txt) {fs} 0 R] /Limits [(lieferschein.txt) (lieferschein.txt)] >>')
        pdf.add(f'<< /Kids [{leaf} 0 R {root} 0 R] /Limits [(a) (z)] >>', mid)
        pdf.add(f'<< /Kids [{mid} 0 R] >>', root)
        names = pdf.add(f'<< /EmbeddedFiles {root} 0 R >>')
        return pdf.bytes(pdf.add(f'<< /Type /Catalog /Pages {pages} 0 R /Names {names} 0 R >>'), info(pdf, 'hostile test input', 'pdf corpus'))
    if variant == 'many-findings':
        # A 12-page statement of account with 40 links per page (one per invoice) and a non-embedded font:
        # hundreds of findings (each link's missing /F), the input behind issue #30's 182 KB refusal body.
        pdf.version = '1.4'
        f1 = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>')
        pages = pdf.reserve()
        kids = []
        for p in range(12):
            ops, annots = [f'BT /F1 12 Tf 40 800 Td (Kontoauszug Seite {p + 1}) Tj ET'], []
            for i in range(40):
                y = 770 - i * 18
                ops.append(f'BT /F1 9 Tf 40 {y} Td {pdf_string(f"Rechnung RE-2026-{p * 40 + i:04d}   offen   {(p * 40 + i) * 13 % 997},00 €")} Tj ET')
                annots.append(pdf.add(f'<< /Type /Annot /Subtype /Link /Rect [40 {y - 3} 300 {y + 10}] /Border [0 0 0] /A << /S /URI /URI (https://example.com/rechnung/RE-2026-{p * 40 + i:04d}) >> >>'))
            c = pdf.stream('', '\n'.join(ops))
            kids.append(pdf.add(f"<< /Type /Page /Parent {pages} 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 {f1} 0 R >> >> /Contents {c} 0 R /Annots [{' '.join(f'{a} 0 R' for a in annots)}] >>"))
        pdf.add(f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} >>", pages)
        return pdf.bytes(pdf.add(f'<< /Type /Catalog /Pages {pages} 0 R >>'), info(pdf, 'Navision Kontoauszug', 'Microsoft Dynamics NAV'))
    sys.exit(f'unknown variant {variant}')


def damage(variant, data):
    """Variants made from a producer's file (INPUT) the way such files get damaged or updated in the wild."""
    if variant == 'php-leading-newline':
        # A PHP script that printed a blank line before the PDF: every xref offset is one byte short.
        return b'\n' + data
    if variant == 'xref-offsets-wrong':
        # An xref table whose offsets are all wrong (a tool that rewrote the objects and kept the old table).
        start = data.rindex(b'startxref')
        xref = int(data[start + 9:].split()[0])
        table_end = data.index(b'trailer', xref)
        head, table, tail = data[:xref], data[xref:table_end], data[table_end:]
        table = re.sub(rb'(\d{10}) 00000 n', lambda m: b'%010d 00000 n' % (int(m.group(1)) + 37), table)
        return head + table + tail
    if variant == 'incremental-comment':
        # A reviewer's comment saved as an incremental update (what Acrobat's "Save" appends): a new page dictionary
        # with /Annots, the annotation, an xref section for them and a trailer with /Prev.
        start = data.rindex(b'startxref')
        prev = int(data[start + 9:].split()[0])
        trailer = data[data.rindex(b'trailer'):start]
        size = int(re.search(rb'/Size (\d+)', trailer).group(1))
        root = re.search(rb'/Root (\d+) 0 R', trailer).group(1)
        info_m = re.search(rb'/Info (\d+) 0 R', trailer)
        # the first page object: the first "/Type /Page" that is not /Pages
        m = re.search(rb'(\d+) 0 obj\s*<<((?:(?!endobj).)*?/Type\s*/Page(?!s)(?:(?!endobj).)*?)>>\s*endobj', data, re.S)
        pnum, pbody = int(m.group(1)), m.group(2)
        annot = size
        body = pbody if b'/Annots' not in pbody else re.sub(rb'/Annots\s*\[', b'/Annots [%d 0 R ' % annot, pbody)
        if b'/Annots' not in pbody:
            body = pbody + b' /Annots [%d 0 R]' % annot
        upd = bytearray(b'\n')
        offs = {}
        offs[pnum] = len(data) + len(upd)
        upd += b'%d 0 obj\n<<%s>>\nendobj\n' % (pnum, body)
        offs[annot] = len(data) + len(upd)
        upd += (b'%d 0 obj\n<< /Type /Annot /Subtype /FreeText /Rect [380 680 560 710] /Contents (Gepr\\374ft und freigegeben, 03.11.2026) '
                b'/DA (/Helv 9 Tf 1 0 0 rg) /T (Einkauf) /M (D:20261103091500+01\'00\') >>\nendobj\n') % annot
        xref = len(data) + len(upd)
        upd += b'xref\n%d 1\n%010d 00000 n \n%d 1\n%010d 00000 n \n' % (pnum, offs[pnum], annot, offs[annot])
        upd += b'trailer\n<< /Size %d /Root %s 0 R%s /Prev %d >>\nstartxref\n%d\n%%%%EOF\n' % (annot + 1, root, (b' /Info %s 0 R' % info_m.group(1)) if info_m else b'', prev, xref)
        return data + bytes(upd)
    return None


if __name__ == '__main__':
    variant, out = sys.argv[1], sys.argv[2]
    if len(sys.argv) > 3:
        result = damage(variant, open(sys.argv[3], 'rb').read())
        if result is None:
            sys.exit(f'unknown variant {variant}')
    else:
        result = build()
    open(out, 'wb').write(result)
