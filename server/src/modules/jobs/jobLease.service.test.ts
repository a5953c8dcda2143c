import { setTimeout as sleep } from 'node:timers/promises';
import { JobLeaseModel } from './jobLease.model';
import { keepLease, runExclusively } from './jobLease.service';

describe('job leases in MongoDB', () => {
  it('runs 10 simultaneous holders of one lease one at a time, each once', async () => {
    let running = 0;
    let mostAtOnce = 0;
    const finished: number[] = [];
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        runExclusively(
          'test-one-at-a-time',
          async () => {
            mostAtOnce = Math.max(mostAtOnce, ++running);
            await sleep(20);
            running--;
            finished.push(i);
          },
          { pollMs: 10 },
        ),
      ),
    );
    expect(mostAtOnce).toBe(1);
    expect(finished.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(await JobLeaseModel.countDocuments({ name: 'test-one-at-a-time' })).toBe(1);
  });

  it('waits while another instance holds the lease, and takes it over once the lease of a holder that died runs out', async () => {
    await JobLeaseModel.create({
      name: 'test-dead-holder',
      holder: 'an instance that crashed',
      heldUntil: new Date(Date.now() + 3_600_000),
    });
    let ran = false;
    const job = runExclusively(
      'test-dead-holder',
      async () => {
        ran = true;
      },
      { pollMs: 10 },
    );
    await sleep(150);
    expect(ran).toBe(false);
    // the hour passes: the crashed holder never renewed it
    await JobLeaseModel.updateOne({ name: 'test-dead-holder' }, { $set: { heldUntil: new Date(Date.now() - 1) } });
    await job;
    expect(ran).toBe(true);
    expect(await JobLeaseModel.findOne({ name: 'test-dead-holder' }).lean()).toMatchObject({ holder: null });
  });

  it('frees the lease when the job fails, so the next instance can run it', async () => {
    await expect(
      runExclusively('test-failing', async () => {
        throw new Error('job failed');
      }),
    ).rejects.toThrow('job failed');
    expect(await runExclusively('test-failing', async () => 'ran')).toBe('ran');
  });
});

describe('a lease kept for as long as the instance lives', () => {
  const TTL = 600;

  it('is held by one instance at a time, and taken over within a lease and a third once its holder dies', async () => {
    // the holder died a moment ago: its last renewal holds the lease for one more lease
    await JobLeaseModel.create({ name: 'test-kept', holder: 'an instance killed with -9', heldUntil: new Date(Date.now() + TTL) });
    const died = Date.now();
    const [a, b] = [keepLease('test-kept', { ttlMs: TTL }), keepLease('test-kept', { ttlMs: TTL })];
    try {
      await sleep(TTL / 2);
      expect([a.held, b.held]).toEqual([false, false]);
      while (!a.held && !b.held) await sleep(10);
      const tookOver = Date.now() - died;
      expect(tookOver).toBeGreaterThanOrEqual(TTL - 20);
      expect(tookOver).toBeLessThan(TTL * 2);
      // renewed while it lives: the other never gets it
      for (let i = 0; i < 6; i++) {
        await sleep(TTL / 3);
        expect(a.held !== b.held).toBe(true);
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    expect(await JobLeaseModel.findOne({ name: 'test-kept' }).lean()).toMatchObject({ holder: null });
  });

  it('stops counting as held a third of a lease before anyone else could take it when its renewals stall', async () => {
    const lease = keepLease('test-stalled', { ttlMs: TTL });
    try {
      while (!lease.held) await sleep(10);
      // the database stops answering this instance (a long pause, a slow primary): renewals hang
      const stalled = jest.spyOn(JobLeaseModel, 'updateOne').mockImplementation(() => new Promise(() => undefined) as never);
      try {
        while (lease.held) await sleep(5);
        const { heldUntil } = (await JobLeaseModel.findOne({ name: 'test-stalled' }).lean())!;
        // nobody can take it yet: the lease in the database still runs for about a third
        expect(heldUntil.getTime() - Date.now()).toBeGreaterThan(TTL / 3 - 100);
      } finally {
        stalled.mockRestore();
      }
      // answered again: held again at the next renewal
      while (!lease.held) await sleep(10);
    } finally {
      await lease.stop();
    }
  });
});
