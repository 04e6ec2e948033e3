"""Qt 5 (python3-pyqt5): QPrinter / QPdfWriter, what Qt desktop applications print invoices with. Usage: qt_invoice.py VARIANT HTML OUT"""
import os
import sys
os.environ.setdefault('QT_QPA_PLATFORM', 'offscreen')
from PyQt5.QtGui import QGuiApplication, QTextDocument, QPdfWriter, QPageSize, QPainter, QColor, QFont
from PyQt5.QtCore import QMarginsF, QSizeF, QRectF
from PyQt5.QtPrintSupport import QPrinter

variant, html_file, out = sys.argv[1], sys.argv[2], sys.argv[3]
app = QGuiApplication(sys.argv)
doc = QTextDocument()
doc.setHtml(open(html_file, encoding='utf-8').read())
if variant == 'printer':
    p = QPrinter(QPrinter.HighResolution)
    p.setOutputFormat(QPrinter.PdfFormat)
    p.setOutputFileName(out)
    p.setPageSize(QPrinter.A4)
    p.setDocName('Rechnung RE-2026-0417')
    p.setCreator('Qt Rechnungsdruck')
    doc.print_(p)
else:
    w = QPdfWriter(out)
    w.setPageSize(QPageSize(QPageSize.A4))
    w.setTitle('Rechnung RE-2026-0417')
    w.setCreator('Qt Rechnungsdruck')
    if variant == 'pdfa':
        w.setPdfVersion(QPdfWriter.PdfVersion_A1b)
    w.setResolution(300)
    painter = QPainter(w)
    if variant == 'painter':
        painter.setPen(QColor(200, 0, 0, 80))
        painter.setFont(QFont('Liberation Serif', 60))
        painter.drawText(QRectF(200, 1200, 2000, 600), 'KOPIE')
    doc.setPageSize(QSizeF(w.width(), w.height()))
    doc.drawContents(painter)
    painter.end()
