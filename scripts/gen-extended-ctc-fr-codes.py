#!/usr/bin/env python3
"""Write the code lists of the FNFE-MPE EXTENDED-CTC-FR schematrons that differ from EN 16931's into
src/rules/extended-ctc-fr/codes.data.ts (code values only: facts, no test or message text).

    FRANCE_RFE=<checkout of fnfempe/France_RFE> python3 scripts/gen-extended-ctc-fr-codes.py
"""
import os, re, sys, xml.etree.ElementTree as ET

NS = {'s': 'http://purl.oclc.org/dsdl/schematron'}
root = os.environ.get('FRANCE_RFE')
if not root:
    sys.exit('set FRANCE_RFE to a checkout of fnfempe/France_RFE')
base = os.path.join(root, 'FNFE_RFE_INVOICE')
files = {
    'cii': os.path.join(base, 'CII/EXTENDED-CTC-FR/schematron/EXTENDED-CTC-FR-CII.sch'),
    'ubl': os.path.join(base, 'UBL/EXTENDED-CTC-FR/schematron/EXTENDED-CTC-FR-UBL.sch'),
}
# The asserts whose list we need, by id (None: the CII assert without id, reported as BR-FXEXT-04).
WANTED = {
    'BR-FREXT-CL-10': 'ICD_PLUS',
    'BR-FREXT-CL-19-GP': 'GROSS_PRICE_ALLOWANCE_REASONS',
    'BR-FREXT-CL-20': 'CHARGE_REASONS_7161',
    'BR-FREXT-CL-20-TAX': 'CHARGE_REASONS_5153',
    'BR-FREXT-CL-20-LISTID': 'CHARGE_REASON_LIST_IDS',
    'BR-FREXT-CL-27': 'INCOTERMS',
    'BR-FREXT-04': 'ITEM_ATTRIBUTE_CODES',
    None: 'ITEM_ATTRIBUTE_CODES',
}
MIME = re.compile(r"@mimeCode\s*=\s*'([^']+)'")
LIST = re.compile(r"contains\(\s*'([^']+)'\s*,")

out = {}
for syntax, path in files.items():
    tree = ET.parse(path).getroot()
    for a in tree.iter('{http://purl.oclc.org/dsdl/schematron}assert'):
        aid = a.get('id')
        test = a.get('test') or ''
        if aid == 'BR-FREXT-CL-24':
            out.setdefault('MIME_CODES', MIME.findall(test))
            continue
        if aid not in WANTED:
            continue
        if aid is None and 'BR-FXEXT-04' not in ''.join(a.itertext()):
            continue
        m = LIST.search(test)
        if not m:
            sys.exit(f'{syntax} {aid}: no code list found')
        codes = m.group(1).split()
        name = WANTED[aid]
        if name in out and out[name] != codes:
            sys.exit(f'{name}: the CII and UBL lists differ')
        out[name] = codes

lines = [
    '/**',
    ' * Code lists of the FNFE-MPE EXTENDED-CTC-FR schematrons (France_RFE 1.4.0.x) that differ from the EN 16931 ones:',
    ' * code values only, written by scripts/gen-extended-ctc-fr-codes.py. Do not edit by hand.',
    ' */',
]
for name in sorted(out):
    codes = out[name]
    body = ', '.join(f"'{c}'" for c in codes)
    lines.append(f'export const {name}: readonly string[] = [{body}];')
target = os.path.join(os.path.dirname(__file__), '..', 'src/rules/extended-ctc-fr/codes.data.ts')
with open(target, 'w') as f:
    f.write('\n'.join(lines) + '\n')
print(f'wrote {target}: ' + ', '.join(f'{k} {len(v)}' for k, v in sorted(out.items())))
