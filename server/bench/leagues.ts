/**
 * `npm run bench:leagues` (and the end of `npm run bench`): the league page's reads, a player's rank and the players around
 * them, at 10k and 100k players in one league of one week on the embedded database. Prints p50 and p95 in ms; no assertion.
 * Knobs (environment): LEAGUE_SIZES (default 10000,100000), LEAGUE_READS per size (default 200), LEAGUE_COMPARE (default 20).
 */
import mongoose, { Types } from 'mongoose';
import { performance } from 'node:perf_hooks';
import { withDatabaseName } from '../src/db/connect';
import { StandingModel } from '../src/modules/leagues/leagues.models';
import { rebuildRankCounts } from '../src/modules/leagues/rankCounts.service';
import { around, rankOf, standingId } from '../src/modules/leagues/standings.service';
import { percentile, startDatabase } from './loopback';

const SIZES = (process.env.LEAGUE_SIZES ?? '10000,100000').split(',').map(Number);
const READS = Number(process.env.LEAGUE_READS ?? 200);
/** How many of the reads are also counted the old way, to compare and to check the rank equal. */
const COMPARE = Number(process.env.LEAGUE_COMPARE ?? 20);

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
            counted: ((start + i) * 7919) % 1_000_003,
          })),
          { ordered: false },
        );
      await rebuildRankCounts(week);
      const latencies: number[] = [];
      const ranks: number[] = [];
      const counted: number[] = [];
      for (let read = 0; read < READS; read++) {
        const user = users[Math.floor(Math.random() * size)]!;
        const started = performance.now();
        const standing = (await StandingModel.findById(standingId(week, user), { score: 1 }).lean())!;
        const place = { week, league: 'gold' as const, score: Number(standing.score), _id: standing._id };
        const ranking = performance.now();
        const rank = await rankOf(place);
        ranks.push(performance.now() - ranking);
        await around(place, 3);
        latencies.push(performance.now() - started);
        // the same rank as a count over everyone above (the way before the rank counts), timed apart and checked equal
        if (read < COMPARE) {
          const before = performance.now();
          const above = await StandingModel.countDocuments({
            week,
            league: 'gold',
            $or: [{ score: { $gt: place.score } }, { score: place.score, _id: { $gt: place._id } }],
          });
          counted.push(performance.now() - before);
          if (above + 1 !== rank) throw new Error(`rank ${rank} read from the counts, ${above + 1} counted`);
        }
      }
      for (const list of [latencies, ranks, counted]) list.sort((a, b) => a - b);
      rows.push(
        `${String(size).padStart(7)} players  page p50 ${percentile(latencies, 50).toFixed(2)} ms  p95 ${percentile(latencies, 95).toFixed(2)} ms` +
          `  rank alone p50 ${percentile(ranks, 50).toFixed(2)} ms  p95 ${percentile(ranks, 95).toFixed(2)} ms` +
          `  (a count over everyone above, ${counted.length} reads: p50 ${percentile(counted, 50).toFixed(2)} ms)`,
      );
      await mongoose.connection.dropDatabase();
      await mongoose.disconnect();
    }
  } finally {
    database.stop();
  }
  console.log(`League page reads (page: rank + players around me; ${database.kind}):\n${rows.join('\n')}`);
}

void main();
