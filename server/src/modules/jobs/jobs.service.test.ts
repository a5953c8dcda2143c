import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from '../../lib/logger';
import { metricsRegistry } from '../../lib/metrics';
import { JobLeaseModel } from './jobLease.model';
import { jobOfSteps, startJobs, type Job, type RunningJobs } from './jobs.service';

/** Jobs on a short lease and interval, as several instances would run them; each test's jobs have names of their own. */
const LEASE_MS = 600;
const INTERVAL_MS = 50;

const uniqueName = (what: string) => `test-${what}-${randomBytes(3).toString('hex')}`;

/** A logger whose lines the test reads back. */
function capturedLogger() {
  const lines: Array<{ level: number; msg: string; job?: string; err?: { message: string } }> = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

function start(jobs: Job[], logger = capturedLogger().logger): RunningJobs {
  const started = startJobs(jobs, { logger, intervalMs: INTERVAL_MS, graceMs: 0, leaseMs: LEASE_MS });
  running.push(started);
  return started;
}
const running: RunningJobs[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((jobs) => jobs.stop()));
});

async function waitFor(done: () => boolean, what: string, ms = 10_000) {
  const until = Date.now() + ms;
  while (!done()) {
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await sleep(10);
  }
}

async function runsCounted(job: string, outcome: 'ok' | 'failed') {
  const metric = await metricsRegistry.getSingleMetric('gift_job_runs_total')!.get();
  return metric.values.find((value) => value.labels.job === job && value.labels.outcome === outcome)?.value ?? 0;
}

describe('registered jobs', () => {
  it('a job that throws is reported by name and retried at its next interval, while the others keep running', async () => {
    const { logger, lines } = capturedLogger();
    const [failingName, steadyName] = [uniqueName('failing'), uniqueName('steady')];
    let attempts = 0;
    let steadyRuns = 0;
    let firstDoneAt: Date | undefined;
    const lastPassesSeen: Array<Date | null> = [];
    const failing: Job = {
      name: failingName,
      kind: 'housekeeping',
      async run({ now, lastPass }) {
        attempts++;
        // a pass that threw does not count as one: the steady job has passed, this one not yet
        if (attempts === 3) lastPassesSeen.push(await lastPass(failingName), await lastPass(steadyName));
        if (attempts <= 3) throw new Error(`the database is away (attempt ${attempts})`);
        firstDoneAt ??= now;
        return { done: 1 };
      },
    };
    const steady: Job = {
      name: steadyName,
      kind: 'housekeeping',
      run: async () => ({ runs: ++steadyRuns }),
    };
    const jobs = start([failing, steady], logger);

    await waitFor(() => attempts >= 3, 'three failed attempts');
    const steadyWhileFailing = steadyRuns;
    await waitFor(() => attempts >= 5 && steadyRuns >= steadyWhileFailing + 3, 'the failing job to recover');
    // the steady job ran throughout: it was not held up by the failures
    expect(steadyWhileFailing).toBeGreaterThanOrEqual(2);
    const errors = lines.filter((line) => line.level === 50);
    expect(errors).toHaveLength(3);
    expect(errors.map((line) => [line.job, line.err?.message])).toEqual(
      [1, 2, 3].map((attempt) => [failingName, `the database is away (attempt ${attempt})`]),
    );
    expect(errors[0]!.msg).toBe(`job ${failingName} failed; it runs again in ${INTERVAL_MS} ms`);
    expect(await runsCounted(failingName, 'failed')).toBe(3);
    expect(await runsCounted(failingName, 'ok')).toBeGreaterThanOrEqual(2);
    expect(await runsCounted(steadyName, 'failed')).toBe(0);
    expect(lastPassesSeen).toEqual([null, expect.any(Date)]);
    const failingLease = await JobLeaseModel.findOne({ name: failingName }).lean();
    expect(failingLease!.lastPassStartedAt!.getTime()).toBeGreaterThanOrEqual(firstDoneAt!.getTime());

    // a clean stop waits for the passes under way and lets every lease go at once
    await jobs.stop();
    const [afterStop, steadyAfterStop] = [attempts, steadyRuns];
    expect(await JobLeaseModel.find({ name: { $in: [failingName, steadyName] } }, { _id: 0, holder: 1 }).lean()).toEqual([
      { holder: null },
      { holder: null },
    ]);
    await sleep(INTERVAL_MS * 4);
    expect([attempts, steadyRuns]).toEqual([afterStop, steadyAfterStop]);
  });

  it('two instances never run one job at once; when its holder stops, the other runs it within a lease and an interval', async () => {
    const name = uniqueName('shared');
    let atOnce = 0;
    let mostAtOnce = 0;
    const runsBy = { a: 0, b: 0 };
    // the same job as each instance registers it: a pass that takes a while
    const jobOf = (instance: 'a' | 'b'): Job => ({
      name,
      kind: 'recovery',
      async run() {
        mostAtOnce = Math.max(mostAtOnce, ++atOnce);
        await sleep(30);
        atOnce--;
        runsBy[instance]++;
        return {};
      },
    });
    const instances = { a: start([jobOf('a')]), b: start([jobOf('b')]) };
    await waitFor(() => runsBy.a + runsBy.b >= 15, '15 passes');
    expect(mostAtOnce).toBe(1);
    // one instance holds the lease and runs every pass; the other waits
    const holder = runsBy.a > 0 ? 'a' : 'b';
    const other = holder === 'a' ? 'b' : 'a';
    expect(runsBy[other]).toBe(0);

    await instances[holder].stop();
    const stopped = Date.now();
    await waitFor(() => runsBy[other] > 0, 'the other instance to take over');
    expect(Date.now() - stopped).toBeLessThan(LEASE_MS + INTERVAL_MS + 500);
    expect(mostAtOnce).toBe(1);
  });

  it('a job whose lease is lost mid-pass stops before its next step, and its new holder runs it', async () => {
    const { logger, lines } = capturedLogger();
    const name = uniqueName('steps');
    const stepsRun: string[] = [];
    let stolen = false;
    const job = jobOfSteps({ name, kind: 'recovery' }, [
      {
        name: 'first',
        async run({ holding }) {
          stepsRun.push('first');
          if (stolen) return 0;
          stolen = true;
          // another instance takes the lease (this one's renewals stalled past it); this one notices at its next renewal
          await JobLeaseModel.updateOne({ name }, { $set: { holder: 'another instance', heldUntil: new Date(Date.now() + 60_000) } });
          await waitFor(() => !holding(), 'this instance to notice');
          return 1;
        },
      },
      {
        name: 'second',
        run: async () => {
          stepsRun.push('second');
          return 0;
        },
      },
    ]);
    start([job], logger);
    await waitFor(() => lines.some((line) => line.msg === `${name}: the lease was lost mid-pass; the next holder runs it`), 'the warning');
    await sleep(LEASE_MS);
    expect(stepsRun).toEqual(['first']);
    expect(lines.filter((line) => line.msg === 'job finished interrupted operations')).toEqual([]);

    // the other instance dies; once its lease runs out, this one holds it again and runs the whole job
    await JobLeaseModel.updateOne({ name }, { $set: { heldUntil: new Date() } });
    await waitFor(() => stepsRun.includes('second'), 'the next pass');
    expect(stepsRun.slice(0, 3)).toEqual(['first', 'first', 'second']);
  });
});
