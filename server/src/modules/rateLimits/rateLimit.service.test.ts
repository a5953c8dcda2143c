import { RateLimitCounterModel } from './rateLimit.model';
import { countHit, enforceRateLimit } from './rateLimit.service';

const rule = { name: 'test.limit', limit: 10, windowSeconds: 60 };
const T0 = new Date('2026-01-01T10:00:00Z');

describe('rate limit counters in MongoDB', () => {
  it('allows exactly the limit of 100 simultaneous hits, and counts them all', async () => {
    const outcomes = await Promise.all(Array.from({ length: 100 }, () => countHit(rule, 'player-a', T0)));
    expect(outcomes.filter((o) => o.allowed)).toHaveLength(10);
    expect((await RateLimitCounterModel.findOne({ key: /^test\.limit:player-a:/ }).lean())!.count).toBe(100);
  });

  it('counts each subject apart, starts again in the next window, and lets a window expire with it', async () => {
    for (let i = 0; i < 10; i++) await countHit(rule, 'player-b', T0);
    expect((await countHit(rule, 'player-b', T0)).allowed).toBe(false);
    expect((await countHit(rule, 'player-c', T0)).allowed).toBe(true);
    const next = await countHit(rule, 'player-b', new Date(T0.getTime() + 60_000));
    expect(next).toMatchObject({ allowed: true, count: 1 });
    const counter = await RateLimitCounterModel.findOne({ key: `test.limit:player-b:${T0.getTime()}` }).lean();
    expect(counter!.expiresAt).toEqual(new Date(T0.getTime() + 60_000));
  });
});

describe('per-instance limits, counted in memory', () => {
  const local = { name: 'test.local', limit: 10, windowSeconds: 60, perInstance: true };
  const outcomes = (calls: Array<Promise<void>>) =>
    Promise.all(
      calls.map((call) =>
        call.then(
          () => 'OK',
          (error: { code?: string }) => error.code,
        ),
      ),
    );

  it('refuses exactly the hits beyond the limit of 100 simultaneous ones, and writes no counter to the database', async () => {
    const codes = await outcomes(Array.from({ length: 100 }, () => enforceRateLimit(local, 'player-d', T0)));
    expect(codes.filter((c) => c === 'OK')).toHaveLength(10);
    expect(codes.filter((c) => c === 'RATE_LIMITED')).toHaveLength(90);
    expect(await RateLimitCounterModel.countDocuments({ key: /^test\.local:/ })).toBe(0);
  });

  it('counts each subject apart and starts again in the next window', async () => {
    await outcomes(Array.from({ length: 10 }, () => enforceRateLimit(local, 'player-e', T0)));
    await expect(enforceRateLimit(local, 'player-e', T0)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await expect(enforceRateLimit(local, 'player-f', T0)).resolves.toBeUndefined();
    await expect(enforceRateLimit(local, 'player-e', new Date(T0.getTime() + 60_000))).resolves.toBeUndefined();
  });
});
