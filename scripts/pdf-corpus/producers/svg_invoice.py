"""The invoice as SVG for Inkscape (text in Liberation Sans, an embedded PNG logo, a semi-transparent band). Usage: svg_invoice.py > file.svg"""
import base64
import html
from common import DATA as D, asset, lines

e = html.escape
logo = base64.b64encode(open(asset('logo-rgba.png'), 'rb').read()).decode()
t = []
y = 260
for l in lines(1):
    t.append(f'<text x="40" y="{y}">{l["pos"]}</text><text x="70" y="{y}">{e(l["desc"])}</text><text x="360" y="{y}" text-anchor="end">{l["qty"]}</text>'
             f'<text x="380" y="{y}">{l["unit"]}</text><text x="490" y="{y}" text-anchor="end">{l["price"]}</text><text x="555" y="{y}" text-anchor="end">{l["total"]}</text>'
             f'<line x1="40" x2="555" y1="{y + 4}" y2="{y + 4}" stroke="#999" stroke-width="0.4"/>')
    y += 16
print(f'''<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="595pt" height="842pt" viewBox="0 0 595 842" font-family="Liberation Sans" font-size="9">
<title>Rechnung {D["number"]}</title>
<rect x="0" y="0" width="595" height="20" fill="#3355aa" fill-opacity="0.6"/>
<image x="40" y="40" width="135" height="40" xlink:href="data:image/png;base64,{logo}"/>
<text x="555" y="50" text-anchor="end" font-size="8">{e(D["seller"]["name"])}</text><text x="555" y="61" text-anchor="end" font-size="8">{e(D["seller"]["street"])}, {e(D["seller"]["city"])}</text>
<text x="40" y="130">{e(D["buyer"]["name"])}</text><text x="40" y="142">{e(D["buyer"]["street"])}</text><text x="40" y="154">{e(D["buyer"]["city"])}</text>
<text x="40" y="200" font-size="16" font-weight="bold" fill="#223377">Rechnung {D["number"]}</text>
<rect x="38" y="229" width="519" height="15" fill="#dde3f0"/>
<g font-weight="bold"><text x="40" y="240">Pos.</text><text x="70" y="240">Beschreibung</text><text x="360" y="240" text-anchor="end">Menge</text><text x="380" y="240">Einheit</text><text x="490" y="240" text-anchor="end">Preis</text><text x="555" y="240" text-anchor="end">Betrag</text></g>
{"".join(t)}
<text x="555" y="{y + 14}" text-anchor="end" font-weight="bold">Gesamtbetrag {D["gross"]}</text>
<text x="40" y="800" font-size="8">{e(D["terms"])}</text>
</svg>''')
