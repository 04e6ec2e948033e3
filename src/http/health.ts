/**
 * Readiness: every subsystem the service depends on registers a check; /healthz runs them all.
 * A failing critical check makes the service not ready (503); a non-critical one only degrades it.
 */
export interface CheckResult {
  ok: boolean;
  detail?: string;
}

export interface HealthCheck {
  name: string;
  critical: boolean;
  check: () => CheckResult | Promise<CheckResult>;
}

export interface CheckReport {
  status: 'ok' | 'unavailable';
  critical: boolean;
  detail?: string;
}

export class HealthRegistry {
  private readonly checks: HealthCheck[] = [];

  add(check: HealthCheck): void {
    this.checks.push(check);
  }

  async run(): Promise<{ ready: boolean; checks: Record<string, CheckReport> }> {
    const checks: Record<string, CheckReport> = {};
    let ready = true;
    await Promise.all(
      this.checks.map(async (c) => {
        let result: CheckResult;
        try {
          result = await c.check();
        } catch (err) {
          result = { ok: false, detail: (err as Error).message };
        }
        checks[c.name] = {
          status: result.ok ? 'ok' : 'unavailable',
          critical: c.critical,
          ...(result.detail ? { detail: result.detail } : {}),
        };
        if (!result.ok && c.critical) ready = false;
      }),
    );
    return { ready, checks };
  }
}
