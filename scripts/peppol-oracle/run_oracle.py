#!/usr/bin/env python3
"""
The official verdicts of Peppol test invoices: compiles each bundled release's official Schematron (from
$PEPPOL_ARTEFACTS, never from the repository) with compile_schematron.py, runs it under Saxon-HE (Debian
libsaxonhe-java) through Oracle.java, and writes one JSON line per invoice and rule set:

  {"file": "invoices/be--R040-wrong-amount.xml", "ruleset": "peppol-bis-3",
   "errors": [{"id": "PEPPOL-EN16931-R040", "location": "/Invoice[1]/..."}], "warnings": []}

`ruleset` is the engine's registry id (`peppol-bis-3@2025.11` for an older release). An invoice the artefact
cannot evaluate (a dynamic error, e.g. xs:decimal('abc')) gets "error": "<message>" and no findings.

$PEPPOL_ARTEFACTS is a folder with the official schematrons, one folder per release:
  2026.5/PEPPOL-EN16931-UBL.sch, 2025.11/PEPPOL-EN16931-UBL.sch, 2025.5/PEPPOL-EN16931-UBL.sch,
  selfbilling-2026.5/PEPPOL-EN16931-UBL-SB.sch, selfbilling-2025.3/PEPPOL-EN16931-UBL-SB.sch
(OpenPeppol's release packages; a checkout of OpenPEPPOL/peppol-bis-invoice-3 holds one release under rules/sch/).

Usage: PEPPOL_ARTEFACTS=DIR scripts/peppol-oracle/run_oracle.py [--invoices DIR] [--out FILE] [--sets a,b]
Defaults: test/fixtures/peppol/invoices → test/fixtures/peppol/verdicts.jsonl, every rule set.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))
SAXON = os.environ.get('SAXON_JAR', '/usr/share/java/Saxon-HE.jar')

SETS = {
    'peppol-bis-3': '2026.5/PEPPOL-EN16931-UBL.sch',
    'peppol-bis-3@2025.11': '2025.11/PEPPOL-EN16931-UBL.sch',
    'peppol-bis-3@2025.5': '2025.5/PEPPOL-EN16931-UBL.sch',
    'peppol-bis-3-selfbilling': 'selfbilling-2026.5/PEPPOL-EN16931-UBL-SB.sch',
    # Self-billing 3.0.0 (March 2025) was in force beside billing 2025.11 and 2025.5.
    'peppol-bis-3-selfbilling@2025.11': 'selfbilling-2025.3/PEPPOL-EN16931-UBL-SB.sch',
    'peppol-bis-3-selfbilling@2025.5': 'selfbilling-2025.3/PEPPOL-EN16931-UBL-SB.sch',
}


def parse_output(text):
    """Oracle.java output → {file: [(id, flag, location)] or 'ERROR:...'}"""
    result, current, lines = {}, None, []

    def flush():
        if current is None:
            return
        if lines and lines[0].startswith('! '):
            result[current] = 'ERROR:' + lines[0][2:]
        else:
            result[current] = [tuple(line.split('\t')) for line in lines if line.strip()]

    for line in text.split('\n'):
        if line.startswith('# '):
            flush()
            current, lines = line[2:], []
        elif current is not None:
            lines.append(line)
    flush()
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--invoices', default=os.path.join(ROOT, 'test/fixtures/peppol/invoices'))
    ap.add_argument('--out', default=os.path.join(ROOT, 'test/fixtures/peppol/verdicts.jsonl'))
    ap.add_argument('--sets', default=','.join(SETS))
    args = ap.parse_args()
    artefacts = os.environ.get('PEPPOL_ARTEFACTS')
    if not artefacts:
        sys.exit('set PEPPOL_ARTEFACTS to the folder with the official schematrons (see the header of this script)')
    if not os.path.exists(SAXON):
        sys.exit(f'Saxon-HE not found at {SAXON} (apt-get install libsaxonhe-java, or set SAXON_JAR)')
    base = os.path.dirname(os.path.normpath(args.out))
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(['javac', '-cp', SAXON, '-d', tmp, os.path.join(HERE, 'Oracle.java')], check=True)
        lines = []
        for name in args.sets.split(','):
            sch = os.path.join(artefacts, SETS[name])
            xslt = os.path.join(tmp, name.replace('@', '_') + '.xslt')
            subprocess.run([sys.executable, os.path.join(HERE, 'compile_schematron.py'), sch, xslt], check=True)
            out = subprocess.run(['java', '-cp', f'{SAXON}:{tmp}', 'Oracle', xslt, args.invoices], check=True, capture_output=True, text=True).stdout
            for path, findings in sorted(parse_output(out).items()):
                rel = os.path.relpath(path, base)
                line = {'file': rel, 'ruleset': name}
                if isinstance(findings, str):
                    line['error'] = findings[len('ERROR:'):]
                else:
                    line['errors'] = [{'id': i, 'location': loc} for i, flag, loc in findings if flag == 'fatal']
                    line['warnings'] = [{'id': i, 'location': loc} for i, flag, loc in findings if flag != 'fatal']
                lines.append(json.dumps(line, ensure_ascii=False))
            print(f'{name}: {sum(1 for _ in out.splitlines() if _.startswith("# "))} invoices', file=sys.stderr)
    with open(args.out, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
