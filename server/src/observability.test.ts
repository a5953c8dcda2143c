import request from 'supertest';
import { microsToStored, toMicros } from '@gift/shared';
import { createApp } from './app';
import { runIfFree } from './modules/jobs/jobLease.service';
import { WithdrawalModel } from './modules/withdrawals/withdrawal.model';
import { createCoin, createPlayer } from '../test/factories';
import { silentLogger, testEnv } from '../test/helpers';
import { consoleApi, createOperator } from '../test/operators';
import { tmaHeader } from '../test/telegram';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

/** The value of one series of the page, by its name and labels as written; undefined when the page lacks it. */
function valueOf(page: string, series: string): number | undefined {
  const line = page.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('counts requests by procedure and route pattern, shows the payout queue and the jobs, and names nobody', async () => {
    const player = await createPlayer({ username: 'metrics_secret_player', name: 'Secret Person' });
    const operator = await createOperator(['*'], { username: 'metrics_secret_operator' });
    const coin = await createCoin();
    const address = 'UQ-metrics-secret-address';
    const waiting = await WithdrawalModel.create({
      user: player._id,
      coin: coin._id,
      amount: microsToStored(toMicros('3')),
      address,
      idempotencyKey: `${player.id}:metrics`,
    });
    const launch = tmaHeader({ user: { id: player.telegramId, first_name: 'Secret', username: 'metrics_secret_player' } });

    const before = (await request(app).get('/metrics').expect(200)).text;
    await request(app).get('/trpc/home.get').set('authorization', launch).expect(200);
    await request(app).get('/trpc/no.such.procedure').set('authorization', launch).expect(404);
    await consoleApi(app, operator.token).get(`/users/${player.id}`).expect(200);
    await consoleApi(app, operator.token).get(`/withdraws/${waiting.id}`).expect(200);
    await request(app).get(`/api/admin/users/${player.id}`).expect(401);
    await runIfFree(`metrics-test:${player.id}`, async () => undefined);

    const response = await request(app).get('/metrics').expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const page = response.text;
    const grew = (series: string) => (valueOf(page, series) ?? 0) - (valueOf(before, series) ?? 0);
    expect(grew('gift_http_requests_total{route="trpc:home.get",method="GET",status="200"}')).toBe(1);
    expect(grew('gift_http_requests_total{route="trpc:unknown",method="GET",status="404"}')).toBe(1);
    expect(grew('gift_http_requests_total{route="/api/admin/users/:id",method="GET",status="200"}')).toBe(1);
    expect(grew('gift_http_requests_total{route="/api/admin/withdraws/:id",method="GET",status="200"}')).toBe(1);
    expect(grew('gift_http_requests_total{route="unmatched",method="GET",status="401"}')).toBe(1);
    expect(valueOf(page, 'gift_http_request_duration_seconds_count{route="trpc:home.get",method="GET"}')).toBeGreaterThanOrEqual(1);
    expect(valueOf(page, 'gift_withdrawals{state="pending"}')).toBe(1);
    expect(valueOf(page, 'gift_withdrawals{state="done"}')).toBe(0);
    expect(valueOf(page, 'gift_job_runs_total{job="metrics-test",outcome="ok"}')).toBe(1);
    expect(valueOf(page, 'gift_job_last_run_timestamp_seconds{job="metrics-test",outcome="ok"}')).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(valueOf(page, 'gift_notifications_waiting')).toBe(0);
    expect(page).toContain('gift_process_resident_memory_bytes');

    // nobody's data: no name, username, Telegram id, record id, address or token, in any label
    for (const secret of [
      'metrics_secret',
      'Secret Person',
      String(player.telegramId),
      player.id,
      operator.id,
      waiting.id,
      String(coin._id),
      address,
      operator.token,
    ])
      expect(page).not.toContain(secret);
    expect(page).not.toMatch(/[0-9a-f]{24}/);
  });

  it('in production answers only with the metrics token, and not at all without one', async () => {
    const production = (extra: Record<string, string> = {}) =>
      createApp({
        env: testEnv({ NODE_ENV: 'production', MONGO_URL: 'mongodb://127.0.0.1:1/x', ...extra }),
        logger: silentLogger,
        clientDist: '/nonexistent',
        adminDist: '/nonexistent',
      });
    await request(production()).get('/metrics').expect(404);
    const guarded = production({ METRICS_TOKEN: 'a-metrics-token-of-some-length' });
    await request(guarded).get('/metrics').expect(401);
    await request(guarded).get('/metrics').set('authorization', 'Bearer a-metrics-token-of-some-lengtX').expect(401);
    const page = await request(guarded).get('/metrics').set('authorization', 'Bearer a-metrics-token-of-some-length').expect(200);
    expect(page.text).toContain('gift_http_requests_total');
  });
});
