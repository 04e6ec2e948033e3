// iText 5 (Debian libitext5-java): invoices, forms and signatures as Java ERP systems write them.
// Usage: java -cp itext5.jar:bcprov.jar:bcpkix.jar Itext5Invoices.java VARIANT OUTFILE
import com.itextpdf.text.*;
import com.itextpdf.text.pdf.*;
import com.itextpdf.text.pdf.security.*;
import java.io.*;
import java.nio.file.*;
import java.security.*;
import java.security.cert.*;
import java.util.*;
import java.util.regex.*;

public class Itext5Invoices {
    static String A = System.getenv().getOrDefault("ASSETS", "/tmp/pdf-corpus-work/assets");
    static String WORK = System.getenv().getOrDefault("WORK", "/tmp/pdf-corpus-work");
    static Map<String, Object> D;

    // The invoice data file is flat enough for a tiny reader: "key": "value" pairs and the lines array.
    static java.util.List<Map<String, String>> LINES = new ArrayList<>();
    static Map<String, String> S = new HashMap<>();
    static void load() throws Exception {
        String j = new String(Files.readAllBytes(Paths.get(System.getProperty("user.dir"), "..", "data", "invoice.json")), "UTF-8");
        Matcher lm = Pattern.compile("\\{ \"pos\": \"([^\"]*)\", \"desc\": \"([^\"]*)\", \"qty\": \"([^\"]*)\", \"unit\": \"([^\"]*)\", \"price\": \"([^\"]*)\", \"total\": \"([^\"]*)\" \\}").matcher(j);
        while (lm.find()) { Map<String, String> l = new HashMap<>(); String[] k = {"pos", "desc", "qty", "unit", "price", "total"}; for (int i = 0; i < 6; i++) l.put(k[i], lm.group(i + 1)); LINES.add(l); }
        Matcher m = Pattern.compile("\"(number|date|due|net|vat_rate|vat|gross|terms|name|street|city)\": \"([^\"]*)\"").matcher(j);
        int names = 0;
        while (m.find()) { String k = m.group(1); if (k.equals("name") || k.equals("street") || k.equals("city")) k = (names++ < 3 ? "seller." : "buyer.") + k; S.putIfAbsent(k, m.group(2)); }
    }

    static void invoice(Document doc, int repeat, Font f, Font b, String logo) throws Exception {
        Image img = Image.getInstance(A + "/" + logo);
        img.scaleToFit(130, 40);
        doc.add(img);
        Paragraph seller = new Paragraph(S.get("seller.name") + "\n" + S.get("seller.street") + "\n" + S.get("seller.city"), f);
        seller.setAlignment(Element.ALIGN_RIGHT);
        doc.add(seller);
        doc.add(new Paragraph(S.get("buyer.name") + "\n" + S.get("buyer.street") + "\n" + S.get("buyer.city"), f));
        doc.add(new Paragraph("Rechnung " + S.get("number") + " vom " + S.get("date"), b));
        doc.add(new Paragraph(" ", f));
        PdfPTable t = new PdfPTable(new float[] {3, 25, 5, 5, 8, 8});
        t.setWidthPercentage(100);
        t.setHeaderRows(1);
        for (String h : new String[] {"Pos.", "Beschreibung", "Menge", "Einheit", "Preis", "Betrag"}) { PdfPCell c = new PdfPCell(new Phrase(h, b)); c.setBackgroundColor(new BaseColor(220, 226, 240)); t.addCell(c); }
        int n = 0;
        for (int r = 0; r < repeat; r++) for (Map<String, String> l : LINES) {
            t.addCell(new Phrase(String.valueOf(++n), f)); t.addCell(new Phrase(l.get("desc"), f)); t.addCell(new Phrase(l.get("qty"), f));
            t.addCell(new Phrase(l.get("unit"), f)); t.addCell(new Phrase(l.get("price"), f)); t.addCell(new Phrase(l.get("total"), f));
        }
        doc.add(t);
        Paragraph tot = new Paragraph("Nettobetrag " + S.get("net") + "\nUSt. " + S.get("vat_rate") + " " + S.get("vat") + "\nGesamtbetrag " + S.get("gross"), b);
        tot.setAlignment(Element.ALIGN_RIGHT);
        doc.add(tot);
        doc.add(new Paragraph(S.get("terms"), f));
    }

