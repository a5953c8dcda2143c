import { setTimeout as sleep } from 'node:timers/promises';
import { JobLeaseModel } from './jobLease.model';
import { runExclusively } from './jobLease.service';

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
