"""The invoice as hand-written PostScript, the way legacy ERP print spoolers emit it (standard fonts by name, never
embedded), for Ghostscript's ps2pdf. Usage: postscript_invoice.py VARIANT > file.ps
VARIANT: plain, cmyk (setcmykcolor), separation (a spot colour), devicen (black + a spot colour), transfer (settransfer), interpolate (an image with
/Interpolate true), symbol (Symbol and ZapfDingbats)."""
import sys
from common import DATA as D, lines

variant = sys.argv[1]


def ps_str(s):
    b = s.encode('cp1252', 'replace')
    return '(' + ''.join(chr(c) if 32 <= c < 127 and c not in (40, 41, 92) else '\\%03o' % c for c in b) + ')'


out = ['%!PS-Adobe-3.0', f"%%Title: Rechnung {D['number']}", '%%Creator: ERP-Spooler 4.2', '%%Pages: 1', '%%EndComments',
       # Latin-1/WinAnsi re-encoding of the standard fonts, as every PS driver does for umlauts and the euro sign
       '/reencode { findfont dup length dict begin { 1 index /FID ne { def } { pop pop } ifelse } forall',
       '  /Encoding ISOLatin1Encoding 256 array copy def',
       '  Encoding 128 /Euro put Encoding 132 /quotedblbase put Encoding 147 /quotedblleft put Encoding 148 /quotedblright put',
       '  Encoding 150 /endash put Encoding 151 /emdash put Encoding 171 /guillemotleft put Encoding 187 /guillemotright put',
       '  currentdict end definefont pop } bind def',
       '/Helv /Helvetica reencode /HelvB /Helvetica-Bold reencode /Tim /Times-Roman reencode /Cour /Courier reencode',
       '%%Page: 1 1']
if variant == 'transfer':
    out.append('{ 0.9 mul 0.1 add } settransfer')  # a lightened print, as a driver's density setting
if variant == 'cmyk':
    out.append('0.9 0.4 0 0.1 setcmykcolor 0 812 595 30 rectfill 0 0 0 1 setcmykcolor')
if variant == 'devicen':
    # a duotone band: black plus a spot colour as DeviceN, as DTP drivers write two-colour letterheads
    out.append('[/DeviceN [/Black (HKS 43 K) cvn] /DeviceCMYK { exch 1 index 0.6 mul 0 4 -1 roll } ] setcolorspace 0.2 1 setcolor 0 812 595 30 rectfill 0 setgray')
if variant == 'separation':
    out.append('[/Separation (HKS 43 K) cvn /DeviceCMYK { dup 1 exch 0.6 mul 0 0.1 } ] setcolorspace 1 setcolor 0 812 595 30 rectfill 0 setgray')
font = 'Cour' if variant == 'courier' else 'Helv'
out.append(f'/HelvB findfont 16 scalefont setfont 40 760 moveto {ps_str("Rechnung " + D["number"])} show')
out.append(f'/{font} findfont 9 scalefont setfont')
y = 730
for t in (D['seller']['name'], D['seller']['street'], D['seller']['city']):
    out.append(f'380 {y + 40} moveto {ps_str(t)} show')
    y -= 11
y = 700
for t in (D['buyer']['name'], D['buyer']['street'], D['buyer']['city']):
    out.append(f'40 {y} moveto {ps_str(t)} show')
    y -= 12
y = 620
out.append(f'/HelvB findfont 9 scalefont setfont')
for x, t in ((40, 'Pos.'), (70, 'Beschreibung'), (330, 'Menge'), (380, 'Einheit'), (440, 'Preis'), (505, 'Betrag')):
    out.append(f'{x} {y} moveto {ps_str(t)} show')
out.append(f'0.5 setgray 0.5 setlinewidth 40 {y - 4} moveto 555 {y - 4} lineto stroke 0 setgray')
out.append(f'/{font} findfont 9 scalefont setfont')
y -= 18
for l in lines(1):
    for x, k in ((40, 'pos'), (70, 'desc'), (330, 'qty'), (380, 'unit'), (440, 'price'), (505, 'total')):
        out.append(f'{x} {y} moveto {ps_str(l[k])} show')
    y -= 15
out.append(f'/HelvB findfont 10 scalefont setfont 400 {y - 10} moveto {ps_str("Gesamtbetrag " + D["gross"])} show')
out.append(f'/Tim findfont 8 scalefont setfont 40 60 moveto {ps_str(D["terms"])} show')
if variant == 'symbol':
    out.append('/Symbol findfont 10 scalefont setfont 40 90 moveto (a b g S p \\263) show')
    out.append('/ZapfDingbats findfont 10 scalefont setfont 40 76 moveto (4 5 n) show')
if variant == 'interpolate':
    out.append('gsave 420 740 translate 135 40 scale /DeviceRGB setcolorspace')
    out.append('<< /ImageType 1 /Width 16 /Height 4 /BitsPerComponent 8 /Decode [0 1 0 1 0 1] /ImageMatrix [16 0 0 -4 0 4] /Interpolate true /DataSource currentfile /ASCIIHexDecode filter >> image')
    px = ''.join('%02x%02x%02x' % (20 + i * 12, 60, 200 - i * 8) for i in range(16)) * 4
    out.append(px + '>')
    out.append('grestore')
out += ['showpage', '%%EOF']
sys.stdout.write('\n'.join(out) + '\n')
