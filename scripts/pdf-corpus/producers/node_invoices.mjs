// pdfmake, jsPDF and PDFKit (npm, installed by install-producers.sh into $WORK/npm): invoices as Node.js and browser
// invoicing code writes them. Usage: node node_invoices.mjs PRODUCER VARIANT OUTFILE
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync, createWriteStream } from 'node:fs';
import { join } from 'node:path';

const WORK = process.env.WORK ?? '/tmp/pdf-corpus-work';
const A = process.env.ASSETS ?? `${WORK}/assets`;
const require = createRequire(`${WORK}/npm/`);
const D = JSON.parse(readFileSync(new URL('../data/invoice.json', import.meta.url), 'utf8'));
const [producer, variant, out] = process.argv.slice(2);
const rows = (n) => {
  let k = 0;
  return Array.from({ length: n }, () => D.lines.map((l) => ({ ...l, pos: String(++k) }))).flat();
};
const asset = (name) => readFileSync(join(A, name));
const DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const DEJAVU_BOLD = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

async function pdfkit() {
  const PDFDocument = require('pdfkit');
  const opts = {
    size: 'A4',
    margin: 40,
    info: { Title: `Rechnung ${D.number}`, Author: D.seller.name, Creator: 'PDFKit invoice service' },
  };
  if (variant === 'pdf13') opts.pdfVersion = '1.3';
  if (variant === 'encrypted')
    Object.assign(opts, {
      pdfVersion: '1.7',
      ownerPassword: 'owner-0417',
      permissions: { printing: 'highResolution', copying: false, modifying: false },
    });
  if (variant === 'pdfa3') Object.assign(opts, { subset: 'PDF/A-3b', pdfVersion: '1.7', tagged: true, lang: 'de-DE' });
  const doc = new PDFDocument(opts);
  const done = new Promise((r) => doc.pipe(createWriteStream(out)).on('finish', r));
  let font = 'Helvetica';
  let bold = 'Helvetica-Bold';
  if (variant === 'ttf' || variant === 'pdfa3') {
    doc.registerFont('DejaVu', DEJAVU);
    doc.registerFont('DejaVu-Bold', DEJAVU_BOLD);
    font = 'DejaVu';
    bold = 'DejaVu-Bold';
  }
  if (variant === 'times') [font, bold] = ['Times-Roman', 'Times-Bold'];
  const cmyk = variant === 'cmyk';
  const black = cmyk ? [0, 0, 0, 100] : 'black';
  if (cmyk) doc.rect(0, 0, 595, 14).fill([100, 40, 0, 10]);
  doc.image(asset(variant === 'cmyk' ? 'logo-cmyk.jpg' : variant === 'pdfa3' ? 'logo-rgb.jpg' : 'logo-rgba.png'), 40, 40, { width: 130 });
  doc
    .font(font)
    .fontSize(8)
    .fillColor(black)
    .text([D.seller.name, D.seller.street, D.seller.city, `USt-IdNr. ${D.seller.vat}`].join('\n'), 350, 40, { width: 205, align: 'right' });
  doc.fontSize(9).text([D.buyer.name, D.buyer.street, D.buyer.city].join('\n'), 40, 120);
  doc.font(bold).fontSize(15).text(`Rechnung ${D.number}`, 40, 180);
  doc.font(font).fontSize(9).text(`Datum: ${D.date}   Fällig: ${D.due}`);
  let y = 230;
  const cols = [
    [40, 30, 'Pos.'],
    [70, 230, 'Beschreibung'],
    [300, 50, 'Menge'],
    [350, 50, 'Einheit'],
    [400, 70, 'Preis'],
    [470, 85, 'Betrag'],
  ];
  const line = (cells, isHead) => {
    if (y > 760) {
      doc.addPage();
      y = 50;
    }
    doc.font(isHead ? bold : font).fontSize(9);
    cols.forEach(([x, w], i) => doc.text(cells[i], x, y, { width: w, align: i >= 4 ? 'right' : 'left', lineBreak: false }));
    y += 14;
    doc
      .moveTo(40, y - 3)
      .lineTo(555, y - 3)
      .lineWidth(0.3)
      .strokeColor(cmyk ? [0, 0, 0, 40] : '#999999')
      .stroke();
  };
  line(
    cols.map((c) => c[2]),
    true,
  );
  for (const l of rows(variant === 'long' ? 9 : 1)) line([l.pos, l.desc, l.qty, l.unit, l.price, l.total], false);
  y += 10;
  for (const [k, v] of [
    ['Nettobetrag', D.net],
    [`USt. ${D.vat_rate}`, D.vat],
    ['Gesamtbetrag', D.gross],
  ]) {
    doc.font(k === 'Gesamtbetrag' ? bold : font).text(`${k}: ${v}`, 300, y, { width: 255, align: 'right' });
    y += 14;
  }
  doc
    .font(font)
    .fontSize(8)
    .text(D.terms, 40, y + 20, { width: 515 });
  if (variant === 'annotations' || variant === 'times') {
    doc.note(480, 250, 20, 20, 'Bitte Pos. 4 prüfen.', { Name: 'Comment', T: 'Buchhaltung' });
    doc.link(40, 790, 200, 12, 'https://example.com/rechnung');
    doc.fontSize(8).fillColor('blue').text('example.com/rechnung', 40, 792, { lineBreak: false });
    doc.highlight(70, 244, 200, 12);
  }
  if (variant === 'forms') {
    doc.initForm();
    doc.font(font).fontSize(9).fillColor('black').text('Bestellnummer:', 40, 700, { lineBreak: false });
    doc.formText('po', 130, 696, 150, 16, { value: 'PO-88412', align: 'left' });
    doc.text('Bestätigt:', 40, 725, { lineBreak: false });
    doc.formCheckbox('ok', 130, 722, 12, 12);
    doc.formCombo('payment', 300, 696, 120, 16, { select: ['Überweisung', 'Lastschrift'], value: 'Überweisung' });
    // PDFKit writes a JS string as a name; a String object as a PDF string.
    doc.formPushButton('print', 300, 722, 60, 16, { label: 'Drucken', A: { S: 'JavaScript', JS: new String('this.print();') } });
  }
  if (variant === 'transparency') {
    doc
      .save()
      .fillOpacity(0.25)
      .fillColor('red')
      .rotate(-30, { origin: [300, 420] })
      .fontSize(70)
      .font(bold)
      .text('ZAHLBAR', 120, 400, { lineBreak: false })
      .restore();
    const grad = doc.linearGradient(40, 0, 555, 0);
    grad.stop(0, '#3355aa').stop(1, '#ffffff', 0);
    doc.rect(40, 20, 515, 10).fill(grad);
  }
  if (variant === 'attachment')
    doc.file(asset('logo-rgb.png'), { name: 'lieferschein.png', type: 'image/png', description: 'Lieferschein' });
  if (variant === 'outline') {
    doc.outline.addItem('Rechnung').addItem('Positionen');
    doc.addPage().fontSize(9).font(font).text('Anlage: Liefer- und Zahlungsbedingungen', 40, 60);
  }
  doc.end();
  await done;
}

