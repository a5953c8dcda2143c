/**
 * `npm run bench:risk [-- --friends 2000 --players 5000]`: the risk score on the embedded database (in a process of its own).
 * Seeds a farm's referrer with `friends` friends who joined within minutes (each with two friends of their own: the tree's
 * second level) and `players` ordinary players, then prints the time to assess the referrer (the largest tree read), the
 * mean time to assess an ordinary player, and the time of one sweep pass over 200 players marked due (without its 1 s budget).
 */
import { parseArgs } from 'node:util';
import { Types } from 'mongoose';
import { assessDuePlayers, assessPlayer } from '../src/modules/risk/risk.service';
import { UserModel } from '../src/modules/users/user.model';
import { runOnFreshDatabase } from './loopback';

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await run();
  return [result, performance.now() - started];
}

async function insert(records: Array<Record<string, unknown>>) {
  for (let from = 0; from < records.length; from += 1000) await UserModel.insertMany(records.slice(from, from + 1000));
}

runOnFreshDatabase('bench-risk', async (database) => {
  const { values } = parseArgs({ options: { friends: { type: 'string', default: '2000' }, players: { type: 'string', default: '5000' } } });
  const friends = Number(values.friends);
  const players = Number(values.players);

  process.stdout.write(
    `preparing a referrer with ${friends} friends (and ${friends * 2} friends of theirs) and ${players} players (${database.kind})…\n`,
  );
  const now = Date.now();
  let telegramId = 20_000_000;
  const referrer = new Types.ObjectId();
  const player = (fields: Record<string, unknown> & { _id?: Types.ObjectId }) => ({
    telegramId: telegramId++,
    name: `Player ${telegramId}`,
    referralCode: `risk${telegramId}`,
    joinNetwork: `net${telegramId % 500}`,
    ...fields,
  });
  const firstLevel = Array.from({ length: friends }, (_, i) =>
    player({ _id: new Types.ObjectId(), referrer, createdAt: new Date(now - 3_600_000 + Math.floor(i / 5) * 1_000) }),
  );
  await insert([player({ _id: referrer, createdAt: new Date(now - 86_400_000) }), ...firstLevel]);
  await insert(firstLevel.flatMap((friend) => [player({ referrer: friend._id }), player({ referrer: friend._id })]));
  // each friend counted their two friends, as the registration's count keeps it
  await UserModel.updateMany({ referrer }, { $set: { referrersCount: 2 } });
  const ordinary = Array.from({ length: players }, (_, i) =>
    player({ _id: new Types.ObjectId(), createdAt: new Date(now - (i % 300) * 86_400_000) }),
  );
  await insert(ordinary);

  const [farm, farmMs] = await timed(() => assessPlayer(referrer));
  process.stdout.write(`farm referrer: score ${farm!.score} (${farm!.level}) assessed in ${farmMs.toFixed(0)} ms\n`);

  const sample = ordinary.slice(0, 200);
  const [, sampleMs] = await timed(async () => {
    for (const one of sample) await assessPlayer(one._id as Types.ObjectId);
  });
  process.stdout.write(`ordinary player: ${(sampleMs / sample.length).toFixed(1)} ms each (mean of ${sample.length})\n`);

  await UserModel.updateMany({ _id: { $in: ordinary.slice(200, 400).map((one) => one._id) } }, { $set: { riskDueAt: new Date(now) } });
  const [assessed, sweepMs] = await timed(() => assessDuePlayers(new Date(now + 1), 200, 60_000));
  process.stdout.write(`one sweep pass: ${assessed} players marked due assessed in ${sweepMs.toFixed(0)} ms\n`);
});
