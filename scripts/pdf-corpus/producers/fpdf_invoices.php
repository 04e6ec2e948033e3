<?php
// FPDF (Debian php-fpdf): the core-font invoices PHP shops write with it. Usage: php fpdf_invoices.php VARIANT OUTFILE
require '/usr/share/php/fpdf/fpdf.php';
$D = json_decode(file_get_contents(__DIR__ . '/../data/invoice.json'), true);
$A = getenv('ASSETS') ?: '/tmp/pdf-corpus-work/assets';
[$_, $variant, $out] = $argv;
function w($s) { return iconv('UTF-8', 'windows-1252//TRANSLIT', $s); }

class Invoice extends FPDF {
    public $D; public $logo; public $font = 'Helvetica';
    function fontDir($d) { $this->fontpath = "$d/"; }
    function Header() {
        $this->Image($this->logo, 15, 10, 45);
        $this->SetFont($this->font, 'B', 15);
        $this->Cell(0, 10, w('Rechnung ' . $this->D['number']), 0, 1, 'R');
        $this->SetFont($this->font, '', 8);
        $this->Cell(0, 4, w($this->D['seller']['name'] . ', ' . $this->D['seller']['street'] . ', ' . $this->D['seller']['city']), 0, 1, 'R');
        $this->Ln(12);
    }
    function Footer() {
        $this->SetY(-15);
        $this->SetFont($this->font, 'I', 8);
        $this->Cell(0, 10, w('Seite ' . $this->PageNo() . '/{nb} — ' . $this->D['terms']), 0, 0, 'C');
    }
    function Body($rows) {
        $D = $this->D;
        $this->SetFont($this->font, '', 10);
        foreach ([$D['buyer']['name'], $D['buyer']['street'], $D['buyer']['city']] as $t) $this->Cell(0, 5, w($t), 0, 1);
        $this->Ln(4);
        $this->Cell(0, 5, w('Datum: ' . $D['date'] . '   Fällig: ' . $D['due']), 0, 1, 'R');
        $this->Ln(4);
        $this->SetFillColor(220, 225, 240);
        $this->SetFont($this->font, 'B', 9);
        foreach ([[10, 'Pos.'], [90, 'Beschreibung'], [18, 'Menge'], [20, 'Einheit'], [25, 'Preis'], [27, 'Betrag']] as [$wd, $t]) $this->Cell($wd, 7, w($t), 1, 0, 'C', true);
        $this->Ln();
        $this->SetFont($this->font, '', 9);
        foreach ($rows as $i => $l) {
            $fill = $i % 2 == 1;
            $this->SetFillColor(245, 245, 245);
            $this->Cell(10, 6, $l['pos'], 'LR', 0, 'C', $fill);
            $this->Cell(90, 6, w($l['desc']), 'LR', 0, 'L', $fill);
            $this->Cell(18, 6, w($l['qty']), 'LR', 0, 'R', $fill);
            $this->Cell(20, 6, w($l['unit']), 'LR', 0, 'L', $fill);
            $this->Cell(25, 6, w($l['price']), 'LR', 0, 'R', $fill);
            $this->Cell(27, 6, w($l['total']), 'LR', 1, 'R', $fill);
        }
        $this->Cell(190, 0, '', 'T', 1);
        $this->Ln(3);
        foreach ([['Nettobetrag', $D['net']], ['USt. ' . $D['vat_rate'], $D['vat']], ['Gesamtbetrag', $D['gross']]] as [$k, $v]) {
            $this->Cell(145, 6, w($k), 0, 0, 'R');
            $this->Cell(45, 6, w($v), 0, 1, 'R');
        }
        $this->SetTextColor(0, 0, 200);
        $this->SetFont('', 'U');
        $this->Write(6, w('Rechnung online ansehen'), 'https://example.com/rechnung/' . $D['number']);
        $this->SetTextColor(0);
        $this->SetFont('', '');
    }
}
function rows($D, $n) { $r = []; $k = 0; for ($i = 0; $i < $n; $i++) foreach ($D['lines'] as $l) { $l['pos'] = (string)++$k; $r[] = $l; } return $r; }

$pdf = new Invoice();
$pdf->D = $D;
$pdf->AliasNbPages();
$pdf->SetTitle('Rechnung ' . $D['number'], true);
$pdf->SetAuthor($D['seller']['name'], true);
$pdf->SetCreator('FPDF invoice script');
switch ($variant) {
    case 'invoice': // Helvetica, a JPEG logo, three pages of lines, a link
        $pdf->logo = "$A/logo-rgb.jpg";
        $pdf->AddPage();
        $pdf->Body(rows($D, 7));
        break;
    case 'times-alpha-png': // Times, a PNG logo with an alpha channel (SMask, PDF 1.4)
        $pdf->logo = "$A/logo-rgba.png";
        $pdf->font = 'Times';
        $pdf->AddPage();
        $pdf->Body(rows($D, 1));
        break;
    case 'courier-indexed': // Courier, a palette PNG logo
        $pdf->logo = "$A/logo-indexed.png";
        $pdf->font = 'Courier';
        $pdf->AddPage();
        $pdf->Body(rows($D, 1));
        break;
    case 'symbol-dingbats': // Symbol and ZapfDingbats for check marks and Greek
        $pdf->logo = "$A/logo-gray.png";
        $pdf->AddPage();
        $pdf->Body(rows($D, 1));
        $pdf->SetFont('ZapfDingbats', '', 12);
        $pdf->Cell(10, 8, '4'); $pdf->SetFont('Helvetica', '', 9); $pdf->Cell(60, 8, 'Ware geprüft', 0, 1);
        $pdf->SetFont('Symbol', '', 11);
        $pdf->Cell(0, 8, 'D = S a i  ' . chr(0xB3) . ' 0', 0, 1);
        break;
    case 'landscape': // landscape pages, a grey PNG logo
        $pdf->logo = "$A/logo-gray.png";
        $pdf->AddPage('L');
        $pdf->Body(rows($D, 2));
        break;
    case 'ttf-embedded': // a TrueType font made with FPDF's makefont (DejaVu Sans, cp1252): embedded whole
    case 'ttf-not-embedded': // the same with makefont's embed=false (Liberation Sans): a simple TrueType font referenced by name
        $dir = (getenv('WORK') ?: '/tmp/pdf-corpus-work') . '/fpdf-fonts';
        @mkdir($dir, 0777, true);
        chdir($dir);
        $embed = $variant === 'ttf-embedded';
        $ttf = $embed ? '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf' : '/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf';
        // makefont.php is a command-line tool (it reads $argv when included from the CLI): run it as one.
        exec('php /usr/share/php/fpdf/makefont/makefont.php ' . escapeshellarg($ttf) . ' cp1252 ' . ($embed ? 'true' : 'false') . ' 2>&1', $_o, $rc);
        if ($rc !== 0) { fwrite(STDERR, implode("\n", $_o)); exit(1); }
        $name = pathinfo($ttf, PATHINFO_FILENAME);
        $pdf->fontDir($dir);
        $pdf->AddFont('UserFont', '', "$name.php");
        $pdf->AddFont('UserFont', 'B', "$name.php");
        $pdf->AddFont('UserFont', 'I', "$name.php");
        $pdf->AddFont('UserFont', 'U', "$name.php");
        $pdf->logo = "$A/logo-rgb.png";
        $pdf->font = 'UserFont';
        $pdf->AddPage();
        $pdf->Body(rows($D, 2));
        break;
    default: fwrite(STDERR, "unknown variant $variant\n"); exit(1);
}
$pdf->Output('F', $out);
