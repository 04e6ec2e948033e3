<?php
// TCPDF (Debian php-tcpdf): invoices and forms as PHP web shops and ERP add-ons write them. Usage: php tcpdf_invoices.php VARIANT OUTFILE
require_once '/usr/share/php/tcpdf/tcpdf.php';
$D = json_decode(file_get_contents(__DIR__ . '/../data/invoice.json'), true);
$A = getenv('ASSETS') ?: '/tmp/pdf-corpus-work/assets';
$WORK = getenv('WORK') ?: '/tmp/pdf-corpus-work';
[$_, $variant, $out] = $argv;

// TCPDF deletes some image files it was given (its image cache cleanup): hand it copies.
function img($A, $name) {
    $dir = sys_get_temp_dir() . '/tcpdf-img-' . getmypid();
    @mkdir($dir);
    copy("$A/$name", "$dir/$name");
    return "$dir/$name";
}
function rows($D, $n) { $r = []; $k = 0; for ($i = 0; $i < $n; $i++) foreach ($D['lines'] as $l) { $l['pos'] = (string)++$k; $r[] = $l; } return $r; }
function tableHtml($D, $rows) {
    $h = '<table cellpadding="3" border="0.3"><tr style="background-color:#dde3f0;font-weight:bold"><td width="30">Pos.</td><td width="230">Beschreibung</td><td width="50" align="right">Menge</td><td width="50">Einheit</td><td width="70" align="right">Preis</td><td width="80" align="right">Betrag</td></tr>';
    foreach ($rows as $l) $h .= '<tr><td>' . $l['pos'] . '</td><td>' . htmlspecialchars($l['desc']) . '</td><td align="right">' . $l['qty'] . '</td><td>' . $l['unit'] . '</td><td align="right">' . $l['price'] . '</td><td align="right">' . $l['total'] . '</td></tr>';
    $h .= '</table><p align="right">Nettobetrag ' . $D['net'] . '<br/>USt. ' . $D['vat_rate'] . ' ' . $D['vat'] . '<br/><b>Gesamtbetrag ' . $D['gross'] . '</b></p>';
    return $h . '<p>' . htmlspecialchars($D['terms']) . '</p>';
}
function invoice($pdf, $D, $A, $rows, $font = 'helvetica', $logo = 'logo-rgb.png') {
    $pdf->SetCreator('TCPDF invoice module');
    $pdf->SetAuthor($D['seller']['name']);
    $pdf->SetTitle('Rechnung ' . $D['number']);
    $pdf->setPrintHeader(false);
    $pdf->setFooterFont([$font, '', 7]);
    $pdf->setFooterData([0, 0, 0], [200, 200, 200]);
    $pdf->SetFont($font, '', 9);
    $pdf->AddPage();
    $pdf->Image(img($A, $logo), 15, 12, 45);
    $pdf->SetXY(120, 12);
    $pdf->MultiCell(75, 0, $D['seller']['name'] . "\n" . $D['seller']['street'] . "\n" . $D['seller']['city'] . "\nUSt-IdNr. " . $D['seller']['vat'], 0, 'R');
    $pdf->SetXY(15, 45);
    $pdf->MultiCell(90, 0, $D['buyer']['name'] . "\n" . $D['buyer']['street'] . "\n" . $D['buyer']['city'], 0, 'L');
    $pdf->SetFont($font, 'B', 14);
    $pdf->SetXY(15, 70);
    $pdf->Cell(0, 8, 'Rechnung ' . $D['number'] . ' vom ' . $D['date'], 0, 1);
    $pdf->SetFont($font, '', 9);
    $pdf->writeHTML(tableHtml($D, $rows));
}

