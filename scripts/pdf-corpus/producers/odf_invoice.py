"""The invoice as a flat OpenDocument text (.fodt) or spreadsheet (.fods) for LibreOffice. Usage: odf_invoice.py VARIANT > file
VARIANT picks the font (liberation, helvetica, arial, times, carlito), the logo (rgb, cmyk), and extras (comments, form)."""
import base64
import html
import sys
from common import DATA as D, asset, lines

variant = sys.argv[1]
e = html.escape
font = {'helvetica': 'Helvetica', 'arial': 'Arial', 'times': 'Times New Roman', 'carlito': 'Carlito', 'calibri': 'Calibri'}.get(variant, 'Liberation Sans')
NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
      'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
      'xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" '
      'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:form="urn:oasis:names:tc:opendocument:xmlns:form:1.0" '
      'xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" xmlns:loext="urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0"')


def logo():
    name = 'logo-cmyk.jpg' if variant == 'cmyk' else 'logo-rgb.png'
    data = base64.b64encode(open(asset(name), 'rb').read()).decode()
    return (f'<draw:frame draw:name="Logo" text:anchor-type="paragraph" svg:width="4.5cm" svg:height="1.35cm">'
            f'<draw:image><office:binary-data>{data}</office:binary-data></draw:image></draw:frame>')


def cell(t, style='P'):
    return f'<table:table-cell office:value-type="string"><text:p text:style-name="{style}">{e(t)}</text:p></table:table-cell>'


def fodt():
    rows = lines(5 if variant == 'long' else 1)
    body = ''.join('<table:table-row>' + ''.join(cell(r[k], 'R' if k in ('qty', 'price', 'total') else 'P') for k in ('pos', 'desc', 'qty', 'unit', 'price', 'total')) + '</table:table-row>' for r in rows)
    comment = ''
    if variant == 'comments':
        comment = ('<office:annotation><dc:creator>Buchhaltung</dc:creator><dc:date>2026-11-02T10:00:00</dc:date>'
                   '<text:p>Bitte Lieferdatum ergänzen.</text:p></office:annotation>')
    forms = ''
    control = ''
    if variant == 'form':
        forms = ('<office:forms form:automatic-focus="false" form:apply-design-mode="false"><form:form form:name="Bestellung">'
                 '<form:text form:name="po" form:control-implementation="ooo:com.sun.star.form.component.TextField" xml:id="c1" form:id="c1" form:current-value="PO-88412"/>'
                 '<form:checkbox form:name="ok" form:control-implementation="ooo:com.sun.star.form.component.CheckBox" xml:id="c2" form:id="c2" form:current-state="checked"><form:properties/></form:checkbox>'
                 '</form:form></office:forms>')
        control = ('<text:p text:style-name="P">Ihre Bestellnummer: <draw:control text:anchor-type="as-char" svg:width="5cm" svg:height="0.6cm" draw:control="c1"/>'
                   ' bestätigt: <draw:control text:anchor-type="as-char" svg:width="0.5cm" svg:height="0.5cm" draw:control="c2"/></text:p>')
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document {NS} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:meta><dc:title>Rechnung {D['number']}</dc:title><dc:creator>{e(D['seller']['name'])}</dc:creator></office:meta>
<office:font-face-decls><style:font-face style:name="{font}" svg:font-family="'{font}'"/></office:font-face-decls>
<office:styles><style:default-style style:family="paragraph"><style:text-properties style:font-name="{font}" fo:font-size="9pt" fo:language="de" fo:country="DE"/></style:default-style></office:styles>
<office:automatic-styles>
<style:style style:name="P" style:family="paragraph"><style:text-properties style:font-name="{font}" fo:font-size="9pt"/></style:style>
<style:style style:name="R" style:family="paragraph"><style:paragraph-properties fo:text-align="end"/><style:text-properties style:font-name="{font}" fo:font-size="9pt"/></style:style>
<style:style style:name="H" style:family="paragraph"><style:text-properties style:font-name="{font}" fo:font-size="15pt" fo:font-weight="bold" fo:color="#223377"/></style:style>
<style:style style:name="S" style:family="paragraph"><style:paragraph-properties fo:text-align="end"/><style:text-properties style:font-name="{font}" fo:font-size="8pt"/></style:style>
<style:style style:name="T" style:family="table"><style:table-properties style:width="17cm" table:align="left"/></style:style>
</office:automatic-styles>
<office:body><office:text>{forms}
<text:p text:style-name="P">{logo()}</text:p>
<text:p text:style-name="S">{e(D['seller']['name'])}<text:line-break/>{e(D['seller']['street'])}<text:line-break/>{e(D['seller']['city'])}<text:line-break/>USt-IdNr. {D['seller']['vat']}</text:p>
<text:p text:style-name="P">{e(D['buyer']['name'])}<text:line-break/>{e(D['buyer']['street'])}<text:line-break/>{e(D['buyer']['city'])}</text:p>
<text:h text:style-name="H" text:outline-level="1">Rechnung {D['number']}</text:h>
<text:p text:style-name="P">Datum: {D['date']}   Fällig: {D['due']}{comment}</text:p>
<table:table table:name="Positionen" table:style-name="T"><table:table-column table:number-columns-repeated="6"/>
<table:table-header-rows><table:table-row>{''.join(cell(t) for t in ('Pos.', 'Beschreibung', 'Menge', 'Einheit', 'Preis', 'Betrag'))}</table:table-row></table:table-header-rows>
{body}</table:table>
<text:p text:style-name="R">Nettobetrag {D['net']}<text:line-break/>USt. {D['vat_rate']} {D['vat']}<text:line-break/>Gesamtbetrag {D['gross']}</text:p>
<text:p text:style-name="P">{e(D['terms'])}</text:p>
<text:p text:style-name="P"><text:a xlink:type="simple" xlink:href="https://example.com/rechnung/{D['number']}">Rechnung online ansehen</text:a></text:p>{control}
</office:text></office:body></office:document>"""


def fods():
    rows = lines(2)
    body = ''.join('<table:table-row>' + ''.join(f'<table:table-cell office:value-type="string"><text:p>{e(r[k])}</text:p></table:table-cell>' for k in ('pos', 'desc', 'qty', 'unit', 'price', 'total')) + '</table:table-row>' for r in rows)
    head = '<table:table-row>' + ''.join(f'<table:table-cell office:value-type="string"><text:p>{t}</text:p></table:table-cell>' for t in ('Pos.', 'Beschreibung', 'Menge', 'Einheit', 'Preis', 'Betrag')) + '</table:table-row>'
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document {NS} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:font-face-decls><style:font-face style:name="{font}" svg:font-family="'{font}'"/></office:font-face-decls>
<office:styles><style:default-style style:family="table-cell"><style:text-properties style:font-name="{font}" fo:font-size="9pt"/></style:default-style></office:styles>
<office:body><office:spreadsheet><table:table table:name="Rechnung {D['number']}">
<table:table-column table:number-columns-repeated="6"/>
<table:table-row><table:table-cell office:value-type="string"><text:p>Rechnung {D['number']} – {e(D['buyer']['name'])}</text:p></table:table-cell></table:table-row>
{head}{body}
<table:table-row><table:table-cell table:number-columns-spanned="5" office:value-type="string"><text:p>Gesamtbetrag</text:p></table:table-cell><table:covered-table-cell table:number-columns-repeated="4"/><table:table-cell office:value-type="string"><text:p>{D['gross']}</text:p></table:table-cell></table:table-row>
</table:table></office:spreadsheet></office:body></office:document>"""


sys.stdout.write(fods() if variant == 'calc' else fodt())
