/**
 * The batch of deploy/kubernetes/batch-job.yaml run the way its pods run it, without a cluster: one process per
 * completion index, all at once, each given the container's arguments with $(SHARD_INDEX) set and the volumes
 * mapped to folders here; then the summary Job's script (batch-summary-job.yaml) over their reports. Beside it,
 * one unsharded run of the same command. Helper module for test/deploy-batch.test.ts (fixtures) and
 * test/conformance/shard-agreement.test.ts (the corpus).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { CLI, ROOT, TSX, type Run } from './cli-fixtures.js';

// biome-ignore lint/suspicious/noExplicitAny: parsed YAML
type Doc = any;

function jobs(): { batch: Doc; summary: Doc } {
  const docs: Doc[] = [];
  for (const file of ['batch-job.yaml', 'batch-summary-job.yaml'])
    for (const d of parseAllDocuments(readFileSync(path.join(ROOT, 'deploy/kubernetes', file), 'utf8'))) docs.push(d.toJS());
  const batch = docs.find((d) => d.kind === 'Job' && d.spec.completionMode === 'Indexed');
  const summary = docs.find((d) => d.kind === 'Job' && d.metadata.name === 'einvoice-validate-summary');
  if (!batch || !summary) throw new Error('deploy/kubernetes: the Indexed Job or its summary Job is missing');
  return { batch, summary };
}

function run(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** The container's command as a local process: the image's CLI (/app/bin/einvoice.js) is this checkout's sources. */
function local(command: string[]): string[] {
  if (command.join(' ') !== 'node /app/bin/einvoice.js') throw new Error(`unexpected command ${command.join(' ')}`);
  return ['--import', TSX, CLI];
}

export interface ShardedRun {
  shards: number;
  /** Each pod's process. */
  pods: Run[];
  /** The summary Job's process: its stdout is the summary JSON. */
  summary: Run;
  /** The merged report, /reports/all.jsonl. */
  merged: string;
}

/** Run every pod of the Indexed Job over `invoices`, writing into `reports`, then the summary Job. */
export async function runIndexedJob(invoices: string, reports: string): Promise<ShardedRun> {
  const { batch } = jobs();
  const container = batch.spec.template.spec.containers[0];
  const volume = (arg: string) => arg.replace(/^\/invoices(?=\/|$)/, invoices).replace(/^\/reports(?=\/)/, reports);
  const shards: number = batch.spec.completions;
  const pods = await Promise.all(
    Array.from({ length: shards }, (_, i) =>
      run([...local(container.command), ...container.args.map((a: string) => volume(a.replaceAll('$(SHARD_INDEX)', String(i))))]),
    ),
  );
  const summaryRun = await runSummary(reports);
  let merged = '';
  try {
    merged = readFileSync(path.join(reports, 'all.jsonl'), 'utf8');
  } catch {
    // no merged report: the summary's exit code says why
  }
  return { shards, pods, summary: summaryRun, merged };
}

/** The summary Job's script over the reports in `reports` (its /reports). */
export async function runSummary(reports: string): Promise<Run> {
  const s = jobs().summary.spec.template.spec.containers[0];
  if (s.command.join(' ') !== 'node -e') throw new Error(`unexpected command ${s.command.join(' ')}`);
  const env = Object.fromEntries(s.env.map((e: { name: string; value: string }) => [e.name, e.value]));
  return run(['-e', ...s.args], { ...env, REPORTS: reports });
}

/** The same command once over all the files, as one pod of a one-shard Job would run it (no --shard-index). */
export async function runUnsharded(invoices: string): Promise<Run> {
  const { batch } = jobs();
  const container = batch.spec.template.spec.containers[0];
  const args: string[] = [...container.args];
  args.splice(args.indexOf('--shard-index'), 2);
  args.splice(args.indexOf('--output'), 2);
  return run([...local(container.command), ...args.map((a) => a.replace(/^\/invoices(?=\/|$)/, invoices))]);
}

interface Line {
  file: string;
  status: string;
  valid: boolean;
  error_count: number;
  warning_count: number;
  errors?: { rule_id: string; severity: string; location?: string | null }[];
  problem?: { code: string };
}

/** A file's verdict: status, counts, and every finding's rule, severity and place (or the unreadable code). */
export function verdicts(jsonLines: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const text of jsonLines.split('\n')) {
    if (text === '') continue;
    const l = JSON.parse(text) as Line;
    if (out.has(l.file)) throw new Error(`${l.file} reported twice`);
    const findings = (l.errors ?? []).map((e) => `${e.severity} ${e.rule_id} ${e.location ?? ''}`).sort();
    out.set(l.file, JSON.stringify([l.status, l.valid, l.error_count, l.warning_count, l.problem?.code ?? null, findings]));
  }
  return out;
}

/** The differences between two verdict maps, at most `limit` of them, as lines to print. */
export function differences(a: Map<string, string>, b: Map<string, string>, limit = 20): string[] {
  const out: string[] = [];
  for (const [file, v] of a) if (b.get(file) !== v) out.push(`${file}: ${v} / ${b.get(file) ?? 'missing'}`);
  for (const file of b.keys()) if (!a.has(file)) out.push(`${file}: missing / ${b.get(file)}`);
  return out.slice(0, limit);
}
