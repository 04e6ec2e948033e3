"""Images the producers place on their pages: logos in every colour model a real invoice has, and a scanned page."""
import os
from PIL import Image, ImageDraw, ImageFont
from common import ASSETS, DATA

os.makedirs(ASSETS, exist_ok=True)
W, H = 180, 54


def logo(mode_bg=(255, 255, 255)):
    im = Image.new('RGB', (W, H), mode_bg)
    d = ImageDraw.Draw(im)
    for x in range(W):  # a gradient bar: JPEG and Flate see real image data
        d.line([(x, 0), (x, 8)], fill=(20 + x, 60, 200 - x // 2))
    d.ellipse([6, 14, 44, 50], fill=(200, 30, 40))
    d.rectangle([52, 20, 170, 30], fill=(30, 30, 30))
    d.rectangle([52, 36, 140, 44], fill=(90, 90, 160))
    return im


lg = logo()
lg.save(f'{ASSETS}/logo-rgb.png')
lg.save(f'{ASSETS}/logo-rgb.jpg', quality=80)
lg.convert('L').save(f'{ASSETS}/logo-gray.jpg', quality=80)
lg.convert('L').save(f'{ASSETS}/logo-gray.png')
lg.convert('CMYK').save(f'{ASSETS}/logo-cmyk.jpg', quality=80)
lg.quantize(16).save(f'{ASSETS}/logo-indexed.png')
rgba = lg.convert('RGBA')
alpha = Image.new('L', (W, H), 0)
ImageDraw.Draw(alpha).rounded_rectangle([0, 0, W - 1, H - 1], 14, fill=255)
rgba.putalpha(alpha)
rgba.save(f'{ASSETS}/logo-rgba.png')
# 16-bit grey PNG (16 bits per component in the PDF when passed through)
Image.frombytes('I;16', (W, H), bytes((x * 7) & 0xFF for x in range(W * H * 2))).save(f'{ASSETS}/logo-gray16.png')

# A scanned invoice page at 72 dpi: text drawn with DejaVu, a little noise, saved as a low-quality JPEG.
font = ImageFont.truetype('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', 11)
bold = ImageFont.truetype('/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf', 16)
page = Image.new('RGB', (595, 842), (250, 248, 240))
d = ImageDraw.Draw(page)
page.paste(lg, (40, 40))
d.text((40, 120), DATA['seller']['name'], font=font, fill=(20, 20, 20))
d.text((40, 136), f"{DATA['seller']['street']}, {DATA['seller']['city']}", font=font, fill=(20, 20, 20))
d.text((40, 190), DATA['buyer']['name'], font=font, fill=(20, 20, 20))
d.text((40, 206), DATA['buyer']['street'], font=font, fill=(20, 20, 20))
d.text((40, 222), DATA['buyer']['city'], font=font, fill=(20, 20, 20))
d.text((40, 270), f"Rechnung {DATA['number']} vom {DATA['date']}", font=bold, fill=(0, 0, 0))
y = 310
for l in DATA['lines']:
    d.text((40, y), l['pos'], font=font, fill=(0, 0, 0))
    d.text((70, y), l['desc'], font=font, fill=(0, 0, 0))
    d.text((400, y), l['qty'], font=font, fill=(0, 0, 0))
    d.text((480, y), l['total'], font=font, fill=(0, 0, 0))
    y += 20
d.line([(40, y), (555, y)], fill=(0, 0, 0))
d.text((380, y + 10), f"Summe brutto {DATA['gross']}", font=bold, fill=(0, 0, 0))
d.text((40, 780), DATA['terms'], font=font, fill=(40, 40, 40))
page = page.rotate(0.6, fillcolor=(250, 248, 240))
page.save(f'{ASSETS}/scan-page.jpg', quality=45)
page.convert('L').save(f'{ASSETS}/scan-page-gray.jpg', quality=45)
page.convert('L').point(lambda v: 255 if v > 160 else 0).convert('1').save(f'{ASSETS}/scan-page-bw.png')
page.convert('L').point(lambda v: 255 if v > 160 else 0).convert('1').save(f'{ASSETS}/scan-page-bw.tif', compression='group4')
page.save(f'{ASSETS}/scan-page.png')
page.convert('CMYK').save(f'{ASSETS}/scan-page-cmyk.jpg', quality=40)
print('assets in', ASSETS)
