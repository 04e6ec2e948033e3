#!/usr/bin/env python3
"""
Write src/rules/peppol/codes.data.ts: the code lists (global `tokenize('…', '\\s')` variables) of each bundled
Peppol BIS Billing 3.0 / Self-Billing 3.0 schematron release, as data. Facts only (identifiers and codes). The
lists are kept as the artefacts tokenize them: a list written with a trailing blank also accepts the empty value.

Usage: gen_codes.py OUT.ts RELEASE=PATH.sch ...   (e.g. billing-2026.5=…/PEPPOL-EN16931-UBL.sch)
"""
import json
import re
import sys
import xml.etree.ElementTree as ET

NS = '{http://purl.oclc.org/dsdl/schematron}'
WANTED = ['ISO4217', 'MIMECODE', 'UNCL2005', 'UNCL5189', 'UNCL7161', 'eaid']

out, *pairs = sys.argv[1:]
data = {}
for pair in pairs:
    name, path = pair.split('=', 1)
    lists = {}
    for let in ET.parse(path).getroot().iter(NS + 'let'):
        m = re.match(r"\s*tokenize\('([^']*)',\s*'\\s'\)\s*$", let.get('value'))
        if m and let.get('name') in WANTED:
            lists[let.get('name')] = sorted(set(re.split(r'\s', m.group(1))))
    missing = [w for w in WANTED if w not in lists]
    if missing:
        sys.exit(f'{path}: lists not found: {missing}')
    data[name] = lists

lines = [
    '/**',
    ' * Code lists of the bundled Peppol BIS Billing 3.0 and Self-Billing 3.0 schematron releases, by release: generated',
    ' * by scripts/peppol-oracle/gen_codes.py from the official schematrons (facts: the codes each release accepts).',
    " * An empty string in a list means the release's list ends in a blank, so the artefact accepts an empty value.",
    ' */',
    '// biome-ignore format: generated data',
    'export const PEPPOL_CODE_LISTS = {',
]
for name, lists in data.items():
    lines.append(f'  {json.dumps(name)}: {{')
    for key in WANTED:
        lines.append(f'    {key}: {json.dumps(lists[key])},')
    lines.append('  },')
lines.append('} as const;')
lines.append('')
open(out, 'w', encoding='utf-8').write('\n'.join(lines))