async function jspdf() {
  const { jsPDF } = require('jspdf');
  const opts = { unit: 'mm', format: 'a4' };
  if (variant === 'encrypted') opts.encryption = { userPassword: '', ownerPassword: 'owner-0417', userPermissions: ['print'] };
  if (variant === 'compressed') opts.compress = true;
  const doc = new jsPDF(opts);
  doc.setProperties({ title: `Rechnung ${D.number}`, author: D.seller.name, creator: 'jsPDF web shop' });
  let font = 'helvetica';
  if (variant === 'ttf') {
    doc.addFileToVFS('DejaVuSans.ttf', readFileSync(DEJAVU).toString('binary'));
    doc.addFont('DejaVuSans.ttf', 'DejaVu', 'normal');
    font = 'DejaVu';
  }
  if (variant === 'times') font = 'times';
  if (variant === 'courier') font = 'courier';
  const bold = variant === 'ttf' ? 'normal' : 'bold';
  doc.addImage(
    asset(variant === 'png' ? 'logo-rgba.png' : 'logo-rgb.jpg').toString('base64'),
    variant === 'png' ? 'PNG' : 'JPEG',
    15,
    12,
    45,
    13.5,
  );
  doc.setFont(font, 'normal').setFontSize(8);
  doc.text([D.seller.name, D.seller.street, D.seller.city], 195, 14, { align: 'right' });
  doc.setFontSize(9).text([D.buyer.name, D.buyer.street, D.buyer.city], 15, 45);
  doc.setFont(font, bold).setFontSize(15).text(`Rechnung ${D.number}`, 15, 70);
  doc.setFont(font, 'normal').setFontSize(9);
  let y = 85;
  const cols = [
    [15, 'Pos.'],
    [25, 'Beschreibung'],
    [120, 'Menge'],
    [140, 'Einheit'],
    [160, 'Preis'],
    [195, 'Betrag'],
  ];
  doc.setFillColor(220, 226, 240).rect(14, y - 4, 182, 6, 'F');
  cols.forEach(([x, t], i) => doc.text(t, x, y, i === 5 ? { align: 'right' } : undefined));
  y += 7;
  for (const l of rows(variant === 'long' ? 5 : 1)) {
    if (y > 275) {
      doc.addPage();
      y = 20;
    }
    [l.pos, l.desc, l.qty, l.unit, l.price, l.total].forEach((t, i) =>
      doc.text(t, cols[i][0], y, i === 5 ? { align: 'right' } : undefined),
    );
    doc.setDrawColor(180).line(15, y + 1.5, 195, y + 1.5);
    y += 6;
  }
  doc.text(`Gesamtbetrag: ${D.gross}`, 195, y + 6, { align: 'right' });
  doc.setFontSize(7).text(D.terms, 15, 285);
  doc.textWithLink('Rechnung online ansehen', 15, 290, { url: 'https://example.com/rechnung' });
  if (variant === 'autoprint') doc.autoPrint();
  if (variant === 'gstate') {
    doc.saveGraphicsState();
    doc.setGState(new doc.GState({ opacity: 0.3 }));
    doc.setFillColor(255, 0, 0).rect(120, 200, 70, 20, 'F');
    doc.restoreGraphicsState();
  }
  writeFileSync(out, Buffer.from(doc.output('arraybuffer')));
}

