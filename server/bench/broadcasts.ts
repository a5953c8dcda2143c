/**
 * `npm run bench:broadcasts [-- --players 50000 --send 1000]`: a broadcast to a segment of `players` players on the
 * embedded database (in a process of its own). Prints the time to count the segment (all, and narrowed), the time to
 * record the recipients, and, over the first `send` messages sent through the Bot API stand-in by the product's
 * broadcast sender, messages a second and the database writes per message sent.
 */
import { parseArgs } from 'node:util';
import { Types } from 'mongoose';
import mongoose from 'mongoose';
import { Api } from 'grammy';
import { BroadcastModel } from '../src/modules/broadcasts/broadcast.model';
import { BroadcastSender } from '../src/modules/broadcasts/broadcastSender.service';
import { createBroadcast, materialise, updateBroadcast } from '../src/modules/broadcasts/broadcasts.service';
import { countSegment } from '../src/modules/broadcasts/segments';
import { UserModel } from '../src/modules/users/user.model';
import { startBotApiStandIn } from '../test/botApiStandIn';
import { TEST_BOT_TOKEN, silentLogger } from '../test/helpers';
import { runOnFreshDatabase } from './loopback';

const WRITES = new Set(['insertOne', 'insertMany', 'updateOne', 'updateMany', 'findOneAndUpdate', 'bulkWrite', 'deleteOne', 'deleteMany']);

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await run();
  return [result, performance.now() - started];
}

runOnFreshDatabase('bench-broadcasts', async (database) => {
  const { values } = parseArgs({ options: { players: { type: 'string', default: '50000' }, send: { type: 'string', default: '1000' } } });
  const players = Number(values.players);
  const send = Math.min(Number(values.send), players);
  const standIn = await startBotApiStandIn(TEST_BOT_TOKEN);

  process.stdout.write(`preparing ${players} players who allow messages (${database.kind})…\n`);
  const DAY = 24 * 3600_000;
  const seedingStarted = performance.now();
  for (let from = 0; from < players; from += 1000) {
    await UserModel.insertMany(
      Array.from({ length: Math.min(1000, players - from) }, (_, k) => {
        const i = from + k;
        return {
          telegramId: 10_000_000 + i,
          name: `Player ${i}`,
          referralCode: `bench${i}`,
          language: i % 4 === 0 ? 'fa' : 'en',
          messagePermission: true,
          lastSeenAt: new Date(Date.now() - (i % 60) * DAY),
        };
      }),
    );
    if ((from + 1000) % 10_000 === 0)
      process.stdout.write(`  ${from + 1000} (${((performance.now() - seedingStarted) / 1000).toFixed(0)} s)\n`);
  }

  const [all, countAllMs] = await timed(() => countSegment({}));
  process.stdout.write(`segment count, everyone (${all} players): ${countAllMs.toFixed(0)} ms\n`);
  const [narrow, countNarrowMs] = await timed(() => countSegment({ language: 'fa', activeWithinDays: 30 }));
  process.stdout.write(`segment count, Persian and active in 30 days (${narrow} players): ${countNarrowMs.toFixed(0)} ms\n`);
  const operator = { id: String(new Types.ObjectId()), username: 'bench' };
  const draft = await createBroadcast(
    { text: 'Round two is open', fa: { text: '' }, imageUrl: '', button: null, segment: {}, scheduledAt: null },
    operator,
  );
  await updateBroadcast(String(draft._id), { status: 'sending' }, (field) => field === 'status', operator);
  const [audience, materialiseMs] = await timed(() => materialise(draft._id));
  process.stdout.write(
    `recipients recorded: ${audience} in ${(materialiseMs / 1000).toFixed(1)} s (${Math.round(audience / (materialiseMs / 1000))} a second)\n`,
  );

  // the writes of sending alone: counted from the first message to the `send`th
  const writes = new Map<string, number>();
  mongoose.set('debug', (collection: string, method: string) => {
    if (WRITES.has(method)) writes.set(`${collection}.${method}`, (writes.get(`${collection}.${method}`) ?? 0) + 1);
  });
  const sender = new BroadcastSender({
    api: () => new Api(TEST_BOT_TOKEN, { apiRoot: standIn.apiRoot }),
    links: { openAppUrl: () => Promise.resolve(undefined) },
    rate: 1000,
    sendingLeaseMs: 60_000,
    holder: 'bench',
    logger: silentLogger,
  });
  const started = performance.now();
  sender.start();
  while (standIn.sent.length < send) await new Promise((resolve) => setTimeout(resolve, 20));
  const seconds = (performance.now() - started) / 1000;
  await sender.stop();
  mongoose.set('debug', false);
  const sent = standIn.sent.length;
  await BroadcastModel.updateOne({ _id: draft._id }, { $set: { status: 'cancelled' } });

  const totalWrites = [...writes.values()].reduce((a, b) => a + b, 0);
  const per = (n: number) => (n / sent).toFixed(2);
  process.stdout.write(
    [
      `sent: ${sent} in ${seconds.toFixed(1)} s at a configured 1000 a second: ${Math.round(sent / seconds)} a second`,
      `database writes per message sent: ${per(totalWrites)} (${[...writes.entries()].map(([what, n]) => `${what} ${per(n)}`).join(', ')})`,
      '',
    ].join('\n'),
  );
  await standIn.close();
});
