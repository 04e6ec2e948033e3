// Preloaded (--import) into the fuzz harness's servers: their stdin is a pipe from the harness, which closes
// when the harness ends in any way (SIGKILL included), so a server never outlives its harness.
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();
process.stdin.unref?.();
