import { RateLimitCounterModel } from './rateLimit.model';
import { countHit } from './rateLimit.service';

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