$pdf = null;
switch ($variant) {
    case 'core-helvetica': // TCPDF's core fonts: Helvetica not embedded, two pages
        $pdf = new TCPDF('P', 'mm', 'A4', true, 'UTF-8');
        invoice($pdf, $D, $A, rows($D, 6));
        break;
    case 'dejavu': // the default Unicode font: DejaVu Sans subset as a Type0 font with a CIDToGIDMap stream
        $pdf = new TCPDF('P', 'mm', 'A4', true, 'UTF-8');
        invoice($pdf, $D, $A, rows($D, 1), 'dejavusans', 'logo-rgba.png');
        break;
    case 'pdfa1b': // TCPDF's PDF/A-1b mode (helvetica becomes its embedded pdfahelvetica Type 1 font, sRGB intent, XMP)
        $pdf = new TCPDF('P', 'mm', 'A4', true, 'UTF-8', false, true);
        invoice($pdf, $D, $A, rows($D, 1), 'helvetica', 'logo-rgb.jpg');
        break;
    case 'times-core-cmyk': // Times not embedded, CMYK text and fills, a CMYK JPEG, a spot colour (Separation)
        $pdf = new TCPDF('P', 'mm', 'A4', true, 'UTF-8');
        $pdf->AddSpotColor('HKS 14 K', 0, 100, 100, 0);
        invoice($pdf, $D, $A, rows($D, 1), 'times', 'logo-cmyk.jpg');
        $pdf->SetFillColor(0, 30, 100, 0);
        $pdf->Rect(15, 260, 60, 10, 'F');
        $pdf->SetTextColor(100, 60, 0, 20);
        $pdf->Text(80, 262, 'Druckfarbe CMYK');
        $pdf->SetFillSpotColor('HKS 14 K', 100);
        $pdf->Rect(140, 260, 55, 10, 'F');
        break;
    case 'forms-js': // an order form: text, check box, combo box and a button with JavaScript actions, field calculations
        $pdf = new TCPDF('P', 'mm', 'A4', true, 'UTF-8');
        invoice($pdf, $D, $A, rows($D, 1));
        $pdf->setFormDefaultProp(['lineWidth' => 1, 'borderStyle' => 'solid', 'fillColor' => [240, 240, 255], 'strokeColor' => [100, 100, 100]]);
        $pdf->SetY(200);
        $pdf->Cell(45, 6, 'Ihre Bestellnummer:');
        $pdf->TextField('po', 50, 6, [], ['v' => 'PO-88412']);
        $pdf->Ln(9);
        $pdf->Cell(45, 6, 'Skonto (%):');
        $pdf->TextField('discount', 20, 6, [], ['v' => '2', 'aa' => '/K << /S /JavaScript /JS (AFNumber_Keystroke(2, 0, 0, 0, "", true);) >> /F << /S /JavaScript /JS (AFNumber_Format(2, 0, 0, 0, "", true);) >>']);
        $pdf->Ln(9);
        $pdf->Cell(45, 6, 'Zahlungsart:');
        $pdf->ComboBox('payment', 50, 6, ['Überweisung', 'Lastschrift', 'Kreditkarte']);
        $pdf->Ln(9);
        $pdf->CheckBox('agb', 5, true, [], [], 'Ja');
        $pdf->Cell(60, 6, ' AGB gelesen');
        $pdf->Ln(10);
        $pdf->Button('print', 30, 8, 'Drucken', 'print()', ['lineWidth' => 2, 'borderStyle' => 'beveled', 'fillColor' => [200, 200, 230]]);
        $pdf->Button('reset', 30, 8, 'Zurücksetzen', ['S' => 'ResetForm']);
        break;
    case 'javascript': // document-level JavaScript that opens the print dialog (IncludeJS: names tree + OpenAction)
        $pdf = new TCPDF('P', 'mm', 'A4', true, 'UTF-8');
        invoice($pdf, $D, $A, rows($D, 1));
        $pdf->IncludeJS("print(true);\napp.alert('Rechnung " . $D['number'] . "');");
        break;
    case 'annotations': // comments, a hidden note, a file attachment annotation (embedded file), a link
        $pdf = new TCPDF('P', 'mm', 'A4', true, 'UTF-8');
        invoice($pdf, $D, $A, rows($D, 1));
        $pdf->Annotation(170, 90, 6, 6, 'Bitte Lieferdatum ergänzen.', ['Subtype' => 'Text', 'Name' => 'Comment', 'T' => 'Buchhaltung', 'Subj' => 'Prüfung', 'C' => [255, 255, 0]]);
        $pdf->Annotation(150, 120, 40, 10, 'Interne Notiz', ['Subtype' => 'FreeText', 'f' => ['hidden'], 'T' => 'Vertrieb']);
        $pdf->Annotation(15, 250, 5, 5, 'Lieferschein', ['Subtype' => 'FileAttachment', 'Name' => 'PushPin', 'FS' => img($A, 'logo-rgb.png')]);
        $pdf->Link(15, 240, 80, 5, 'https://example.com/agb');
        $pdf->Text(15, 240, 'Allgemeine Geschäftsbedingungen');
        break;
    case 'layers': // optional content: a "Entwurf" watermark layer that does not print, a printed layer
        $pdf = new TCPDF('P', 'mm', 'A4', true, 'UTF-8');
        invoice($pdf, $D, $A, rows($D, 1));
        $pdf->startLayer('Entwurf', false, true);
        $pdf->SetFont('helvetica', 'B', 60);
        $pdf->SetTextColor(230, 200, 200);
        $pdf->StartTransform(); $pdf->Rotate(30, 100, 150); $pdf->Text(40, 150, 'ENTWURF'); $pdf->StopTransform();
        $pdf->endLayer();
        $pdf->startLayer('Stempel', true, true);
        $pdf->SetFont('helvetica', 'B', 14);
        $pdf->SetTextColor(0, 0, 180);
        $pdf->Text(140, 240, 'BEZAHLT');
        $pdf->endLayer();
        break;
    case 'transparency': // SetAlpha: ExtGState with /CA /ca and a soft-masked PNG
        $pdf = new TCPDF('P', 'mm', 'A4', true, 'UTF-8');
        invoice($pdf, $D, $A, rows($D, 1));
        $pdf->SetAlpha(0.3);
        $pdf->SetFillColor(255, 0, 0);
        $pdf->Rect(120, 230, 70, 20, 'F');
        $pdf->SetAlpha(1);
        $pdf->Image(img($A, 'logo-rgba.png'), 140, 200, 40);
        break;
    case 'signed': // a real detached PKCS#7 signature with a self-signed test certificate (made by the corpus script)
    case 'signed-visible':
        $pdf = new TCPDF('P', 'mm', 'A4', true, 'UTF-8');
        $cert = 'file://' . realpath("$WORK/test-signer.crt");
        $key = 'file://' . realpath("$WORK/test-signer.key");
        $pdf->setSignature($cert, $key, 'test', '', 2, ['Name' => 'Test Signer', 'Location' => 'Düsseldorf', 'Reason' => 'Rechnungsfreigabe']);
        invoice($pdf, $D, $A, rows($D, 1));
        if ($variant === 'signed-visible') $pdf->setSignatureAppearance(140, 250, 50, 15);
        break;
    case 'encrypted-aes': // protected: empty user password, owner password, AES-128, no copying
        $pdf = new TCPDF('P', 'mm', 'A4', true, 'UTF-8');
        $pdf->SetProtection(['copy', 'modify'], '', 'owner-0417', 2);
        invoice($pdf, $D, $A, rows($D, 1));
        break;
    case 'encrypted-rc4': // the same with RC4-128
        $pdf = new TCPDF('P', 'mm', 'A4', true, 'UTF-8');
        $pdf->SetProtection(['modify'], '', 'owner-0417', 1);
        invoice($pdf, $D, $A, rows($D, 1), 'courier');
        break;
    default: fwrite(STDERR, "unknown variant $variant\n"); exit(1);
}
$pdf->Output($out, 'F');
