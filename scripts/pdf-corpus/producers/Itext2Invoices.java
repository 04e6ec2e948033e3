// iText 2.1.7 (Debian libitext-java, com.lowagie): the iText many older Java invoicing systems still ship.
// Usage: java -cp itext.jar:. Itext2Invoices VARIANT OUTFILE
import com.lowagie.text.*;
import com.lowagie.text.pdf.*;
import java.awt.Color;
import java.io.*;
import java.nio.file.*;
import java.util.regex.*;

public class Itext2Invoices {
    static String A = System.getenv().getOrDefault("ASSETS", "/tmp/pdf-corpus-work/assets");

    public static void main(String[] args) throws Exception {
        String v = args[0], out = args[1];
        String j = new String(Files.readAllBytes(Paths.get(System.getProperty("user.dir"), "..", "data", "invoice.json")), "UTF-8");
        Matcher lm = Pattern.compile("\"desc\": \"([^\"]*)\", \"qty\": \"([^\"]*)\", \"unit\": \"([^\"]*)\", \"price\": \"([^\"]*)\", \"total\": \"([^\"]*)\"").matcher(j);
        Document doc = new Document(PageSize.A4, 40, 40, 40, 40);
        PdfWriter w = PdfWriter.getInstance(doc, new FileOutputStream(out));
        if (v.equals("encrypted-rc4-40")) w.setEncryption(null, "owner-0417".getBytes(), PdfWriter.ALLOW_PRINTING, PdfWriter.STANDARD_ENCRYPTION_40);
        if (v.equals("pdf13")) w.setPdfVersion(PdfWriter.VERSION_1_3);
        doc.addTitle("Rechnung RE-2026-0417");
        doc.addCreator("Faktura (iText 2.1.7)");
        doc.open();
        Font f = FontFactory.getFont(v.equals("courier") ? FontFactory.COURIER : FontFactory.HELVETICA, 9);
        Font b = FontFactory.getFont(v.equals("courier") ? FontFactory.COURIER_BOLD : FontFactory.HELVETICA_BOLD, 11);
        Image logo = Image.getInstance(A + (v.equals("pdf13") ? "/logo-gray.jpg" : "/logo-rgb.png"));
        logo.scaleToFit(130, 40);
        doc.add(logo);
        doc.add(new Paragraph("Müller & Söhne Werkzeugbau GmbH · Königsallee 12 · 40212 Düsseldorf", f));
        doc.add(new Paragraph("Société d'Équipement Lefèvre SARL\n18, rue de la Paix\n75002 Paris\n\n", f));
        doc.add(new Paragraph("Rechnung RE-2026-0417 vom 02.11.2026", b));
        PdfPTable t = new PdfPTable(new float[] {25, 5, 5, 8, 8});
        t.setWidthPercentage(100);
        t.setHeaderRows(1);
        for (String h : new String[] {"Beschreibung", "Menge", "Einheit", "Preis", "Betrag"}) { PdfPCell c = new PdfPCell(new Phrase(h, b)); c.setBackgroundColor(new Color(220, 226, 240)); t.addCell(c); }
        int repeat = v.equals("long") ? 8 : 1;
        for (int r = 0; r < repeat; r++) { lm.reset(); while (lm.find()) for (int i = 1; i <= 5; i++) t.addCell(new Phrase(lm.group(i), f)); }
        doc.add(t);
        doc.add(new Paragraph("Gesamtbetrag 1.599,00 €", b));
        Anchor link = new Anchor("Rechnung online ansehen", f);
        link.setReference("https://example.com/rechnung/RE-2026-0417");
        doc.add(link);
        if (v.equals("annotations")) {
            w.addAnnotation(PdfAnnotation.createText(w, new Rectangle(500, 600, 520, 620), "Prüfung", "Bitte Pos. 2 prüfen.", true, "Comment"));
            TextField tf = new TextField(w, new Rectangle(150, 150, 300, 166), "bemerkung");
            tf.setText("keine");
            w.addAnnotation(tf.getTextField());
        }
        doc.close();
    }
}