    interface Body { void make(Document doc, PdfWriter w) throws Exception; }
    static void write(String out, Body body) throws Exception { write(out, body, null); }
    static void write(String out, Body body, java.util.function.Consumer<PdfWriter> setup) throws Exception {
        Document doc = new Document(PageSize.A4);
        PdfWriter w = PdfWriter.getInstance(doc, new FileOutputStream(out));
        if (setup != null) setup.accept(w);
        doc.addTitle("Rechnung " + S.get("number"));
        doc.addAuthor(S.get("seller.name"));
        doc.addCreator("ERP Rechnungsdruck (iText 5)");
        doc.open();
        body.make(doc, w);
        doc.close();
    }

    public static void main(String[] args) throws Exception {
        load();
        String v = args[0], out = args[1];
        Font f = new Font(Font.FontFamily.HELVETICA, 9), b = new Font(Font.FontFamily.HELVETICA, 10, Font.BOLD);
        switch (v) {
            case "helvetica": write(out, (doc, w) -> invoice(doc, 7, f, b, "logo-rgb.jpg")); break;
            case "full-compression": // PDF 1.5 object streams and a cross-reference stream
                write(out, (doc, w) -> invoice(doc, 1, f, b, "logo-rgb.png"), w -> { try { w.setFullCompression(); } catch (Exception e) { throw new RuntimeException(e); } });
                break;
            case "times-interpolate": // Times not embedded, an image drawn with /Interpolate true
                write(out, (doc, w) -> {
                    Font tf = new Font(Font.FontFamily.TIMES_ROMAN, 10), tb = new Font(Font.FontFamily.TIMES_ROMAN, 11, Font.BOLD);
                    Image img = Image.getInstance(A + "/logo-indexed.png");
                    img.setInterpolation(true);
                    img.scaleToFit(200, 60);
                    doc.add(img);
                    invoice(doc, 1, tf, tb, "logo-gray.png");
                });
                break;
            case "liberation-not-embedded": // a TrueType font from a file, referenced but NOT_EMBEDDED (simple font, WinAnsi)
                write(out, (doc, w) -> {
                    BaseFont bf = BaseFont.createFont("/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf", BaseFont.WINANSI, BaseFont.NOT_EMBEDDED);
                    BaseFont bb = BaseFont.createFont("/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf", BaseFont.WINANSI, BaseFont.NOT_EMBEDDED);
                    invoice(doc, 1, new Font(bf, 9), new Font(bb, 10), "logo-rgb.png");
                });
                break;
            case "identity-h": // a TrueType font embedded as a subset through Identity-H (Type0 / CIDFontType2), the usual Unicode setup
                write(out, (doc, w) -> {
                    BaseFont bf = BaseFont.createFont("/usr/share/fonts/truetype/crosextra/Carlito-Regular.ttf", BaseFont.IDENTITY_H, BaseFont.EMBEDDED);
                    BaseFont bb = BaseFont.createFont("/usr/share/fonts/truetype/crosextra/Carlito-Bold.ttf", BaseFont.IDENTITY_H, BaseFont.EMBEDDED);
                    invoice(doc, 1, new Font(bf, 9), new Font(bb, 10), "logo-rgba.png");
                });
                break;
            case "cmyk-spot": // CMYK text and fills, a CMYK JPEG, a spot colour (Separation)
                write(out, (doc, w) -> {
                    Font cf = new Font(Font.FontFamily.HELVETICA, 9, Font.NORMAL, new CMYKColor(0f, 0f, 0f, 1f));
                    Font cb = new Font(Font.FontFamily.HELVETICA, 10, Font.BOLD, new CMYKColor(1f, 0.5f, 0f, 0.1f));
                    invoice(doc, 1, cf, cb, "logo-cmyk.jpg");
                    PdfContentByte cb2 = w.getDirectContent();
                    PdfSpotColor spot = new PdfSpotColor("Pantone 286 C", new CMYKColor(1f, 0.66f, 0f, 0.02f));
                    cb2.setColorFill(new SpotColor(spot, 1f));
                    cb2.rectangle(36, 36, 523, 12);
                    cb2.fill();
                });
                break;
            case "layers": // optional content: a watermark layer hidden in print, a layer of notes
                write(out, (doc, w) -> {
                    invoice(doc, 1, f, b, "logo-rgb.png");
                    PdfLayer draft = new PdfLayer("Entwurf", w);
                    draft.setPrint("Print", false);
                    PdfLayer notes = new PdfLayer("Bemerkungen", w);
                    notes.setOn(false);
                    PdfContentByte cb = w.getDirectContent();
                    cb.beginLayer(draft);
                    ColumnText.showTextAligned(cb, Element.ALIGN_CENTER, new Phrase("ENTWURF", new Font(Font.FontFamily.HELVETICA, 60, Font.BOLD, BaseColor.LIGHT_GRAY)), 297, 420, 30);
                    cb.endLayer();
                    cb.beginLayer(notes);
                    ColumnText.showTextAligned(cb, Element.ALIGN_LEFT, new Phrase("intern: Kunde zahlt meist spät", f), 40, 60, 0);
                    cb.endLayer();
                }, w -> w.setPdfVersion(PdfWriter.VERSION_1_5));
                break;
            case "forms-js": // AcroForm with JavaScript: a format action, a calculate action, a print button, document JavaScript
                write(out, (doc, w) -> {
                    invoice(doc, 1, f, b, "logo-rgb.png");
                    TextField tf = new TextField(w, new Rectangle(150, 150, 300, 166), "po");
                    tf.setText("PO-88412");
                    PdfFormField po = tf.getTextField();
                    po.setAdditionalActions(PdfName.F, PdfAction.javaScript("AFSpecial_Format(0);", w));
                    w.addAnnotation(po);
                    TextField sk = new TextField(w, new Rectangle(150, 120, 220, 136), "skonto");
                    sk.setText("2,00");
                    PdfFormField skf = sk.getTextField();
                    skf.setAdditionalActions(PdfName.K, PdfAction.javaScript("AFNumber_Keystroke(2, 2, 0, 0, \"\", true);", w));
                    w.addAnnotation(skf);
                    PushbuttonField pb = new PushbuttonField(w, new Rectangle(320, 120, 400, 140), "drucken");
                    pb.setText("Drucken");
                    PdfFormField pbf = pb.getField();
                    pbf.setAction(PdfAction.javaScript("this.print({bUI: true});", w));
                    w.addAnnotation(pbf);
                    w.addJavaScript("function pruefen() { return true; }");
                    w.setOpenAction(PdfAction.javaScript("app.alert('Bitte prüfen Sie die Rechnung.');", w));
                });
                break;
            case "empty-signature": // an unsigned signature field, prepared for signing later (no /V), /SigFlags 1
                write(out, (doc, w) -> {
                    invoice(doc, 1, f, b, "logo-rgb.png");
                    PdfFormField sig = PdfFormField.createSignature(w);
                    sig.setWidget(new Rectangle(380, 60, 550, 110), null);
                    sig.setFlags(PdfAnnotation.FLAGS_PRINT);
                    sig.put(PdfName.DA, new PdfString("/Helv 0 Tf 0 g"));
                    sig.setFieldName("Unterschrift");
                    sig.setPage(1);
                    w.addAnnotation(sig);
                    // SignaturesExist: the document has a signature field (ISO 32000-1 12.7.2), signed or not.
                    w.getAcroForm().setSigFlags(PdfWriter.SIGNATURE_EXISTS);
                });
                break;
            case "annotations": // comments without appearance streams, a hidden note, a link without flags, a stamp
                write(out, (doc, w) -> {
                    invoice(doc, 1, f, b, "logo-rgb.png");
                    w.addAnnotation(PdfAnnotation.createText(w, new Rectangle(500, 600, 520, 620), "Prüfung", "Bitte Pos. 2 prüfen.", false, "Comment"));
                    PdfAnnotation hidden = PdfAnnotation.createText(w, new Rectangle(500, 560, 520, 580), "intern", "nicht drucken", false, "Note");
                    hidden.setFlags(PdfAnnotation.FLAGS_HIDDEN);
                    w.addAnnotation(hidden);
                    PdfAnnotation np = PdfAnnotation.createSquareCircle(w, new Rectangle(60, 500, 200, 530), "Markierung", true);
                    np.setFlags(PdfAnnotation.FLAGS_NOVIEW);
                    w.addAnnotation(np);
                    w.addAnnotation(PdfAnnotation.createLink(w, new Rectangle(36, 36, 200, 50), PdfAnnotation.HIGHLIGHT_INVERT, new PdfAction("https://example.com/rechnung")));
                });
                break;
            case "encrypted": // AES-128, empty user password, printing allowed
                write(out, (doc, w) -> invoice(doc, 1, f, b, "logo-rgb.png"), w -> {
                    try { w.setEncryption(null, "owner-0417".getBytes(), PdfWriter.ALLOW_PRINTING, PdfWriter.ENCRYPTION_AES_128); } catch (Exception e) { throw new RuntimeException(e); }
                });
                break;
            case "pdfa3b": { // iText's PdfAWriter: PDF/A-3b with an embedded font, an sRGB intent and an attached file
                Document doc = new Document(PageSize.A4);
                PdfAWriter w = PdfAWriter.getInstance(doc, new FileOutputStream(out), PdfAConformanceLevel.PDF_A_3B);
                w.createXmpMetadata();
                doc.addTitle("Rechnung " + S.get("number"));
                doc.open();
                ICC_Profile icc = ICC_Profile.getInstance(new FileInputStream("/usr/share/color/icc/sRGB.icc"));
                w.setOutputIntents("Custom", "", "http://www.color.org", "sRGB IEC61966-2.1", icc);
                BaseFont bf = BaseFont.createFont("/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf", BaseFont.WINANSI, BaseFont.EMBEDDED);
                BaseFont bb = BaseFont.createFont("/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf", BaseFont.WINANSI, BaseFont.EMBEDDED);
                invoice(doc, 1, new Font(bf, 9), new Font(bb, 10), "logo-rgb.jpg");
                PdfDictionary params = new PdfDictionary();
                params.put(PdfName.MODDATE, new PdfDate());
                PdfFileSpecification fs = PdfFileSpecification.fileEmbedded(w, null, "lieferschein.txt", "Lieferschein 0417: 8 Positionen".getBytes("UTF-8"), "text/plain", params, 0);
                fs.put(PdfName.AFRELATIONSHIP, AFRelationshipValue.Supplement);
                w.addFileAttachment("Lieferschein", fs);
                PdfArray af = new PdfArray(); af.add(fs.getReference());
                w.getExtraCatalog().put(PdfName.AF, af);
                doc.close();
                break;
            }
            case "xfa": { // an XFA form packet in the AcroForm, next to its AcroForm fields (how LiveCycle Designer forms arrive)
                String tmp = out + ".tmp";
                write(tmp, (doc, w) -> {
                    invoice(doc, 1, f, b, "logo-rgb.png");
                    TextField tf = new TextField(w, new Rectangle(150, 150, 300, 166), "po");
                    tf.setText("PO-88412");
                    w.addAnnotation(tf.getTextField());
                });
                PdfReader r = new PdfReader(tmp);
                PdfStamper st = new PdfStamper(r, new FileOutputStream(out));
                String xdp = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><xdp:xdp xmlns:xdp=\"http://ns.adobe.com/xdp/\"><template xmlns=\"http://www.xfa.org/schema/xfa-template/2.8/\"><subform name=\"form1\"><field name=\"po\"><ui><textEdit/></ui></field></subform></template><xfa:datasets xmlns:xfa=\"http://www.xfa.org/schema/xfa-data/1.0/\"><xfa:data><form1><po>PO-88412</po></form1></xfa:data></xfa:datasets></xdp:xdp>";
                PdfStream xfa = new PdfStream(xdp.getBytes("UTF-8"));
                xfa.flateCompress();
                PdfIndirectReference ref = st.getWriter().addToBody(xfa).getIndirectReference();
                PdfDictionary acro = r.getCatalog().getAsDict(PdfName.ACROFORM);
                acro.put(PdfName.XFA, ref);
                acro.put(PdfName.NEEDAPPEARANCES, PdfBoolean.PDFTRUE);
                st.close();
                new File(tmp).delete();
                break;
            }
            case "signed-incremental": { // signed with a self-signed test certificate, appended as an incremental update
                String tmp = out + ".tmp";
                write(tmp, (doc, w) -> invoice(doc, 1, f, b, "logo-rgb.png"));
                Security.addProvider(new org.bouncycastle.jce.provider.BouncyCastleProvider());
                KeyStore ks = KeyStore.getInstance("PKCS12");
                ks.load(new FileInputStream(WORK + "/test-signer.p12"), "test".toCharArray());
                String alias = ks.aliases().nextElement();
                PrivateKey pk = (PrivateKey) ks.getKey(alias, "test".toCharArray());
                java.security.cert.Certificate[] chain = ks.getCertificateChain(alias);
                PdfReader r = new PdfReader(tmp);
                PdfStamper st = PdfStamper.createSignature(r, new FileOutputStream(out), '\0', null, true);
                PdfSignatureAppearance ap = st.getSignatureAppearance();
                ap.setReason("Rechnungsfreigabe");
                ap.setLocation("Düsseldorf");
                ap.setVisibleSignature(new Rectangle(380, 60, 550, 110), 1, "Freigabe");
                MakeSignature.signDetached(ap, new BouncyCastleDigest(), new PrivateKeySignature(pk, "SHA-256", "BC"), chain, null, null, null, 0, MakeSignature.CryptoStandard.CMS);
                new File(tmp).delete();
                break;
            }
            default: throw new IllegalArgumentException("unknown variant " + v);
        }
    }
}
