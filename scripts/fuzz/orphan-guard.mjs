// Preloaded (--import) into the fuzz harness's servers: their stdin is a pipe from the harness, which closes
// when the harness ends in any way (SIGKILL included), so a server never outlives its harness. Main thread
// only: --import runs in worker threads too, whose stdin ends at once.
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  process.stdin.on('end', () => process.exit(0));
  process.stdin.on('error', () => process.exit(0));
  process.stdin.resume();
  process.stdin.unref?.();
}
