import java.io.File;
import java.io.StringWriter;
import java.util.Arrays;
import javax.xml.transform.stream.StreamSource;
import net.sf.saxon.s9api.*;

/**
 * Runs one compiled Schematron stylesheet (compile_schematron.py, or an XSLT published with the artefacts) over
 * many XML files in one JVM and prints, per file, a header line `# <file>` followed by the stylesheet's output
 * (one failed assert a line), or `! <message>` when the transformation stopped with a dynamic error.
 * Usage: java -cp Saxon-HE.jar:. Oracle STYLESHEET.xslt FILE...   (a directory argument is expanded to its *.xml)
 */
public class Oracle {
  public static void main(String[] args) throws Exception {
    Processor proc = new Processor(false);
    XsltExecutable exe = proc.newXsltCompiler().compile(new StreamSource(new File(args[0])));
    for (int i = 1; i < args.length; i++) {
      File f = new File(args[i]);
      File[] files = f.isDirectory() ? f.listFiles((d, n) -> n.endsWith(".xml")) : new File[] { f };
      Arrays.sort(files);
      for (File x : files) {
        System.out.println("# " + x.getPath());
        try {
          Xslt30Transformer t = exe.load30();
          StringWriter out = new StringWriter();
          Serializer s = proc.newSerializer(out);
          t.setGlobalContextItem(proc.newDocumentBuilder().build(x));
          t.applyTemplates(proc.newDocumentBuilder().build(x), s);
          System.out.print(out.toString());
        } catch (SaxonApiException e) {
          System.out.println("! " + String.valueOf(e.getMessage()).replace('\n', ' '));
        }
      }
    }
  }
}
