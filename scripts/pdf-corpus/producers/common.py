"""Shared by the Python producers of the corpus: the fictitious invoice and the asset folder."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = json.load(open(os.path.join(HERE, '..', 'data', 'invoice.json'), encoding='utf-8'))
ASSETS = os.environ.get('ASSETS', '/tmp/pdf-corpus-work/assets')
OUT = os.environ.get('OUT', '.')


def asset(name):
    return os.path.join(ASSETS, name)


def out(name):
    return os.path.join(OUT, name)


def lines(pages=1):
    """The invoice lines repeated to fill `pages` pages (about 8 lines a page)."""
    rows = []
    n = 0
    for _ in range(pages):
        for l in DATA['lines']:
            n += 1
            rows.append(dict(l, pos=str(n)))
    return rows
