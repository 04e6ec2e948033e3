# Prawn (Debian ruby-prawn): invoices as Ruby on Rails shops write them. Usage: ruby prawn_invoices.rb VARIANT OUTFILE
require 'prawn'
require 'json'
D = JSON.parse(File.read(File.join(__dir__, '..', 'data', 'invoice.json')))
A = ENV['ASSETS'] || '/tmp/pdf-corpus-work/assets'
variant, out = ARGV
Prawn::Fonts::AFM.hide_m17n_warning = true

def rows(n)
  k = 0
  (1..n).flat_map { D['lines'].map { |l| l.merge('pos' => (k += 1).to_s) } }
end

def invoice(pdf, rows, logo: 'logo-rgb.png', colour: '000000')
  pdf.image File.join(A, logo), at: [0, 780], width: 130
  pdf.bounding_box([330, 780], width: 190) do
    pdf.text [D['seller']['name'], D['seller']['street'], D['seller']['city'], "USt-IdNr. #{D['seller']['vat']}"].join("\n"), size: 8, align: :right
  end
  pdf.move_down 30
  pdf.text [D['buyer']['name'], D['buyer']['street'], D['buyer']['city']].join("\n"), size: 9
  pdf.move_down 20
  pdf.fill_color colour
  pdf.text "Rechnung #{D['number']}", size: 16, style: :bold
  pdf.fill_color '000000'
  pdf.text "Datum: #{D['date']}   Fällig: #{D['due']}", size: 9
  pdf.move_down 10
  cols = [[0, 'Pos.', 30], [30, 'Beschreibung', 230], [260, 'Menge', 50], [310, 'Einheit', 50], [360, 'Preis', 70], [430, 'Betrag', 80]]
  draw = lambda do |cells, bold|
    y = pdf.cursor
    cols.each_with_index { |(x, _, w), i| pdf.text_box cells[i], at: [x, y], width: w, size: 9, style: bold ? :bold : :normal, align: i >= 4 ? :right : :left }
    pdf.move_down 14
    pdf.stroke_color 'aaaaaa'
    pdf.stroke_horizontal_line 0, 510
    pdf.move_down 3
  end
  draw.call(cols.map { |c| c[1] }, true)
  rows.each do |l|
    pdf.start_new_page if pdf.cursor < 80
    draw.call([l['pos'], l['desc'], l['qty'], l['unit'], l['price'], l['total']], false)
  end
  pdf.move_down 8
  [['Nettobetrag', D['net']], ["USt. #{D['vat_rate']}", D['vat']], ['Gesamtbetrag', D['gross']]].each do |k, v|
    pdf.text "#{k}: #{v}", size: 10, align: :right
  end
  pdf.move_down 10
  pdf.text D['terms'], size: 8
  pdf.number_pages 'Seite <page> von <total>', at: [pdf.bounds.right - 100, 0], width: 100, align: :right, size: 7
end

info = { Title: "Rechnung #{D['number']}", Author: D['seller']['name'], Creator: 'Prawn invoice template' }
case variant
when 'helvetica' # Prawn's default: Helvetica (AFM metrics, not embedded), three pages
  Prawn::Document.generate(out, page_size: 'A4', info: info) { |pdf| invoice(pdf, rows(10)) }
when 'times-jpeg' # Times-Roman, a JPEG logo, a link annotation
  Prawn::Document.generate(out, page_size: 'A4', info: info) do |pdf|
    pdf.font 'Times-Roman'
    invoice(pdf, rows(1), logo: 'logo-rgb.jpg')
    pdf.formatted_text [{ text: 'AGB: example.com/agb', link: 'https://example.com/agb', color: '0000CC' }], size: 8
  end
when 'ttf' # a TrueType font from the system (DejaVu Sans), subset and embedded as Prawn does
  Prawn::Document.generate(out, page_size: 'A4', info: info) do |pdf|
    pdf.font_families.update('DejaVu' => { normal: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', bold: '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf' })
    pdf.font 'DejaVu'
    invoice(pdf, rows(1), logo: 'logo-rgba.png')
  end
when 'cmyk' # Prawn in CMYK: every colour DeviceCMYK, a CMYK JPEG
  Prawn::Document.generate(out, page_size: 'A4', info: info) do |pdf|
    pdf.fill_color 0, 0, 0, 100
    pdf.stroke_color 0, 0, 0, 50
    pdf.fill_color 100, 40, 0, 10
    pdf.fill_rectangle [0, 800], 515, 12
    pdf.fill_color 0, 0, 0, 100
    invoice(pdf, rows(1), logo: 'logo-cmyk.jpg', colour: [0, 100, 100, 0])
  end
when 'encrypted' # encrypt_document with an empty user password (opens without a prompt), no copying
  Prawn::Document.generate(out, page_size: 'A4', info: info) do |pdf|
    invoice(pdf, rows(1))
    pdf.encrypt_document user_password: '', owner_password: 'owner-0417', permissions: { copy_contents: false, modify_contents: false }
  end
when 'transparency' # a translucent "BEZAHLT" stamp (ExtGState alpha)
  Prawn::Document.generate(out, page_size: 'A4', info: info) do |pdf|
    invoice(pdf, rows(1), logo: 'logo-gray.png')
    pdf.transparent(0.35) do
      pdf.fill_color 'cc0000'
      pdf.rotate(20, origin: [300, 300]) { pdf.draw_text 'BEZAHLT', at: [200, 300], size: 60, style: :bold }
    end
  end
when 'annotations' # a sticky note (text annotation without appearance) and a link
  Prawn::Document.generate(out, page_size: 'A4', info: info) do |pdf|
    invoice(pdf, rows(1))
    pdf.text_annotation([450, 600, 470, 620], 'Bitte Bestellnummer nachtragen.', Name: :Comment, T: 'Einkauf')
    pdf.link_annotation([0, 50, 150, 62], Border: [0, 0, 1], A: { Type: :Action, S: :URI, URI: PDF::Core::LiteralString.new('https://example.com/rechnung') })
  end
else
  abort "unknown variant #{variant}"
end
