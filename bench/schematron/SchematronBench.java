/*
 * The official EN 16931 Schematron (the CEN validation artefacts' compiled XSLT, CII and UBL) on a warm JVM, over
 * a list of invoice files: what `npm run bench:cli` prints beside the CLI's own batch figures. Run by the bench
 * (bench/cli-batch.ts compiles it with javac into a temporary folder); not part of the service.
 *
 *   java -cp Saxon-HE.jar:DIR SchematronBench CII.xslt UBL.xslt LIST_FILE JOBS WARMUP_PASSES PASSES
 *
 * Each stylesheet is compiled once. Each file is read from disk and transformed by the CII or UBL stylesheet (by
 * its root element) into SVRL, serialized to memory, as a validator's report would be. WARMUP_PASSES passes over
 * the list let the JIT compile the hot code; then PASSES passes are timed, with JOBS threads taking files from a
 * shared counter (each thread has its own transformers: Saxon's transformers are not thread-safe). One line of
 * JSON on stdout: files, seconds, files per second, the process's CPU ms per file, and how many files had a
 * failed assert with flag="fatal" (a check that the stylesheets ran).
 */
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.xml.transform.stream.StreamSource;
import net.sf.saxon.s9api.Processor;
import net.sf.saxon.s9api.Serializer;
import net.sf.saxon.s9api.XsltCompiler;
import net.sf.saxon.s9api.XsltExecutable;
import net.sf.saxon.s9api.XsltTransformer;

public final class SchematronBench {
  private static final byte[] FATAL = "flag=\"fatal\"".getBytes(StandardCharsets.US_ASCII);

  public static void main(String[] args) throws Exception {
    Processor processor = new Processor(false);
    XsltCompiler compiler = processor.newXsltCompiler();
    XsltExecutable cii = compiler.compile(new StreamSource(new File(args[0])));
    XsltExecutable ubl = compiler.compile(new StreamSource(new File(args[1])));
    List<String> files = Files.readAllLines(Paths.get(args[2]), StandardCharsets.UTF_8);
    int jobs = Integer.parseInt(args[3]);
    int warmup = Integer.parseInt(args[4]);
    int passes = Integer.parseInt(args[5]);
    boolean[] isCii = new boolean[files.size()];
    for (int i = 0; i < isCii.length; i++) isCii[i] = rootIsCii(Files.readAllBytes(Paths.get(files.get(i))));

    run(processor, cii, ubl, files, isCii, jobs, warmup);
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    int fatal = run(processor, cii, ubl, files, isCii, jobs, passes);
    double seconds = (System.nanoTime() - t0) / 1e9;
    double cpuMs = (os.getProcessCpuTime() - cpu0) / 1e6;
    int n = files.size() * passes;
    System.out.printf(
        "{\"files\":%d,\"seconds\":%.3f,\"filesPerSecond\":%.1f,\"cpuMsPerFile\":%.3f,\"fatalFiles\":%d}%n",
        n, seconds, n / seconds, cpuMs / n, fatal / Math.max(1, passes));
  }

  /** `passes` passes over the files with `jobs` threads; the number of reports with a fatal failed assert. */
  private static int run(Processor processor, XsltExecutable cii, XsltExecutable ubl, List<String> files,
      boolean[] isCii, int jobs, int passes) throws Exception {
    AtomicInteger next = new AtomicInteger();
    AtomicInteger fatal = new AtomicInteger();
    int total = files.size() * passes;
    Thread[] threads = new Thread[jobs];
    Exception[] failure = new Exception[1];
    for (int t = 0; t < jobs; t++) {
      threads[t] = new Thread(() -> {
        try {
          XsltTransformer forCii = cii.load();
          XsltTransformer forUbl = ubl.load();
          ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 16);
          Serializer serializer = processor.newSerializer(out);
          for (int i; (i = next.getAndIncrement()) < total; ) {
            int f = i % files.size();
            XsltTransformer xt = isCii[f] ? forCii : forUbl;
            out.reset();
            xt.setSource(new StreamSource(new File(files.get(f))));
            xt.setDestination(serializer);
            xt.transform();
            if (contains(out.toByteArray(), FATAL)) fatal.incrementAndGet();
          }
        } catch (Exception e) {
          synchronized (failure) {
            failure[0] = e;
          }
          next.set(total);
        }
      });
      threads[t].start();
    }
    for (Thread thread : threads) thread.join();
    if (failure[0] != null) throw failure[0];
    return fatal.get();
  }

  /** Whether the document's root element is a CII CrossIndustryInvoice (else it is a UBL Invoice or CreditNote). */
  private static boolean rootIsCii(byte[] bytes) {
    String head = new String(bytes, 0, Math.min(bytes.length, 4096), StandardCharsets.UTF_8);
    // The first tag that is not a declaration, processing instruction or comment.
    for (int i = head.indexOf('<'); i >= 0; i = head.indexOf('<', i + 1)) {
      if (i + 1 >= head.length() || head.charAt(i + 1) == '?' || head.charAt(i + 1) == '!') continue;
      int end = i + 1;
      while (end < head.length() && " \t\r\n/>".indexOf(head.charAt(end)) < 0) end++;
      String name = head.substring(i + 1, end);
      return name.substring(name.indexOf(':') + 1).equals("CrossIndustryInvoice");
    }
    return false;
  }

  private static boolean contains(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) if (hay[i + j] != needle[j]) continue outer;
      return true;
    }
    return false;
  }
}
