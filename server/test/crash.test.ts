import mongoose from 'mongoose';
import { withDatabaseName } from '../src/db/connect';
import { formatReport, runCrashTest } from './crashTest';

/**
 * `npm run crash-test` with a short budget: the product killed at every fault point and at random moments
 * under a mixed money load, restarted, swept and reconciled; every count of the reconciliation is zero.
 */
it('loses nothing and applies nothing twice across kill -9 at every fault point and at random moments', async () => {
  const mongoUrl = withDatabaseName(process.env.TEST_MONGO_URL!, mongoose.connection.name);
  const report = await runCrashTest({ mongoUrl, budgetSeconds: 15, players: 8, workers: 4 });
  console.log(formatReport(report));
  expect(report.findings.details).toEqual([]);
  expect(Object.values(report.findings.counts).every((count) => count === 0)).toBe(true);
  expect(report.randomKills).toBeGreaterThan(0);
  // some of every kind of operation was acknowledged between the kills
  for (const operation of ['gift', 'claim', 'mining.move', 'referral', 'withdrawal.request', 'stake', 'stake.claim']) {
    expect(report.operations[operation]?.acknowledged ?? 0).toBeGreaterThan(0);
  }
}, 240_000);
