"""cairo (python3-cairo): the PDF surface GTK and many Linux reporting tools print through. Usage: cairo_invoice.py VARIANT OUT"""
import sys
import cairo
from common import DATA as D, asset, lines

variant, out = sys.argv[1], sys.argv[2]
surface = cairo.PDFSurface(out, 595, 842)
if variant == 'v14':
    surface.restrict_to_version(cairo.PDFVersion.VERSION_1_4)
surface.set_metadata(cairo.PDFMetadata.TITLE, f"Rechnung {D['number']}")
surface.set_metadata(cairo.PDFMetadata.AUTHOR, D['seller']['name'])
surface.set_metadata(cairo.PDFMetadata.CREATOR, 'cairo report tool')
cr = cairo.Context(surface)
family = 'DejaVu Serif' if variant == 'serif' else 'Liberation Sans'
pages = 3 if variant == 'long' else 1
rows = lines(pages * 3)
per = len(rows) // pages
for p in range(pages):
    logo = cairo.ImageSurface.create_from_png(asset('logo-rgba.png'))
    cr.save()
    cr.translate(40, 40)
    cr.scale(0.75, 0.75)
    cr.set_source_surface(logo, 0, 0)
    if variant == 'nearest':
        cr.get_source().set_filter(cairo.FILTER_NEAREST)
    cr.paint()
    cr.restore()
    cr.select_font_face(family, cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_BOLD)
    cr.set_font_size(16)
    cr.set_source_rgb(0.13, 0.2, 0.47)
    cr.move_to(40, 130)
    cr.show_text(f"Rechnung {D['number']}")
    cr.select_font_face(family, cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_NORMAL)
    cr.set_font_size(9)
    cr.set_source_rgb(0, 0, 0)
    for i, t in enumerate((D['buyer']['name'], D['buyer']['street'], D['buyer']['city'])):
        cr.move_to(40, 160 + i * 12)
        cr.show_text(t)
    for i, t in enumerate((D['seller']['name'], D['seller']['street'], D['seller']['city'])):
        cr.move_to(360, 50 + i * 12)
        cr.show_text(t)
    y = 230
    cr.set_source_rgba(0.2, 0.33, 0.67, 0.15)
    cr.rectangle(38, y - 11, 520, 15)
    cr.fill()
    cr.set_source_rgb(0, 0, 0)
    for x, t in ((40, 'Pos.'), (70, 'Beschreibung'), (330, 'Menge'), (380, 'Einheit'), (440, 'Preis'), (505, 'Betrag')):
        cr.move_to(x, y)
        cr.show_text(t)
    y += 18
    for l in rows[p * per:(p + 1) * per]:
        for x, k in ((40, 'pos'), (70, 'desc'), (330, 'qty'), (380, 'unit'), (440, 'price'), (505, 'total')):
            cr.move_to(x, y)
            cr.show_text(l[k])
        cr.set_line_width(0.4)
        cr.set_source_rgb(0.6, 0.6, 0.6)
        cr.move_to(40, y + 4)
        cr.line_to(555, y + 4)
        cr.stroke()
        cr.set_source_rgb(0, 0, 0)
        y += 16
    if p == pages - 1:
        cr.move_to(400, y + 10)
        cr.show_text(f"Gesamtbetrag {D['gross']}")
        cr.move_to(40, 780)
        cr.show_text(D['terms'])
        if variant in ('default', 'long'):  # cairo 1.16's link tags leave an xref entry of an object never written
            cr.tag_begin(cairo.TAG_LINK, "uri='https://example.com/rechnung'")
        cr.move_to(40, 795)
        cr.show_text('Rechnung online ansehen')
        if variant in ('default', 'long'):
            cr.tag_end(cairo.TAG_LINK)
    cr.show_page()
surface.finish()
