"""Scribus (run by scribus -g -ns -py): a DTP layout of the invoice exported to PDF. Usage: scribus -g -ns -py scribus_invoice.py -- VARIANT OUT
VARIANT: default (PDF 1.4, fonts embedded), cmyk (CMYK colours, PDF 1.5 with layers), pdfx (PDF/X-3)."""
import sys
import json
import os
import scribus

variant, out = sys.argv[1], sys.argv[2]
D = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data', 'invoice.json'), encoding='utf-8'))
A = os.environ.get('ASSETS', '/tmp/pdf-corpus-work/assets')
scribus.newDocument(scribus.PAPER_A4, (15, 15, 15, 15), scribus.PORTRAIT, 1, scribus.UNIT_MILLIMETERS, scribus.PAGE_1, 0, 1)
font = 'Liberation Sans Regular'
if variant == 'cmyk':
    scribus.defineColorCMYK('Hausfarbe', 230, 100, 0, 25)
    bar = scribus.createRect(0, 0, 210, 8)
    scribus.setFillColor('Hausfarbe', bar)
    scribus.setLineColor('None', bar)
    scribus.createLayer('Entwurf')
img = scribus.createImage(15, 15, 45, 13.5)
scribus.loadImage(f'{A}/logo-rgb.png' if variant != 'cmyk' else f'{A}/logo-cmyk.jpg', img)
scribus.setScaleImageToFrame(True, True, img)
head = scribus.createText(15, 45, 180, 12)
scribus.setText(f"Rechnung {D['number']}", head)
scribus.setFont('Liberation Sans Bold', head)
scribus.setFontSize(16, head)
body = scribus.createText(15, 60, 180, 180)
txt = f"{D['buyer']['name']}\n{D['buyer']['street']}\n{D['buyer']['city']}\n\nDatum: {D['date']}   Fällig: {D['due']}\n\n"
txt += '\n'.join(f"{l['pos']}\t{l['desc']}\t{l['qty']} {l['unit']}\t{l['total']}" for l in D['lines'])
txt += f"\n\nGesamtbetrag {D['gross']}\n\n{D['terms']}"
scribus.setText(txt, body)
scribus.setFont(font, body)
scribus.setFontSize(9, body)
if variant == 'cmyk':
    scribus.setTextColor('Hausfarbe', head)
pdf = scribus.PDFfile()
pdf.file = out
pdf.info = f"Rechnung {D['number']}"
pdf.version = 15 if variant == 'cmyk' else 14
pdf.subsetList = [font, 'Liberation Sans Bold']  # subset, as Scribus's export dialog offers
if variant == 'cmyk':
    pdf.outdst = 1  # printer: CMYK
    pdf.useLayers = True
pdf.save()
scribus.closeDoc()