async function pdfmake() {
  const PdfPrinter = require('pdfmake');
  const standard = variant === 'helvetica' || variant === 'times';
  const fonts = standard
    ? {
        Std:
          variant === 'times'
            ? { normal: 'Times-Roman', bold: 'Times-Bold', italics: 'Times-Italic', bolditalics: 'Times-BoldItalic' }
            : { normal: 'Helvetica', bold: 'Helvetica-Bold', italics: 'Helvetica-Oblique', bolditalics: 'Helvetica-BoldOblique' },
      }
    : { Std: { normal: DEJAVU, bold: DEJAVU_BOLD, italics: DEJAVU, bolditalics: DEJAVU_BOLD } };
  const printer = new PdfPrinter(fonts);
  const body = [
    ['Pos.', 'Beschreibung', 'Menge', 'Einheit', 'Preis', 'Betrag'].map((t) => ({ text: t, bold: true, fillColor: '#dde3f0' })),
  ];
  for (const l of rows(variant === 'long' ? 12 : 1))
    body.push([
      l.pos,
      l.desc,
      { text: l.qty, alignment: 'right' },
      l.unit,
      { text: l.price, alignment: 'right' },
      { text: l.total, alignment: 'right' },
    ]);
  const dd = {
    info: { title: `Rechnung ${D.number}`, author: D.seller.name, creator: 'pdfmake' },
    pageSize: 'A4',
    defaultStyle: { font: 'Std', fontSize: 9 },
    footer: (p, n) => ({ text: `Seite ${p} von ${n}`, alignment: 'right', margin: [0, 0, 40, 0], fontSize: 7 }),
    content: [
      {
        columns: [
          {
            image: `data:image/png;base64,${asset(variant === 'images' ? 'logo-indexed.png' : 'logo-rgb.png').toString('base64')}`,
            width: 130,
          },
          { text: [D.seller.name, D.seller.street, D.seller.city].join('\n'), alignment: 'right', fontSize: 8 },
        ],
      },
      { text: [D.buyer.name, D.buyer.street, D.buyer.city].join('\n'), margin: [0, 20, 0, 20] },
      { text: `Rechnung ${D.number}`, fontSize: 15, bold: true },
      { text: `Datum: ${D.date}   Fällig: ${D.due}`, margin: [0, 0, 0, 10] },
      { table: { headerRows: 1, widths: [25, '*', 40, 40, 55, 60], body }, layout: 'lightHorizontalLines' },
      { text: `Gesamtbetrag: ${D.gross}`, bold: true, alignment: 'right', margin: [0, 10, 0, 0] },
      { text: D.terms, fontSize: 8, margin: [0, 20, 0, 0] },
      { text: 'Rechnung online', link: 'https://example.com/rechnung', color: 'blue', fontSize: 8 },
    ],
  };
  if (variant === 'images')
    dd.content.push(
      { image: `data:image/jpeg;base64,${asset('logo-gray.jpg').toString('base64')}`, width: 120 },
      { image: `data:image/png;base64,${asset('logo-rgba.png').toString('base64')}`, width: 120 },
    );
  if (variant === 'watermark') dd.watermark = { text: 'ENTWURF', color: 'red', opacity: 0.2, bold: true };
  const doc = printer.createPdfKitDocument(dd);
  const done = new Promise((r) => doc.pipe(createWriteStream(out)).on('finish', r));
  doc.end();
  await done;
}

await { pdfkit, jspdf, pdfmake }[producer]();
