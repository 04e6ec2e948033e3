/** The CII classifiers agree (see syntax-classify-cases.ts) on the curated CII fixtures and the writer's output for every profile. */
import { buildInvoiceXml } from '../src/metadata/build.js';
import { FIXTURES } from './fixtures.js';
import { PROFILE_SCENARIOS, SCENARIOS } from './invoice-scenarios.js';
import { classifierTests } from './syntax-classify-cases.js';

const profiles = ['minimum', 'basic_wl', 'basic', 'en16931', 'extended'] as const;
const written = PROFILE_SCENARIOS.flatMap(([name, meta]) =>
  profiles.map((profile) => ({ file: `writer ${name} ${profile}`, xml: buildInvoiceXml({ ...structuredClone(meta), profile }).xml })),
);
written.push({ file: 'writer xrechnung', xml: buildInvoiceXml(structuredClone(SCENARIOS.xrechnung)).xml });
classifierTests(FIXTURES, 20, written);
