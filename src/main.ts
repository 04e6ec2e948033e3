/**
 * Process entry point: configuration, the app, listening, graceful shutdown.
 * A bad configuration stops the process with one line naming the variable.
 * With PROCESSES > 1 this process supervises that many server processes instead (./processes.ts).
 */
import { ConfigError, loadConfig, type Config } from './config.js';
import { isSupervisor, runSupervisor } from './processes.js';

let config: Config;
try {
  config = loadConfig(process.env);
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`configuration error: ${err.message}\n`);
    process.exit(2);
  }
  throw err;
}

if (isSupervisor(config)) runSupervisor(config);
else await serve(config);

async function serve(config: Config): Promise<void> {
  // Loaded here: the supervisor of several server processes never builds the app.
  const { buildApp } = await import('./http/app.js');
  const { shutdownGracefully } = await import('./http/transport.js');
  const app = await buildApp(config);

  let closing = false;
  async function shutdown(signal: string): Promise<void> {
    if (closing) return;
    closing = true;
    try {
      // Readiness 503, stop listening, finish requests in flight; bounded by SHUTDOWN_GRACE_S (src/http/transport.ts).
      process.exit(await shutdownGracefully(app, signal));
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    await app.listen({ port: config.port, host: config.host });
    app.log.info(
      // The memory ceiling follows MAX_MEMORY_MB, else the machine's or the container's memory (src/util/cgroup.ts).
      { edition: app.edition, port: config.port, host: config.host, max_memory_mb: app.lifecycle.memoryCeilingMb },
      `einvoice-service listening (${app.edition} mode)`,
    );
  } catch (err) {
    app.log.error({ err }, 'could not start listening');
    process.exit(1);
  }
}
