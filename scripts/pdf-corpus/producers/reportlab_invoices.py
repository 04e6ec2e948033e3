"""ReportLab (python3-reportlab): the invoices Python invoicing code writes with it. Usage: reportlab_invoices.py VARIANT OUTFILE"""
import sys
from reportlab.lib import colors
from reportlab.lib.colors import CMYKColor, CMYKColorSep
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import SimpleDocTemplate, Table, TableStyle, Paragraph, Spacer, Image
from reportlab.lib import pdfencrypt
from common import DATA, asset, lines

variant, path = sys.argv[1], sys.argv[2]
D = DATA


def header(c, font='Helvetica', bold='Helvetica-Bold', logo='logo-rgb.png', fill=colors.black):
    c.drawImage(asset(logo), 40, 770, width=135, height=40, mask='auto')
    c.setFillColor(fill)
    c.setFont(bold, 16)
    c.drawString(40, 730, f"Rechnung {D['number']}")
    c.setFont(font, 9)
    y = 710
    for t in (D['seller']['name'], D['seller']['street'], D['seller']['city'], f"USt-IdNr. {D['seller']['vat']}"):
        c.drawString(380, y + 60, t)
        y -= 11
    y = 700
    for t in (D['buyer']['name'], D['buyer']['street'], D['buyer']['city']):
        c.drawString(40, y, t)
        y -= 12
    c.drawString(380, 690, f"Datum: {D['date']}   Fällig: {D['due']}")


def table(c, rows, y, font='Helvetica', bold='Helvetica-Bold', stroke=colors.grey, band=None):
    c.setFont(bold, 9)
    for x, t in ((40, 'Pos.'), (70, 'Beschreibung'), (330, 'Menge'), (380, 'Einheit'), (440, 'Preis'), (505, 'Betrag')):
        c.drawString(x, y, t)
    c.setStrokeColor(stroke)
    c.line(40, y - 4, 555, y - 4)
    y -= 18
    c.setFont(font, 9)
    for i, l in enumerate(rows):
        if band is not None and i % 2:
            c.setFillColor(band)
            c.rect(38, y - 3, 519, 13, stroke=0, fill=1)
            c.setFillColor(colors.black)
        c.drawString(40, y, l['pos'])
        c.drawString(70, y, l['desc'])
        c.drawRightString(360, y, l['qty'])
        c.drawString(380, y, l['unit'])
        c.drawRightString(490, y, l['price'])
        c.drawRightString(555, y, l['total'])
        y -= 15
    c.line(40, y + 8, 555, y + 8)
    return y


def totals(c, y, font='Helvetica', bold='Helvetica-Bold'):
    c.setFont(font, 9)
    for label, v in (('Nettobetrag', D['net']), (f"USt. {D['vat_rate']}", D['vat'])):
        c.drawString(400, y, label)
        c.drawRightString(555, y, v)
        y -= 13
    c.setFont(bold, 10)
    c.drawString(400, y, 'Gesamtbetrag')
    c.drawRightString(555, y, D['gross'])
    c.setFont(font, 8)
    c.drawString(40, 60, D['terms'])
    c.drawString(40, 48, f"IBAN {D['seller']['iban']}")


def simple(pages=2, **kw):
    c = canvas.Canvas(path, pagesize=A4, **kw)
    c.setTitle(f"Rechnung {D['number']}")
    c.setAuthor(D['seller']['name'])
    rows = lines(pages * 4)
    for p in range(pages):
        header(c)
        y = table(c, rows[p * 30:(p + 1) * 30], 640)
        if p == pages - 1:
            totals(c, y - 10)
        c.setFont('Helvetica', 7)
        c.drawRightString(555, 30, f"Seite {p + 1} von {pages}")
        c.showPage()
    return c


