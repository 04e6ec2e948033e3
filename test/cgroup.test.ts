/**
 * PROCESSES=auto, the worker cap, the CLI's --jobs and the MAX_MEMORY_MB default follow the container's cgroup
 * limits (src/util/cgroup.ts), read here from fake cgroup trees in the layouts of cgroup v2, v1 and a hybrid host.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { loadConfig } from '../src/config.js';
import { defaultMemoryCeilingMb } from '../src/http/memory-gate.js';
import { availableCpus, availableMemoryBytes, readCgroupLimits } from '../src/util/cgroup.js';

const base = mkdtempSync(path.join(tmpdir(), 'cgroup-test-'));
after(() => rmSync(base, { recursive: true, force: true }));

let trees = 0;
/** A fake cgroup mount: { 'relative/file': 'content' }. */
function tree(files: Record<string, string>): string {
  const root = path.join(base, `t${trees++}`);
  mkdirSync(root);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content + '\n');
  }
  return root;
}

const GiB = 1024 ** 3;
const V1_UNLIMITED = '9223372036854771712';

test('cgroup v2, a container with its own cgroup namespace: cpu.max and memory.max at the mount root', () => {
  const root = tree({ 'cgroup.controllers': 'cpu memory pids', 'cpu.max': '200000 100000', 'memory.max': String(GiB) });
  const limits = readCgroupLimits({ root, selfCgroup: '0::/' });
  assert.deepEqual(limits, { cpus: 2, memoryBytes: GiB });
  assert.equal(availableCpus(limits, 16), 2, 'a 16-core host, a 2-CPU container');
  assert.equal(loadConfig({ PROCESSES: 'auto' }, availableCpus(limits, 16)).processes, 2);
  assert.equal(availableMemoryBytes(limits, 64 * GiB), GiB);
});

test('cgroup v2 without limits ("max"): the machine figures stand', () => {
  const root = tree({ 'cgroup.controllers': 'cpu memory', 'cpu.max': 'max 100000', 'memory.max': 'max' });
  const limits = readCgroupLimits({ root, selfCgroup: '0::/' });
  assert.deepEqual(limits, { cpus: undefined, memoryBytes: undefined });
  assert.equal(availableCpus(limits, 6), 6);
  assert.equal(loadConfig({ PROCESSES: 'auto' }, availableCpus(limits, 6)).processes, 6);
  assert.equal(availableMemoryBytes(limits, 8 * GiB), 8 * GiB);
});

test('a fractional quota is rounded down, never below one; the cores the process may run on cap it', () => {
  const quota = (q: string) =>
    readCgroupLimits({ root: tree({ 'cgroup.controllers': 'cpu', 'cpu.max': `${q} 100000` }), selfCgroup: '0::/' });
  assert.equal(quota('150000').cpus, 1.5);
  assert.equal(availableCpus(quota('150000'), 8), 1);
  assert.equal(availableCpus(quota('50000'), 8), 1, 'half a CPU still runs one process');
  assert.equal(availableCpus(quota('399999'), 8), 3);
  assert.equal(availableCpus(quota('800000'), 2), 2, 'a quota above the cores the process may use');
  assert.equal(loadConfig({ PROCESSES: 'auto' }, availableCpus(quota('250000'), 32)).processes, 2);
});

test('cgroup v2 on a host: the tightest limit from the own cgroup up to the root', () => {
  const root = tree({
    'cgroup.controllers': 'cpu memory',
    'kubepods/cpu.max': 'max 100000',
    'kubepods/memory.max': String(8 * GiB),
    'kubepods/pod1/cpu.max': '300000 100000',
    'kubepods/pod1/memory.max': 'max',
    'kubepods/pod1/c1/cpu.max': '400000 100000',
    'kubepods/pod1/c1/memory.max': String(2 * GiB),
  });
  assert.deepEqual(readCgroupLimits({ root, selfCgroup: '0::/kubepods/pod1/c1\n' }), { cpus: 3, memoryBytes: 2 * GiB });
  assert.deepEqual(readCgroupLimits({ root, selfCgroup: '0::/kubepods' }), { cpus: undefined, memoryBytes: 8 * GiB });
  // A path that is not under the mount (another namespace's view): the mount's root, which has no limit files.
  assert.deepEqual(readCgroupLimits({ root, selfCgroup: '0::/elsewhere/x' }), { cpus: undefined, memoryBytes: undefined });
});

test('cgroup v1: cpu.cfs_quota_us / cpu.cfs_period_us and memory.limit_in_bytes, co-mounted controllers', () => {
  const root = tree({
    'cpu,cpuacct/cpu.cfs_quota_us': '300000',
    'cpu,cpuacct/cpu.cfs_period_us': '100000',
    'memory/memory.limit_in_bytes': String(512 * 1024 * 1024),
    'pids/pids.max': 'max',
  });
  // Docker on cgroup v1: /proc/self/cgroup names the host's path, the container sees its own cgroup at the mount.
  const self = ['12:pids:/docker/abc', '4:memory:/docker/abc', '3:cpu,cpuacct:/docker/abc', '1:name=systemd:/docker/abc'].join('\n');
  const limits = readCgroupLimits({ root, selfCgroup: self });
  assert.deepEqual(limits, { cpus: 3, memoryBytes: 512 * 1024 * 1024 });
  assert.equal(loadConfig({ PROCESSES: 'auto' }, availableCpus(limits, 64)).processes, 3);
});

test('cgroup v1 without limits (-1, the huge number), and a hybrid host whose unified mount has no controllers', () => {
  const root = tree({
    'unified/cgroup.procs': '1',
    'cpu/cpu.cfs_quota_us': '-1',
    'cpu/cpu.cfs_period_us': '100000',
    'memory/memory.limit_in_bytes': V1_UNLIMITED,
    'memory/job/memory.limit_in_bytes': String(3 * GiB),
  });
  const self = '4:memory:/job\n1:cpu:/\n0::/';
  assert.deepEqual(readCgroupLimits({ root, selfCgroup: self }), { cpus: undefined, memoryBytes: 3 * GiB });
  assert.deepEqual(readCgroupLimits({ root, selfCgroup: '4:memory:/\n1:cpu:/' }), { cpus: undefined, memoryBytes: undefined });
});

test('no cgroup file system at all, or unreadable values: no limits, nothing thrown', () => {
  assert.deepEqual(readCgroupLimits({ root: path.join(base, 'missing'), selfCgroup: '' }), {
    cpus: undefined,
    memoryBytes: undefined,
  });
  const root = tree({ 'cgroup.controllers': 'cpu memory', 'cpu.max': 'garbage', 'memory.max': '-5' });
  assert.deepEqual(readCgroupLimits({ root, selfCgroup: '0::/' }), { cpus: undefined, memoryBytes: undefined });
});

test('the MAX_MEMORY_MB default: 75% of the cgroup limit, shared by the server processes', () => {
  const root = tree({ 'cgroup.controllers': 'memory', 'memory.max': String(512 * 1024 * 1024) });
  const memory = availableMemoryBytes(readCgroupLimits({ root, selfCgroup: '0::/' }));
  assert.equal(defaultMemoryCeilingMb(1, memory), 384);
  assert.equal(defaultMemoryCeilingMb(2, memory), 192);
});
