#!/usr/bin/env python3
"""
Diff two releases of the Factur-X / ZUGFeRD profile Schematron and write the older release's
differences as data for the rule overlay (src/rules/facturx/release-<old>.data.ts).

Usage:
  python3 scripts/diff-facturx-schematron.py OLD_DIR NEW_DIR OLD_RELEASE > src/rules/facturx/release-1.08.data.ts
  python3 scripts/diff-facturx-schematron.py OLD_DIR NEW_DIR OLD_RELEASE --report   # human-readable diff

Each folder holds the five profile files of one release as published (FACTUR-X_<PROFILE>.sch and
FACTUR-X_<PROFILE>_codedb.xml, PROFILE in MINIMUM, BASIC-WL or BASICWL, BASIC, EN16931, EXTENDED).
NEW is the release our rule tables implement (its assert ids are our rule ids). Written out are facts
only: assert ids, rule contexts and code values, never test expressions or messages.

Asserts are paired per profile: same context and test; then same context and test up to `[1]`
predicates; then same context and message label ([BR-xx] or the code-list message); then same label;
then the few pairs listed in MANUAL (label renamed between releases).
"""
import json, re, sys, collections, os
import xml.etree.ElementTree as ET

S = '{http://purl.oclc.org/dsdl/schematron}'
PROFILES = {'fx-minimum': 'MINIMUM', 'fx-basicwl': 'BASIC-WL', 'fx-basic': 'BASIC', 'fx-en16931': 'EN16931', 'fx-extended': 'EXTENDED'}
# (profile, old id, new id): the same assert under a message label the new release renamed.
MANUAL = [(p, 'FX-SCH-A-000134', 'BR-50') for p in PROFILES]  # 1.08 "[BR-61]" on the creditor account = 1.09 BR-50
# Old asserts without a new counterpart, implemented by one of our rules (by label or, unlabelled, by test).
IMPLEMENTED_BY_LABEL = re.compile(r'^(BR-(?:[A-Z]+-)?\d+|CII-(?:SR|DT)-\d+)$')
# Labels the newer release renamed: old label → our rule id.
ALIASES = {'BR-CO-27': 'CII-SR-470'}
UNLABELLED = {  # old test (whitespace removed) → our rule id
    "not(ram:SellerTradeParty/ram:DefinedTradeContact/ram:PersonNameandram:SellerTradeParty/ram:DefinedTradeContact/ram:DepartmentName)": 'CII-SR-465',
    "not(ram:BuyerTradeParty/ram:DefinedTradeContact/ram:PersonNameandram:BuyerTradeParty/ram:DefinedTradeContact/ram:DepartmentName)": 'CII-SR-466',
}


def path_of(folder, prof, suffix):
    for name in (prof, prof.replace('-', '')):
        p = os.path.join(folder, f'FACTUR-X_{name}{suffix}')
        if os.path.exists(p):
            return p
    raise SystemExit(f'no FACTUR-X_{prof}{suffix} in {folder}')


def load(folder, prof):
    root = ET.parse(path_of(folder, prof, '.sch')).getroot()
    out = []
    for rule in root.iter(S + 'rule'):
        ctx = ' '.join(rule.get('context').split())
        lets = {l.get('name'): l.get('value') for l in rule.findall(S + 'let')}
        for a in rule:
            if a.tag not in (S + 'assert', S + 'report'):
                continue
            msg = ' '.join(''.join(a.itertext()).split())
            test = ' '.join(a.get('test').split())
            m = re.search(r'\$(codeValue\d+)', test)
            out.append(dict(kind=a.tag[len(S):], ctx=ctx, id=a.get('id'), flag=a.get('flag'), test=test, msg=msg,
                            lists=re.findall(r'cl\[@id=(\d+)\]', test), target=lets.get(m.group(1)) if m else None))
    return out


def codedb(folder, prof):
    root = ET.parse(path_of(folder, prof, '_codedb.xml')).getroot()
    return {cl.get('id'): sorted({e.get('value') for e in cl}) for cl in root}


def label(x):
    m = re.match(r'\s*\[([A-Z0-9-]+)\]', x['msg'])
    return m.group(1) if m else x['msg'][:160]


