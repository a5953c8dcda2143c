/**
 * `npm run bench:leagues` (and the end of `npm run bench`): the league page's reads, a player's rank and the players around
 * them, at 10k and 100k players in one league of one week on the embedded database. Prints p50 and p95 in ms; no assertion.
 * Knobs (environment): LEAGUE_SIZES (default 10000,100000), LEAGUE_READS per size (default 200).
 */
import mongoose, { Types } from 'mongoose';
import { performance } from 'node:perf_hooks';
import { withDatabaseName } from '../src/db/connect';
import { StandingModel } from '../src/modules/leagues/leagues.models';
import { around, rankOf, standingId } from '../src/modules/leagues/standings.service';
import { percentile, startDatabase } from './loopback';

const SIZES = (process.env.LEAGUE_SIZES ?? '10000,100000').split(',').map(Number);
const READS = Number(process.env.LEAGUE_READS ?? 200);

async function main() {
  const database = await startDatabase();
  const rows: string[] = [];
  try {
    for (const size of SIZES) {
      await mongoose.connect(withDatabaseName(database.uri, `bench-leagues-${size}`));
      await StandingModel.init();
      const week = '2026-11-23';
      const users = Array.from({ length: size }, () => new Types.ObjectId());
      for (let start = 0; start < size; start += 5000)
        await StandingModel.insertMany(
          users.slice(start, start + 5000).map((user, i) => ({
            _id: standingId(week, user),
            week,
            user,
            league: 'gold',
            score: ((start + i) * 7919) % 1_000_003,
          })),
          { ordered: false },
        );
      const latencies: number[] = [];
      for (let read = 0; read < READS; read++) {
        const user = users[Math.floor(Math.random() * size)]!;
        const started = performance.now();
        const standing = (await StandingModel.findById(standingId(week, user), { score: 1 }).lean())!;
        const place = { week, league: 'gold' as const, score: Number(standing.score), _id: standing._id };
        await Promise.all([rankOf(place), around(place, 3)]);
        latencies.push(performance.now() - started);
      }
      latencies.sort((a, b) => a - b);
      rows.push(
        `${String(size).padStart(7)} players  p50 ${percentile(latencies, 50).toFixed(2)} ms  p95 ${percentile(latencies, 95).toFixed(2)} ms`,
      );
      await mongoose.connection.dropDatabase();
      await mongoose.disconnect();
    }
  } finally {
    database.stop();
  }
  console.log(`League page reads (rank + players around me, ${database.kind}):\n${rows.join('\n')}`);
}

void main();