if variant == 'helvetica':
    # The default: Helvetica not embedded, a PNG logo, a link, two pages.
    c = canvas.Canvas(path, pagesize=A4)
    c.setTitle(f"Rechnung {D['number']}")
    rows = lines(4)
    for p in range(2):
        header(c)
        y = table(c, rows[p * 16:(p + 1) * 16], 640, band=colors.Color(0.93, 0.93, 0.97))
        if p == 1:
            totals(c, y - 10)
        c.linkURL('https://example.com/rechnung/RE-2026-0417', (40, 36, 200, 46), relative=0)
        c.setFont('Helvetica', 7)
        c.drawString(40, 38, 'Online ansehen: example.com/rechnung')
        c.showPage()
    c.save()
elif variant == 'base14':
    # Every standard-14 family, none embedded.
    c = canvas.Canvas(path, pagesize=A4)
    header(c, 'Times-Roman', 'Times-Bold')
    y = table(c, lines(1), 640, 'Times-Roman', 'Times-Bold')
    totals(c, y - 10, 'Courier', 'Courier-Bold')
    c.setFont('Times-Italic', 9); c.drawString(40, 100, 'Vielen Dank für Ihren Auftrag – merci beaucoup.')
    c.setFont('Helvetica-Oblique', 9); c.drawString(40, 88, 'Lieferung frei Haus, Rückfragen: +49 211 000000')
    c.setFont('Symbol', 10); c.drawString(300, 100, 'a b g S p \xb3 \xa3')
    c.setFont('ZapfDingbats', 10); c.drawString(300, 88, '4 5 6 7 8 n')
    c.setFont('Courier-Oblique', 8); c.drawString(300, 76, 'Ref: 0417/A')
    c.showPage(); c.save()
elif variant == 'cmyk':
    # Print-shop colours: DeviceCMYK fills and text, a CMYK JPEG logo, no output intent.
    c = canvas.Canvas(path, pagesize=A4)
    c.setFillColor(CMYKColor(0.9, 0.4, 0, 0.1)); c.rect(0, 812, 595, 30, stroke=0, fill=1)
    header(c, logo='logo-cmyk.jpg', fill=CMYKColor(0, 0, 0, 1))
    y = table(c, lines(1), 640, stroke=CMYKColor(0, 0, 0, 0.5), band=CMYKColor(0.05, 0, 0, 0.03))
    c.setFillColor(CMYKColor(0, 0.9, 0.85, 0)); totals(c, y - 10)
    c.showPage(); c.save()
elif variant == 'spot':
    # A spot colour (HKS/Pantone style corporate colour) as a Separation colour space.
    hks = CMYKColorSep(1, 0.6, 0, 0.1, spotName='HKS 43 K', density=1)
    c = canvas.Canvas(path, pagesize=A4)
    c.setFillColor(hks); c.rect(0, 812, 595, 30, stroke=0, fill=1)
    header(c)
    c.setFillColor(hks); c.setFont('Helvetica-Bold', 12); c.drawString(40, 660, D['seller']['name'])
    c.setFillColor(colors.black)
    y = table(c, lines(1), 640)
    totals(c, y - 10)
    c.showPage(); c.save()
elif variant == 'acroform':
    # A fillable order form: text fields, a checkbox, a choice field.
    c = canvas.Canvas(path, pagesize=A4)
    header(c)
    y = table(c, lines(1), 640)
    totals(c, y - 10)
    f = c.acroForm
    c.setFont('Helvetica', 9)
    c.drawString(40, 200, 'Bestellnummer des Kunden:')
    f.textfield(name='customer_ref', tooltip='Bestellnummer', x=170, y=194, width=150, height=16, value='PO-88412')
    c.drawString(40, 175, 'Lieferung bestätigt:')
    f.checkbox(name='delivered', x=170, y=170, size=14, checked=True)
    c.drawString(40, 150, 'Zahlungsart:')
    f.choice(name='payment', x=170, y=144, width=150, height=16, options=['Überweisung', 'Lastschrift'], value='Überweisung')
    c.showPage(); c.save()
