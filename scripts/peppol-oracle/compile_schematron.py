#!/usr/bin/env python3
"""
Compile an ISO Schematron file (queryBinding xslt2) into an XSLT 3.0 stylesheet that reports every failed
assert as one text line: `<id>\t<flag>\t<location>`. Only what the OpenPeppol BIS Billing schematrons use is
supported (ns, global and pattern lets, xsl:function, patterns of rules with lets and asserts; no abstract
rules, phases, includes or reports); anything else stops the compilation, so nothing is silently ignored.

Semantics follow ISO/IEC 19757-3: each pattern visits every element of the document once, and an element is
checked by the first rule of the pattern (in document order) whose context matches it; lets are evaluated
where they stand (a pattern's lets with the document as context, a rule's lets on its context node).

Used by run_oracle.py to judge test invoices with the official artefacts (Saxon-HE runs the result); the
artefacts themselves are never part of the repository.
"""
import re
import sys
import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape, quoteattr

SCH = 'http://purl.oclc.org/dsdl/schematron'
XSL = 'http://www.w3.org/1999/XSL/Transform'


def q(tag):
    return tag.split('}', 1)[1] if '}' in tag else tag


def fail(msg):
    sys.exit(f'compile_schematron: {msg}')


def serialize_xsl(el):
    """An xsl:function element (and its children) as XSLT text, with the xsl prefix."""
    name = q(el.tag)
    attrs = ''.join(f' {k}={quoteattr(v)}' for k, v in el.attrib.items())
    inner = escape(el.text or '')
    for c in el:
        if not c.tag.startswith('{' + XSL):
            fail(f'unexpected element {c.tag} in a function')
        inner += serialize_xsl(c) + escape(c.tail or '')
    return f'<xsl:{name}{attrs}>{inner}</xsl:{name}>'


def compile_schema(path):
    root = ET.parse(path).getroot()
    if root.tag != f'{{{SCH}}}schema':
        fail('not an ISO Schematron schema')
    namespaces = {}
    top = []
    patterns = []
    for el in root:
        t = el.tag
        if t == f'{{{SCH}}}ns':
            namespaces[el.get('prefix')] = el.get('uri')
        elif t == f'{{{SCH}}}let':
            top.append(f'<xsl:variable name={quoteattr(el.get("name"))} select={quoteattr(el.get("value"))}/>')
        elif t == f'{{{XSL}}}function':
            top.append(serialize_xsl(el))
        elif t == f'{{{SCH}}}pattern':
            patterns.append(el)
        elif t in (f'{{{SCH}}}title', f'{{{SCH}}}p'):
            pass
        else:
            fail(f'unsupported top-level element {t}')

    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"'
           + ''.join(f' xmlns:{p}={quoteattr(u)}' for p, u in namespaces.items())
           + ' xmlns:oracle="urn:einvoice-service:oracle" exclude-result-prefixes="#all">',
           '<xsl:output method="text" encoding="UTF-8"/>',
           # Location in the corpus verdicts' style: element names as written, with their position among siblings of that name.
           '<xsl:function name="oracle:path" as="xs:string" xmlns:xs="http://www.w3.org/2001/XMLSchema">'
           '<xsl:param name="n" as="node()"/>'
           '<xsl:sequence select="string-join(for $a in $n/ancestor-or-self::* return concat(\'/\', local-name($a), \'[\', count($a/preceding-sibling::*[node-name(.) = node-name($a)]) + 1, \']\'), \'\')"/>'
           '</xsl:function>']
    out += top
    modes = []
    for pi, pat in enumerate(patterns):
        mode = f'P{pi}'
        modes.append(mode)
        rules = []
        for el in pat:
            t = el.tag
            if t == f'{{{SCH}}}let':
                out.append(f'<xsl:variable name={quoteattr(el.get("name"))} select={quoteattr(el.get("value"))}/>')
            elif t == f'{{{SCH}}}rule':
                if el.get('abstract') or el.find(f'{{{SCH}}}extends') is not None:
                    fail('abstract rules are not supported')
                rules.append(el)
            elif t in (f'{{{SCH}}}title', f'{{{SCH}}}p'):
                pass
            else:
                fail(f'unsupported element {t} in a pattern')
        n = len(rules)
        for ri, rule in enumerate(rules):
            body = []
            for el in rule:
                t = el.tag
                if t == f'{{{SCH}}}let':
                    body.append(f'<xsl:variable name={quoteattr(el.get("name"))} select={quoteattr(el.get("value"))}/>')
                elif t == f'{{{SCH}}}assert':
                    line = f'{el.get("id")}\t{el.get("flag") or "fatal"}\t'
                    body.append(f'<xsl:if test={quoteattr("not(" + el.get("test") + ")")}>'
                                f'<xsl:value-of select={quoteattr(repr_str(line) + ", oracle:path(.)")} separator=""/>'
                                '<xsl:text>&#10;</xsl:text></xsl:if>')
                elif t == f'{{{SCH}}}report':
                    fail('reports are not supported')
            ctx = re.sub(r'\s+', ' ', rule.get('context')).strip()
            out.append(f'<xsl:template match={quoteattr(ctx)} mode="{mode}" priority="{n - ri + 1}">'
                       + ''.join(body) + f'<xsl:apply-templates select="*" mode="{mode}"/></xsl:template>')
        out.append(f'<xsl:template match="*" mode="{mode}" priority="0"><xsl:apply-templates select="*" mode="{mode}"/></xsl:template>')
    out.append('<xsl:template match="/">' + ''.join(f'<xsl:apply-templates select="*" mode="{m}"/>' for m in modes) + '</xsl:template>')
    out.append('</xsl:stylesheet>')
    return '\n'.join(out)


def repr_str(s):
    return "'" + s.replace("'", "''") + "'"


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit('usage: compile_schematron.py SCHEMA.sch OUT.xslt')
    text = compile_schema(sys.argv[1])
    with open(sys.argv[2], 'w', encoding='utf-8') as f:
        f.write(text)
