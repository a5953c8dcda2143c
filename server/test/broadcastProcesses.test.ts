import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Types } from 'mongoose';
import mongoose from 'mongoose';
import { withDatabaseName } from '../src/db/connect';
import { BroadcastModel, BroadcastRecipientModel } from '../src/modules/broadcasts/broadcast.model';
import { INTERRUPTED } from '../src/modules/broadcasts/broadcastSender.service';
import { createBroadcast, updateBroadcast } from '../src/modules/broadcasts/broadcasts.service';
import { UserModel } from '../src/modules/users/user.model';
import { startBotApiStandIn, type BotApiStandIn } from './botApiStandIn';
import { TEST_BOT_TOKEN } from './helpers';
import { productProcessEnv } from './productProcess';

/**
 * A broadcast across `kill -9` and instances: the compiled product sends to 400 players through the Bot API
 * stand-in, is killed mid-broadcast, and two instances started on the same database share the rest. The stand-in's
 * log shows each player at most once, and every player either got it or is recorded as interrupted mid-send.
 */
jest.setTimeout(180_000);

const SERVER_DIR = path.resolve(__dirname, '..');
const BUILD = 'dist/broadcast-crash/index.js';
const OPERATOR = { username: 'broadcast-crash', password: 'a long operator password' };
const AUDIENCE = 400;

let standIn: BotApiStandIn;
let mongoUrl: string;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build.mjs', BUILD], { cwd: SERVER_DIR, stdio: 'pipe' });
  standIn = await startBotApiStandIn(TEST_BOT_TOKEN);
  mongoUrl = withDatabaseName(process.env.TEST_MONGO_URL!, mongoose.connection.name);
}, 60_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await standIn?.close();
});

function startProduct() {
  const child = spawn(process.execPath, ['--enable-source-maps', BUILD], {
    cwd: SERVER_DIR,
    env: productProcessEnv(mongoUrl, OPERATOR, {
      NODE_ENV: 'test',
      TELEGRAM_API_ROOT: standIn.apiRoot,
      BROADCAST_RATE: '100',
      BROADCAST_LEASE_MS: '1500',
    }),
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  children.add(child);
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => {
      children.delete(child);
      resolve(signal);
    }),
  );
  return { child, exited };
}

async function waitFor(done: () => Promise<boolean> | boolean, what: string, seconds = 90) {
  for (let tries = 0; tries < seconds * 10; tries++) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

const broadcastMessages = () => standIn.sent.filter((m) => m.text === 'Round two is open');

it('a broadcast killed mid-send and finished by two instances reaches each player at most once, and every one is accounted for', async () => {
  const first = 7_000_000;
  await UserModel.insertMany(
    Array.from({ length: AUDIENCE }, (_, i) => ({
      telegramId: first + i,
      name: `P${i}`,
      referralCode: `crash${i}`,
      messagePermission: true,
    })),
  );
  const operator = { id: String(new Types.ObjectId()), username: 'crash' };
  const draft = await createBroadcast(
    { text: 'Round two is open', fa: { text: '' }, imageUrl: '', button: null, segment: {}, scheduledAt: null },
    operator,
  );
  await updateBroadcast(String(draft._id), { status: 'sending' }, (field) => field === 'status', operator);

  const crashed = startProduct();
  await waitFor(() => broadcastMessages().length >= 120, 'the broadcast to be under way');
  crashed.child.kill('SIGKILL');
  expect(await crashed.exited).toBe('SIGKILL');
  const atCrash = broadcastMessages().length;
  expect(atCrash).toBeLessThan(AUDIENCE);

  const instances = [startProduct(), startProduct()];
  try {
    await waitFor(async () => (await BroadcastModel.findById(draft._id).lean())?.status === 'done', 'the broadcast to finish');
  } finally {
    for (const instance of instances) instance.child.kill('SIGTERM');
    await Promise.all(instances.map((instance) => instance.exited));
  }

  const chats = broadcastMessages().map((m) => m.chat_id);
  // each player at most once, whatever was in flight at the kill
  expect(new Set(chats).size).toBe(chats.length);
  const record = (await BroadcastModel.findById(draft._id).lean())!;
  expect(record).toMatchObject({ status: 'done', audience: AUDIENCE, blocked: 0 });
  // every player is accounted for: sent, or caught mid-send by the kill (at most the ten calls an instance has open and the one
  // marked for its moment), which is failed and never sent again
  expect(record.sent + record.failed).toBe(AUDIENCE);
  expect(record.failed).toBeLessThanOrEqual(11);
  const sent = await BroadcastRecipientModel.find({ broadcast: draft._id, status: 'sent' }).lean();
  expect(sent.every((recipient) => chats.includes(recipient.telegramId))).toBe(true);
  const failed = await BroadcastRecipientModel.find({ broadcast: draft._id, status: 'failed' }).lean();
  expect(failed.every((f) => f.outcome === INTERRUPTED)).toBe(true);
  // a call already on its way when the process died may still have reached Telegram: that is what the failure says
  const arrivedAnyway = failed.filter((f) => chats.includes(f.telegramId)).length;
  expect(chats.length).toBe(record.sent + arrivedAnyway);
});
