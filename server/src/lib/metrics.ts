import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The product's Prometheus metrics (`GET /metrics`). Labels name routes, procedures, commands, jobs, states and coins,
 * never a player, an operator, an id or an address: a label is a short fixed word or pattern, so the series stay few
 * and the page carries nobody's data.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'gift_' });

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequests = new Counter({
  name: 'gift_http_requests_total',
  help: 'HTTP requests answered, by route pattern (or tRPC procedure), method and status',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpDuration = new Histogram({
  name: 'gift_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by route pattern (or tRPC procedure) and method',
  labelNames: ['route', 'method'] as const,
  buckets: SECONDS,
  registers: [metricsRegistry],
});

export const databaseDuration = new Histogram({
  name: 'gift_db_command_duration_seconds',
  help: 'Time the database took to answer a command, by command name and outcome',
  labelNames: ['command', 'outcome'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [metricsRegistry],
});

const jobRuns = new Counter({
  name: 'gift_job_runs_total',
  help: 'Background job runs on this instance (under their lease), by job and outcome',
  labelNames: ['job', 'outcome'] as const,
  registers: [metricsRegistry],
});

const jobLastRun = new Gauge({
  name: 'gift_job_last_run_timestamp_seconds',
  help: 'When a background job last finished on this instance (unix seconds), by job and outcome',
  labelNames: ['job', 'outcome'] as const,
  registers: [metricsRegistry],
});

const jobDuration = new Gauge({
  name: 'gift_job_last_duration_seconds',
  help: 'How long the last run of a background job took on this instance',
  labelNames: ['job'] as const,
  registers: [metricsRegistry],
});

/** Records one run of a background job: its outcome, when it ended and how long it took. */
export async function measureJob<T>(job: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  let outcome: 'ok' | 'failed' = 'failed';
  try {
    const result = await run();
    outcome = 'ok';
    return result;
  } finally {
    jobRuns.inc({ job, outcome });
    jobLastRun.set({ job, outcome }, Date.now() / 1000);
    jobDuration.set({ job }, (performance.now() - started) / 1000);
  }
}

/** A gauge read from the database when Prometheus asks (payout queue, broadcasts, notifications): `read` sets its values. */
export function databaseGauge<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  read: (set: (labels: Record<L, string>, value: number) => void) => Promise<void>,
) {
  return new Gauge({
    name,
    help,
    labelNames,
    registers: [metricsRegistry],
    async collect() {
      this.reset();
      // a database that does not answer leaves the gauge empty rather than failing the whole page
      await read((labels, value) => this.set(labels, value)).catch(() => undefined);
    },
  });
}
