/**
 * The CPU and memory a container may use, read from its cgroup: in a container (Docker, podman, a Kubernetes pod)
 * `os.availableParallelism()` and `os.totalmem()` describe the host — 64 cores and 256 GB on a node where the pod
 * may use 2 CPUs and 1 GB. PROCESSES=auto, the CLI's default --jobs, the worker pool's cap and the MAX_MEMORY_MB
 * default follow these figures instead.
 *
 * cgroup v2 (one unified hierarchy, `cgroup.controllers` at its root): `cpu.max` ("QUOTA PERIOD" or "max PERIOD")
 * and `memory.max` (bytes or "max"). cgroup v1: `cpu.cfs_quota_us` (-1: none) / `cpu.cfs_period_us` in the cpu
 * controller's hierarchy, `memory.limit_in_bytes` (a huge number: none) in the memory one. The process's own cgroup
 * comes from /proc/self/cgroup; every ancestor's limit applies too, so the tightest on the way up to the root counts.
 * In a container with its own cgroup namespace, or v1 hierarchies bind-mounted at the container's cgroup, that path
 * does not exist under the mount: the mount's root is then the container's cgroup. Hosts and containers without
 * these files have no limit here, and the machine's figures stand.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import path from 'node:path';

export interface CgroupLimits {
  /** CPUs the quota allows (may be fractional, e.g. 1.5), undefined without a quota. */
  cpus?: number;
  /** The memory limit in bytes, undefined without one. */
  memoryBytes?: number;
}

export interface CgroupSource {
  /** Where the cgroup file systems are mounted (default /sys/fs/cgroup). */
  root?: string;
  /** The text of /proc/self/cgroup (default: read from there). */
  selfCgroup?: string;
}

/** cgroup v1 writes "no limit" as the largest page-aligned 63-bit number; anything from 2^60 bytes on is none. */
const UNLIMITED_BYTES = 2 ** 60;

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The process's cgroup paths: controller name → path ("" is the v2 unified hierarchy). */
function selfPaths(text: string): Map<string, string> {
  const paths = new Map<string, string>();
  for (const line of text.split('\n')) {
    const first = line.indexOf(':');
    const second = line.indexOf(':', first + 1);
    if (first < 0 || second < 0) continue;
    const controllers = line.slice(first + 1, second);
    const where = line.slice(second + 1).trim();
    if (controllers === '') paths.set('', where);
    else for (const c of controllers.split(',')) paths.set(c, where);
  }
  return paths;
}

/**
 * The folders whose limits apply, from the process's own cgroup up to the mount's root. When the process's path
 * is not under the mount (a container's namespaced or bind-mounted view), the mount's root alone.
 */
function chain(mount: string, cgroupPath: string | undefined): string[] {
  const parts = (cgroupPath ?? '/').split('/').filter((p) => p !== '' && p !== '..' && p !== '.');
  const own = path.join(mount, ...parts);
  if (parts.length === 0 || !existsSync(own)) return [mount];
  const folders: string[] = [];
  for (let i = parts.length; i >= 0; i--) folders.push(path.join(mount, ...parts.slice(0, i)));
  return folders;
}

/** A v1 hierarchy's mount point for a controller: `cpu`, or a co-mounted `cpu,cpuacct` folder. */
function v1Mount(root: string, controller: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return undefined;
  }
  const name = names.find((n) => n === controller) ?? names.find((n) => n.split(',').includes(controller));
  return name === undefined ? undefined : path.join(root, name);
}

function minimum(values: (number | undefined)[]): number | undefined {
  let least: number | undefined;
  for (const v of values) if (v !== undefined && (least === undefined || v < least)) least = v;
  return least;
}

function bytes(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text)) return undefined; // "max", missing or unreadable: no limit
  const n = Number(text);
  return n > 0 && n < UNLIMITED_BYTES ? n : undefined;
}

function quota(quotaText: string | undefined, periodText: string | undefined): number | undefined {
  if (quotaText === undefined || periodText === undefined) return undefined;
  if (!/^\d+$/.test(quotaText) || !/^\d+$/.test(periodText)) return undefined; // "max", -1: no quota
  const q = Number(quotaText);
  const p = Number(periodText);
  return q > 0 && p > 0 ? q / p : undefined;
}

/** Read the limits of this process's cgroup (or of a fake tree, for tests). Never throws. */
export function readCgroupLimits(source: CgroupSource = {}): CgroupLimits {
  const root = source.root ?? '/sys/fs/cgroup';
  const self = selfPaths(source.selfCgroup ?? readText('/proc/self/cgroup') ?? '');
  if (existsSync(path.join(root, 'cgroup.controllers'))) {
    const folders = chain(root, self.get(''));
    const cpus = minimum(
      folders.map((f) => {
        const [q, p] = (readText(path.join(f, 'cpu.max')) ?? '').split(/\s+/);
        return quota(q, p);
      }),
    );
    const memoryBytes = minimum(folders.map((f) => bytes(readText(path.join(f, 'memory.max')))));
    return { cpus, memoryBytes };
  }
  const cpuMount = v1Mount(root, 'cpu');
  const memoryMount = v1Mount(root, 'memory');
  const cpus =
    cpuMount === undefined
      ? undefined
      : minimum(
          chain(cpuMount, self.get('cpu')).map((f) =>
            quota(readText(path.join(f, 'cpu.cfs_quota_us')), readText(path.join(f, 'cpu.cfs_period_us'))),
          ),
        );
  const memoryBytes =
    memoryMount === undefined
      ? undefined
      : minimum(chain(memoryMount, self.get('memory')).map((f) => bytes(readText(path.join(f, 'memory.limit_in_bytes')))));
  return { cpus, memoryBytes };
}

/**
 * Whole CPUs this process may keep busy: the cores it may run on, capped by the cgroup's CPU quota rounded down
 * (at least 1). Rounded down because a process beyond the quota is throttled, not faster: with 1.5 CPUs, two
 * server processes would each be stopped for part of every 100 ms period, which shows as latency, while their
 * memory is paid in full.
 */
export function availableCpus(limits: CgroupLimits = cgroupLimits(), cores = availableParallelism()): number {
  const quotaCpus = limits.cpus === undefined ? Number.POSITIVE_INFINITY : Math.max(1, Math.floor(limits.cpus));
  return Math.max(1, Math.min(cores, quotaCpus));
}

/** Memory this process may use in bytes: the machine's, or the cgroup's limit when that is lower. */
export function availableMemoryBytes(limits: CgroupLimits = cgroupLimits(), machine = totalmem()): number {
  return limits.memoryBytes !== undefined && limits.memoryBytes < machine ? limits.memoryBytes : machine;
}

let cached: CgroupLimits | undefined;

/** This process's cgroup limits, read once (they are set when the container starts). */
export function cgroupLimits(): CgroupLimits {
  cached ??= readCgroupLimits();
  return cached;
}
