"""The invoice as plain text (enscript), groff -ms with tbl, LaTeX, or Markdown (pandoc). Usage: text_invoice.py txt|ms|tex|md VARIANT > file"""
import sys
from common import DATA as D, lines

kind, variant = sys.argv[1], sys.argv[2]
rows = lines(4 if variant == 'long' else 1)
S, B = D['seller'], D['buyer']
if kind == 'txt':
    out = [f"{S['name']}, {S['street']}, {S['city']}", '', B['name'], B['street'], B['city'], '',
           f"RECHNUNG {D['number']}            Datum: {D['date']}", '', f"{'Pos':<4}{'Beschreibung':<44}{'Menge':>7} {'Einheit':<9}{'Preis':>11}{'Betrag':>12}", '-' * 88]
    out += [f"{r['pos']:<4}{r['desc'][:43]:<44}{r['qty']:>7} {r['unit']:<9}{r['price']:>11}{r['total']:>12}" for r in rows]
    out += ['-' * 88, f"{'Nettobetrag':>75}{D['net']:>13}", f"{'USt. ' + D['vat_rate']:>75}{D['vat']:>13}", f"{'Gesamtbetrag':>75}{D['gross']:>13}", '', D['terms']]
    sys.stdout.write('\n'.join(out) + '\n')
elif kind == 'ms':
    out = ['.TL', f"Rechnung {D['number']}", '.AU', S['name'], '.AI', f"{S['street']}, {S['city']}", '.LP', f"{B['name']}", '.br', B['street'], '.br', B['city'],
           '.PP', f"Datum: {D['date']} \\(em Fällig: {D['due']}", '.TS', 'box tab(|);', 'c c c c c c', 'n l n l n n.', 'Pos.|Beschreibung|Menge|Einheit|Preis|Betrag', '_']
    out += [f"{r['pos']}|{r['desc']}|{r['qty']}|{r['unit']}|{r['price']}|{r['total']}" for r in rows]
    out += ['.TE', '.PP', f"Nettobetrag {D['net']}, USt. {D['vat_rate']} {D['vat']}, \\fBGesamtbetrag {D['gross']}\\fP", '.PP', D['terms']]
    sys.stdout.write('\n'.join(out) + '\n')
elif kind == 'tex':
    esc = lambda s: s.replace('&', '\\&').replace('%', '\\%').replace('€', '\\texteuro{}').replace('„', ',,').replace('“', '``').replace('«', '<<').replace('»', '>>').replace('×', '$\\times$').replace('–', '--').replace('—', '---')
    enc = {'t1': '\\usepackage[T1]{fontenc}', 'helvet': '\\usepackage[T1]{fontenc}\\usepackage{helvet}\\renewcommand{\\familydefault}{\\sfdefault}', 'times': '\\usepackage[T1]{fontenc}\\usepackage{mathptmx}'}.get(variant, '')
    logo = 'logo-rgb.jpg' if variant != 'png' else 'logo-rgba.png'
    pre = {'pdfa': '\\begin{filecontents*}[overwrite]{\\jobname.xmpdata}\n\\Title{Rechnung RE-2026-0417}\n\\Author{M\\"uller und S\\"ohne}\n\\end{filecontents*}\n\\documentclass[a4paper,10pt]{article}\\usepackage[a-2b]{pdfx}'}.get(variant, '\\documentclass[a4paper,10pt]{article}')
    if variant == 'ocg':
        enc = '\\usepackage{ocgx2}'
    out = [pre, '\\usepackage[utf8]{inputenc}', enc, '\\usepackage{textcomp}', '\\usepackage{graphicx}',
           '' if variant == 'pdfa' else '\\usepackage[colorlinks=' + ('false' if variant == 'hyperref-boxes' else 'true') + ']{hyperref}', f"\\hypersetup{{pdftitle={{Rechnung {D['number']}}},pdfauthor={{{esc(S['name'])}}}}}",
           '\\begin{document}', '\\pagestyle{plain}', f"\\includegraphics[width=45mm]{{{logo}}}\\hfill\\parbox[t]{{60mm}}{{\\raggedleft\\footnotesize {esc(S['name'])}\\\\{esc(S['street'])}\\\\{esc(S['city'])}}}", '',
           f"\\bigskip {esc(B['name'])}\\\\{esc(B['street'])}\\\\{esc(B['city'])}", '', f"\\section*{{Rechnung {D['number']}}}", f"Datum: {D['date']} \\quad Fällig: {D['due']}", '',
           '\\begin{tabular}{rlrlrr}\\hline Pos. & Beschreibung & Menge & Einheit & Preis & Betrag\\\\\\hline']
    out += [f"{r['pos']} & {esc(r['desc'])} & {esc(r['qty'])} & {r['unit']} & {esc(r['price'])} & {esc(r['total'])}\\\\" for r in rows]
    out += ['\\hline\\end{tabular}', '', f"\\hfill Nettobetrag {esc(D['net'])}\\\\ \\null\\hfill USt. {esc(D['vat_rate'])} {esc(D['vat'])}\\\\ \\null\\hfill\\textbf{{Gesamtbetrag {esc(D['gross'])}}}", '',
            esc(D['terms']), '',
            '\\begin{ocg}[printocg=never]{Entwurf}{entwurf}{1}\\textbf{ENTWURF -- nicht drucken}\\end{ocg}' if variant == 'ocg' else '', f"\\href{{https://example.com/rechnung/{D['number']}}}{{Rechnung online ansehen}}", '\\end{document}']
    sys.stdout.write('\n'.join(out) + '\n')
elif kind == 'md':
    out = [f"---\ntitle: Rechnung {D['number']}\nauthor: {S['name']}\nlang: de-DE\n---", '', f"**{S['name']}**, {S['street']}, {S['city']}", '', f"{B['name']}  \n{B['street']}  \n{B['city']}", '',
           f"Datum: {D['date']}, fällig: {D['due']}", '', '| Pos. | Beschreibung | Menge | Einheit | Preis | Betrag |', '|---:|:---|---:|:---|---:|---:|']
    out += [f"| {r['pos']} | {r['desc']} | {r['qty']} | {r['unit']} | {r['price']} | {r['total']} |" for r in rows]
    out += ['', f"Nettobetrag {D['net']}, USt. {D['vat_rate']} {D['vat']}, **Gesamtbetrag {D['gross']}**", '', D['terms'], '', f"[Rechnung online ansehen](https://example.com/rechnung/{D['number']})"]
    sys.stdout.write('\n'.join(out) + '\n')
