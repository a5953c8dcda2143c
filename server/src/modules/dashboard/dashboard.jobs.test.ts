import { toMicros } from '@gift/shared';
import { createCoin, createPlayer } from '../../../test/factories';
import type { JobContext } from '../jobs/jobs.service';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { recoverPendingEntries } from '../ledger/ledger.service';
import { DailyFiguresModel } from './dailyFigures.model';
import { figuresJob } from './dashboard.jobs';

// a fixed clock: 10:00 UTC, so yesterday has been over for ten hours
const now = new Date('2026-11-20T10:00:00.000Z');
const yesterdayNoon = new Date('2026-11-19T12:00:00.000Z');

const pass = (lastRecovery: Date | null): JobContext => ({
  now,
  graceMs: 0,
  holding: () => true,
  lastPass: async (job) => (job === 'money-recovery' ? lastRecovery : null),
});

describe('the figures job', () => {
  it('rolls a day up only after a money recovery pass begun an hour after its end, so what a crash left of it is counted', async () => {
    const [coin, player] = await Promise.all([createCoin({ symbol: 'ROLL' }), createPlayer({ createdAt: yesterdayNoon })]);
    // a gift of yesterday's a crash left recorded and not posted: an outage kept every instance down until this morning
    const entry = await LedgerEntryModel.create({
      user: player._id,
      coin: coin._id,
      amount: Number(toMicros('9')),
      reason: 'gift',
      idempotencyKey: `left-yesterday:${player.id}`,
    });
    await LedgerEntryModel.collection.updateOne({ _id: entry._id }, { $set: { createdAt: yesterdayNoon } });
    const job = figuresJob('money-recovery');

    // back up: no recovery pass has finished yet, or only one begun within the hour after yesterday ended
    for (const lastRecovery of [null, new Date('2026-11-20T00:59:00.000Z')]) {
      expect(await job.run(pass(lastRecovery))).toMatchObject({ daysRolledUp: 0, analyticsDaysRolledUp: 0 });
    }
    expect(await DailyFiguresModel.countDocuments()).toBe(0);

    // the money recovery posts the gift; its pass began after yesterday had been over for an hour
    expect(await recoverPendingEntries(0)).toBe(1);
    expect(await job.run(pass(new Date('2026-11-20T09:59:58.000Z')))).toMatchObject({ daysRolledUp: 1, analyticsDaysRolledUp: 1 });
    expect(await DailyFiguresModel.findOne({ day: '2026-11-19' }).lean()).toMatchObject({
      newPlayers: 1,
      issued: [{ coin: coin._id, amount: Number(toMicros('9')) }],
    });
  });
});