def compare(old, new, prof_key):
    a, b = old, new
    used_a, used_b, pairs = set(), set(), []
    keys = [lambda x: (x['kind'], x['ctx'], x['test']),
            lambda x: (x['kind'], x['ctx'], x['test'].replace('[1]', '').replace(' ', '')),
            lambda x: (x['kind'], x['ctx'], label(x)),
            lambda x: (x['kind'], label(x))]
    for n, kf in enumerate(keys):
        idx = collections.defaultdict(list)
        for i, x in enumerate(a):
            if i not in used_a:
                idx[kf(x)].append(i)
        for j, y in enumerate(b):
            if j in used_b:
                continue
            c = idx.get(kf(y))
            if c:
                i = c.pop(0)
                used_a.add(i); used_b.add(j); pairs.append((i, j, n))
    for p, oid, nid in MANUAL:
        if p != prof_key:
            continue
        i = next((i for i, x in enumerate(a) if i not in used_a and x['id'] == oid), None)
        j = next((j for j, y in enumerate(b) if j not in used_b and y['id'] == nid), None)
        if i is not None and j is not None:
            used_a.add(i); used_b.add(j); pairs.append((i, j, 4))
    removed = [a[i] for i in range(len(a)) if i not in used_a]
    added = [b[j] for j in range(len(b)) if j not in used_b]
    return pairs, removed, added


def main():
    old_dir, new_dir, release = sys.argv[1:4]
    report = '--report' in sys.argv
    data = {}
    for key, prof in PROFILES.items():
        a, b = load(old_dir, prof), load(new_dir, prof)
        da, db = codedb(old_dir, prof), codedb(new_dir, prof)
        pairs, removed, added = compare(a, b, key)
        rename, codes, changed = {}, {}, []
        for i, j, n in pairs:
            x, y = a[i], b[j]
            if y['id'] and x['id'] and x['id'] != y['id']:
                rename[y['id']] = x['id']
            if x['lists'] or y['lists']:
                sa = set().union(*[da.get(c, []) for c in x['lists']]) if x['lists'] else set()
                sb = set().union(*[db.get(c, []) for c in y['lists']]) if y['lists'] else set()
                if sa != sb and y['id']:
                    codes[y['id']] = {'add': sorted(sa - sb), 'remove': sorted(sb - sa)}
            elif n >= 2 and y['id']:
                changed.append(y['id'])
        not_in = sorted({y['id'] for y in added if y['id']})
        not_used_new = sorted({y['ctx'] for y in added if not y['id'] and y['kind'] == 'report'})
        extra, extra_codes, missing = [], [], []
        for x in removed:
            lab = label(x)
            if x['lists'] and x['target']:
                extra_codes.append({'id': x['id'], 'context': x['ctx'], 'target': x['target'], 'flag': x['flag'] or 'fatal',
                                    'codes': sorted(set().union(*[da.get(c, []) for c in x['lists']]))})
            elif x['kind'] == 'assert' and IMPLEMENTED_BY_LABEL.match(lab):
                extra.append([x['id'], ALIASES.get(lab, lab), x['flag'] or 'fatal'])
            elif x['kind'] == 'assert' and x['test'].replace(' ', '') in UNLABELLED:
                extra.append([x['id'], UNLABELLED[x['test'].replace(' ', '')], x['flag'] or 'fatal'])
            else:
                missing.append([x['id'] or 'report', lab if lab else x['test'][:80], x['ctx']])
        data[key] = dict(rename=rename, notIn=not_in, notUsedNew=not_used_new, extra=extra, extraCodes=extra_codes,
                         codes=codes, changed=sorted(changed), missing=missing)
        if report:
            print(f'== {key}: {len(a)} asserts/reports in {release}, {len(b)} in the newer release; {len(pairs)} paired '
                  f'({len(rename)} ids differ), {len(changed)} tests changed, {len(codes)} code lists differ, '
                  f'{len(added)} only in the newer release, {len(removed)} only in {release}')
            for y in added: print('   + new  ', y['id'] or 'report', label(y)[:70], '|', y['ctx'][-80:])
            for x in removed: print('   - old  ', x['id'] or 'report', label(x)[:70], '|', x['ctx'][-80:])
            for cid in sorted(codes): print('   ~ codes', cid, codes[cid])
            for cid in changed: print('   ~ test ', cid)
    if report:
        return
    print(f'/* Generated by scripts/diff-facturx-schematron.py from the published Factur-X {release} and the bundled')
    print(' * release\'s profile Schematron files: do not edit by hand. Facts only (ids, contexts, codes). */')
    print("import type { FxReleaseDelta } from './release-delta-types.js';")
    print()
    name = 'FX_' + release.replace('.', '_') + '_DELTA'
    print(f'export const {name}: Record<string, FxReleaseDelta> = {{')
    for key, d in data.items():
        print(f'  {json.dumps(key)}: {{')
        for field, value in d.items():
            print(f'    {field}: {json.dumps(value, ensure_ascii=False)},')
        print('  },')
    print('};')


if __name__ == '__main__':
    main()
