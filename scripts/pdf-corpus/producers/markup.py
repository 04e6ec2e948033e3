"""The invoice as HTML (for wkhtmltopdf, Chromium, pandoc) or XSL-FO (for Apache FOP). Usage: markup.py html|fo VARIANT > file"""
import base64
import html
import sys
from common import DATA as D, asset, lines

kind, variant = sys.argv[1], sys.argv[2]
e = html.escape


def b64(name):
    return base64.b64encode(open(asset(name), 'rb').read()).decode()


def html_doc():
    font = {'arial': 'Arial, sans-serif', 'times': '"Times New Roman", serif', 'dejavu': '"DejaVu Sans", sans-serif'}.get(variant, 'Helvetica, Arial, sans-serif')
    rows = lines(5 if variant == 'long' else 1)
    extra_css = ''
    extra = ''
    if variant == 'transparency':
        extra_css = '.stamp{position:absolute;top:380px;left:160px;font-size:80px;color:rgba(200,0,0,.25);transform:rotate(-25deg)} .bar{background:linear-gradient(90deg,#3355aa,rgba(255,255,255,0))}'
        extra = '<div class="stamp">BEZAHLT</div>'
    if variant == 'svg':
        extra = '<svg width="200" height="60" viewBox="0 0 200 60"><rect x="0" y="0" width="200" height="60" rx="10" fill="#2255aa" opacity="0.8"/><circle cx="30" cy="30" r="20" fill="#ffcc00"/><text x="60" y="38" font-size="20" fill="white">Müller</text></svg>'
    trs = ''.join(f"<tr><td>{r['pos']}</td><td>{e(r['desc'])}</td><td class=r>{r['qty']}</td><td>{r['unit']}</td><td class=r>{r['price']}</td><td class=r>{r['total']}</td></tr>" for r in rows)
    return f"""<!DOCTYPE html><html lang="de"><head><meta charset="utf-8"><title>Rechnung {D['number']}</title>
<style>body{{font-family:{font};font-size:10pt;margin:0 20px}} table{{border-collapse:collapse;width:100%}} td,th{{border-bottom:1px solid #999;padding:3px}}
th{{background:#dde3f0;text-align:left}} .r{{text-align:right}} .seller{{float:right;text-align:right;font-size:8pt}} h1{{font-size:16pt}} .bar{{height:8px;background:#3355aa}} {extra_css}</style></head>
<body><div class="bar"></div><img src="data:image/png;base64,{b64('logo-rgba.png' if variant != 'jpeg' else 'logo-rgb.png')}" width="150">
<div class="seller">{e(D['seller']['name'])}<br>{e(D['seller']['street'])}<br>{e(D['seller']['city'])}<br>USt-IdNr. {D['seller']['vat']}</div>
<p>{e(D['buyer']['name'])}<br>{e(D['buyer']['street'])}<br>{e(D['buyer']['city'])}</p>
<h1>Rechnung {D['number']}</h1><p>Datum: {D['date']} &nbsp; Fällig: {D['due']}</p>
<table><tr><th>Pos.</th><th>Beschreibung</th><th class=r>Menge</th><th>Einheit</th><th class=r>Preis</th><th class=r>Betrag</th></tr>{trs}</table>
<p class=r>Nettobetrag {D['net']}<br>USt. {D['vat_rate']} {D['vat']}<br><b>Gesamtbetrag {D['gross']}</b></p>
<p>{e(D['terms'])}</p><p><a href="https://example.com/rechnung/{D['number']}">Rechnung online ansehen</a> · <a href="#top">nach oben</a></p>{extra}</body></html>"""


def fo_doc():
    font = {'times': 'Times', 'courier': 'Courier', 'dejavu': 'DejaVu Sans', 'pdfa': 'DejaVu Sans'}.get(variant, 'Helvetica')
    cmyk = variant == 'cmyk'
    colour = 'cmyk(0.9,0.4,0,0.1)' if cmyk else '#3355aa'
    black = 'cmyk(0,0,0,1)' if cmyk else 'black'
    logo = 'logo-cmyk.jpg' if cmyk else 'logo-rgb.png'
    rows = lines(6 if variant == 'long' else 1)
    bold = ' font-weight="bold"'
    cell = lambda t, al='start', b=False: f'<fo:table-cell padding="2pt" border-bottom="0.5pt solid #999999"><fo:block text-align="{al}"{bold if b else ""}>{e(t)}</fo:block></fo:table-cell>'
    body = ''.join('<fo:table-row>' + cell(r['pos']) + cell(r['desc']) + cell(r['qty'], 'end') + cell(r['unit']) + cell(r['price'], 'end') + cell(r['total'], 'end') + '</fo:table-row>' for r in rows)
    head = '<fo:table-row background-color="#dde3f0">' + ''.join(cell(t, 'start', True) for t in ('Pos.', 'Beschreibung', 'Menge', 'Einheit', 'Preis', 'Betrag')) + '</fo:table-row>'
    link = f'<fo:block><fo:basic-link external-destination="url(https://example.com/rechnung/{D["number"]})" color="{colour}">Rechnung online ansehen</fo:basic-link></fo:block>'
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<fo:root xmlns:fo="http://www.w3.org/1999/XSL/Format" xmlns:fox="http://xmlgraphics.apache.org/fop/extensions" font-family="{font}" font-size="9pt" color="{black}">
<fo:layout-master-set><fo:simple-page-master master-name="A4" page-width="210mm" page-height="297mm" margin="15mm"><fo:region-body margin-bottom="12mm"/><fo:region-after extent="10mm"/></fo:simple-page-master></fo:layout-master-set>
<fo:declarations><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Rechnung {D['number']}</dc:title><dc:creator>{e(D['seller']['name'])}</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta></fo:declarations>
<fo:page-sequence master-reference="A4"><fo:static-content flow-name="xsl-region-after"><fo:block text-align="end" font-size="7pt">Seite <fo:page-number/></fo:block></fo:static-content>
<fo:flow flow-name="xsl-region-body">
<fo:block><fo:external-graphic src="url({asset(logo)})" content-width="45mm"/></fo:block>
<fo:block text-align="end" font-size="8pt" linefeed-treatment="preserve">{e(D['seller']['name'])}
{e(D['seller']['street'])}
{e(D['seller']['city'])}</fo:block>
<fo:block linefeed-treatment="preserve" space-after="8mm">{e(D['buyer']['name'])}
{e(D['buyer']['street'])}
{e(D['buyer']['city'])}</fo:block>
<fo:block font-size="15pt" font-weight="bold" color="{colour}">Rechnung {D['number']}</fo:block>
<fo:block space-after="4mm">Datum: {D['date']}   Fällig: {D['due']}</fo:block>
<fo:table table-layout="fixed" width="100%"><fo:table-column column-width="10mm"/><fo:table-column column-width="80mm"/><fo:table-column column-width="15mm"/><fo:table-column column-width="20mm"/><fo:table-column column-width="25mm"/><fo:table-column column-width="30mm"/>
<fo:table-header>{head}</fo:table-header><fo:table-body>{body}</fo:table-body></fo:table>
<fo:block text-align="end" space-before="4mm">Nettobetrag {D['net']}</fo:block><fo:block text-align="end">USt. {D['vat_rate']} {D['vat']}</fo:block>
<fo:block text-align="end" font-weight="bold">Gesamtbetrag {D['gross']}</fo:block>
<fo:block space-before="6mm" font-size="8pt">{e(D['terms'])}</fo:block>{link}
</fo:flow></fo:page-sequence></fo:root>"""


sys.stdout.write(html_doc() if kind == 'html' else fo_doc())
