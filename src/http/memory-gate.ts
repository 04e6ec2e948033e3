/**
 * The memory ceiling of one server process: admission by reserved bytes.
 *
 * Every request with a body reserves, before its body is read, what it may cost at worst:
 * `REQUEST_OVERHEAD_BYTES + body bytes × MEMORY_EXPANSION_FACTOR` (the factor is measured, see
 * docs/reliability.md: the body buffer, its copy into a worker, the parsed document, the report or the
 * written PDF). A request whose reservation does not fit beside those in flight is answered 503 with
 * Retry-After at once, before a byte of its body is read; the reservation is given back when the
 * answer has gone (or the connection died). A body without Content-Length (chunked) reserves as if it
 * were of the maximum upload size, since nothing bounds it better before it has arrived.
 *
 * Besides the bookkeeping, the process's resident memory is looked at: when it is already above the
 * ceiling (memory not yet given back to the system, or a compressed upload that unpacked to far more
 * than its body: a Factur-X PDF whose embedded XML is Flate-compressed costs its *decompressed* size ×
 * a few, bounded by the readers' decompression caps, not its body × the factor), requests with a body
 * wait (503) while another is in flight, until it comes down: the process serves one at a time.
 *
 * One request is always admitted when none is in flight, so that a ceiling set too low for the upload
 * limit degrades to one large request at a time instead of refusing them all.
 */
import { constrainedMemory, memoryUsage } from 'node:process';
import { totalmem } from 'node:os';
import { availableMemoryBytes } from '../util/cgroup.js';
import { getHeapStatistics } from 'node:v8';

/**
 * Worst-case memory of a request per byte of its body, measured with scripts/memory-factor.ts (figures in
 * docs/reliability.md): uploads of invoice XML or PDF cost 3–11 times their size once the service is warm
 * (26 on the very first, which also starts the worker thread the baseline allows for); metadata JSON
 * (/v1/xml, /v1/convert) becomes an object tree and a document many times its size, 42–85 times.
 */
export const MEMORY_EXPANSION_FACTOR = 12;
export const METADATA_EXPANSION_FACTOR = 90;
/** Routes whose body is invoice metadata (JSON), with the larger factor. */
const METADATA_ROUTES = new Set(['/v1/xml', '/v1/convert']);
/** Worst-case memory of a request beside its body: request objects, headers, the answer's envelope. */
export const REQUEST_OVERHEAD_BYTES = 64 * 1024;
/** Memory a process holds before any request: code, rule sets, the XSDs, a worker thread (measured idle RSS, rounded up). */
export const BASELINE_BYTES = 256 * 1024 * 1024;

const MB = 1024 * 1024;

/**
 * The default ceiling of one server process, in MB: 75% of the memory the machine gives (or its container's cgroup
 * limit, src/util/cgroup.ts), shared by the server processes, and never above what V8 lets one heap grow to.
 */
export function defaultMemoryCeilingMb(processes: number, memoryBytes = availableMemoryBytes()): number {
  // node's own reading of the cgroup (libuv) as a second opinion: the lower of the two stands.
  const constrained = constrainedMemory?.() ?? 0;
  const machine = constrained > 0 && constrained < Math.min(memoryBytes, totalmem()) ? constrained : memoryBytes;
  const share = (machine * 0.75) / Math.max(1, processes);
  return Math.floor(Math.min(share, getHeapStatistics().heap_size_limit) / MB);
}

export class MemoryGate {
  /** Bytes reserved by the requests in flight. */
  reserved = 0;
  /** Requests holding a reservation. */
  holders = 0;
  /** Requests refused since start. */
  refused = 0;
  readonly ceilingBytes: number;
  /** What the requests may reserve together: the ceiling less the baseline. */
  readonly budgetBytes: number;

  constructor(
    ceilingMb: number,
    private readonly rss: () => number = () => memoryUsage.rss(),
  ) {
    this.ceilingBytes = ceilingMb * MB;
    this.budgetBytes = Math.max(this.ceilingBytes - BASELINE_BYTES, this.ceilingBytes / 4);
  }

  /** The reservation of a body of `bytes` bytes sent to `route` (its path pattern). */
  static cost(bytes: number, route?: string): number {
    return (
      REQUEST_OVERHEAD_BYTES +
      bytes * (route !== undefined && METADATA_ROUTES.has(route) ? METADATA_EXPANSION_FACTOR : MEMORY_EXPANSION_FACTOR)
    );
  }

  /** Reserve `cost` bytes; false when they do not fit (the caller answers 503). */
  tryReserve(cost: number): boolean {
    if (this.holders > 0) {
      if (this.reserved + cost > this.budgetBytes) return this.refuse();
      if (this.currentRss() > this.ceilingBytes) return this.refuse();
    }
    this.reserved += cost;
    this.holders++;
    return true;
  }

  release(cost: number): void {
    this.reserved -= cost;
    this.holders--;
  }

  private rssValue = 0;
  private rssAt = -Infinity;

  /** RSS, read at most every 100 ms: reading it is a system call and a /proc read, too dear per request under load. */
  private currentRss(): number {
    const now = Date.now();
    if (now - this.rssAt >= 100) {
      this.rssValue = this.rss();
      this.rssAt = now;
    }
    return this.rssValue;
  }

  private refuse(): false {
    this.refused++;
    return false;
  }
}