elif variant == 'encrypted':
    # "Protected" against copying: encrypted with an empty user password (opens without a prompt).
    enc = pdfencrypt.StandardEncryption('', ownerPassword='owner-0417', canPrint=1, canModify=0, canCopy=0, strength=128)
    c = simple(1, encrypt=enc); c.save()
elif variant == 'ttf':
    # A TrueType font registered by the program (DejaVu Sans): embedded as a subset.
    pdfmetrics.registerFont(TTFont('DejaVu', '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'))
    pdfmetrics.registerFont(TTFont('DejaVu-Bold', '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf'))
    c = canvas.Canvas(path, pagesize=A4)
    header(c, 'DejaVu', 'DejaVu-Bold', logo='logo-rgba.png')
    y = table(c, lines(1), 640, 'DejaVu', 'DejaVu-Bold')
    totals(c, y - 10, 'DejaVu', 'DejaVu-Bold')
    c.showPage(); c.save()
elif variant == 'platypus':
    # The document template and Table flowable most ReportLab invoice code uses (three pages, repeated header row).
    doc = SimpleDocTemplate(path, pagesize=A4, title=f"Rechnung {D['number']}", author=D['seller']['name'])
    ss = getSampleStyleSheet()
    story = [Image(asset('logo-indexed.png'), 135, 40), Paragraph(f"Rechnung {D['number']}", ss['Title']),
             Paragraph(f"{D['buyer']['name']}<br/>{D['buyer']['street']}<br/>{D['buyer']['city']}", ss['Normal']), Spacer(1, 12)]
    data = [['Pos.', 'Beschreibung', 'Menge', 'Preis', 'Betrag']] + [[l['pos'], l['desc'], l['qty'], l['price'], l['total']] for l in lines(14)]
    t = Table(data, repeatRows=1, colWidths=[30, 250, 50, 70, 70])
    t.setStyle(TableStyle([('GRID', (0, 0), (-1, -1), 0.25, colors.grey), ('BACKGROUND', (0, 0), (-1, 0), colors.lightblue),
                           ('FONT', (0, 0), (-1, 0), 'Helvetica-Bold'), ('ALIGN', (2, 1), (-1, -1), 'RIGHT')]))
    story += [t, Spacer(1, 12), Paragraph(f"<b>Gesamtbetrag {D['gross']}</b>", ss['Normal']), Paragraph(D['terms'], ss['Italic'])]
    doc.build(story)
elif variant == 'comments':
    # Review comments: text annotations (ReportLab writes them without appearance streams) and an outline.
    c = canvas.Canvas(path, pagesize=A4)
    header(c)
    y = table(c, lines(1), 640)
    totals(c, y - 10)
    c.textAnnotation('Bitte Preis für Pos. 4 prüfen.', Rect=(480, 560, 500, 580), relative=0)
    c.textAnnotation('Vérifier la TVA.', Rect=(480, 420, 500, 440), relative=0)
    c.bookmarkPage('p1'); c.addOutlineEntry('Rechnung', 'p1')
    c.showPage(); c.save()
elif variant == 'transparency':
    # Semi-transparent watermark and fills (ExtGState constant alpha; no page group).
    c = canvas.Canvas(path, pagesize=A4)
    header(c)
    y = table(c, lines(1), 640)
    totals(c, y - 10)
    c.saveState(); c.setFillAlpha(0.15); c.setFillColor(colors.red); c.setFont('Helvetica-Bold', 80)
    c.translate(300, 400); c.rotate(35); c.drawCentredString(0, 0, 'KOPIE'); c.restoreState()
    c.saveState(); c.setFillAlpha(0.4); c.setFillColor(colors.blue); c.rect(380, 120, 175, 60, stroke=0, fill=1); c.restoreState()
    c.showPage(); c.save()
elif variant == 'many-pages':
    c = simple(6); c.save()
else:
    sys.exit(f'unknown variant {variant}')
