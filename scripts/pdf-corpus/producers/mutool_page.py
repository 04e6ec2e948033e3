"""A page description for `mutool create` (MuPDF): standard fonts by name, a PNG logo, the invoice operators. Usage: mutool_page.py > page.txt"""
from common import asset
from handmade import invoice_ops, winansi_show

print('%%MediaBox 0 0 595 842')
print('%%Font F1 Helvetica')
print('%%Font F2 Helvetica-Bold')
print(f"%%Image Im1 {asset('logo-rgb.png')}")
print('q 135 0 0 40 40 770 cm /Im1 Do Q')
print(invoice_ops(winansi_show).replace('760 Td', '740 Td'))
