import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Types } from 'mongoose';
import mongoose from 'mongoose';
import { withDatabaseName } from '../src/db/connect';
import { BroadcastModel, BroadcastRecipientModel } from '../src/modules/broadcasts/broadcast.model';
import { INTERRUPTED } from '../src/modules/broadcasts/broadcastSender.service';
import { createBroadcast, resendUnknown, updateBroadcast } from '../src/modules/broadcasts/broadcasts.service';
import { UserModel } from '../src/modules/users/user.model';
import { startBotApiStandIn, type BotApiStandIn } from './botApiStandIn';
import { TEST_BOT_TOKEN } from './helpers';
import { productProcessEnv } from './productProcess';

/**
 * A broadcast across `kill -9` and instances: the compiled product sends to 600 players through the Bot API stand-in
 * (behind a proxy that makes each send take a while, so calls are in flight when a process dies), is killed
 * mid-broadcast, two instances restarted on the same database take over, one of them is killed too, and the survivor
 * finishes. Every player is counted once as sent, failed, blocked or unknown; unknown are exactly the sends in flight
 * at the kills; the stand-in's log shows nobody twice; then the operator's resend to the unknown ones sends them once.
 */
jest.setTimeout(240_000);

const SERVER_DIR = path.resolve(__dirname, '..');
const BUILD = 'dist/broadcast-crash/index.js';
const OPERATOR = { username: 'broadcast-crash', password: 'a long operator password' };
const AUDIENCE = 600;
/** How long a send takes at the proxy: before it reaches the stand-in (even chats) or after (odd chats). */
const LATENCY_MS = 150;

let standIn: BotApiStandIn;
let proxy: SlowProxy;
let mongoUrl: string;
const children = new Set<ChildProcess>();

/**
 * Telegram with a delay, in front of the stand-in. An even chat's send waits before it reaches Telegram and is dropped
 * if its sender dies meanwhile (never delivered); an odd chat's send is delivered at once and its answer waits (a
 * sender that dies then never hears it was delivered). Every send's arrival is logged.
 */
interface SlowProxy {
  apiRoot: string;
  arrivals: Array<{ chat: number; at: number }>;
  close: () => Promise<void>;
}

async function startSlowProxy(target: string): Promise<SlowProxy> {
  const arrivals: SlowProxy['arrivals'] = [];
  const delay = () => new Promise((resolve) => setTimeout(resolve, LATENCY_MS));
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let gone = false;
      res.on('close', () => {
        if (!res.writableFinished) gone = true;
      });
      const body = Buffer.concat(chunks);
      const send = /\/(sendMessage|sendPhoto)$/.test(req.url ?? '');
      const chat = send ? Number((JSON.parse(body.toString() || '{}') as { chat_id?: number }).chat_id) : 0;
      if (send) arrivals.push({ chat, at: Date.now() });
      void (async () => {
        if (send && chat % 2 === 0) {
          await delay();
          if (gone) return;
        }
        const answer = await fetch(`${target}${req.url ?? ''}`, {
          method: req.method,
          headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
          body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
        });
        const text = await answer.text();
        if (send && chat % 2 === 1) await delay();
        if (gone || res.destroyed) return;
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(text);
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiRoot: `http://127.0.0.1:${port}`,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build.mjs', BUILD], { cwd: SERVER_DIR, stdio: 'pipe' });
  standIn = await startBotApiStandIn(TEST_BOT_TOKEN);
  proxy = await startSlowProxy(standIn.apiRoot);
  mongoUrl = withDatabaseName(process.env.TEST_MONGO_URL!, mongoose.connection.name);
}, 60_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await proxy?.close();
  await standIn?.close();
});

/** The compiled product with the default leases (BROADCAST_LEASE_MS unset: the sender's own short, renewed lease). */
function startProduct() {
  const child = spawn(process.execPath, ['--enable-source-maps', BUILD], {
    cwd: SERVER_DIR,
    env: productProcessEnv(mongoUrl, OPERATOR, {
      NODE_ENV: 'test',
      TELEGRAM_API_ROOT: proxy.apiRoot,
      BROADCAST_RATE: '100',
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

/** Whether a lease (`host:pid:random#claim`) is one of this process's. */
const heldBy = (pid: number) => (leaseHolder: string) => leaseHolder.split(':')[1] === String(pid);

/** Kills an instance with SIGKILL; answers when, and the ids of the sends it had in flight (marked `sending`, unsettled). */
async function kill(instance: ReturnType<typeof startProduct>, broadcast: Types.ObjectId) {
  instance.child.kill('SIGKILL');
  expect(await instance.exited).toBe('SIGKILL');
  const at = Date.now();
  // read at once: its leases run for seconds yet, so nobody has settled them
  const sending = await BroadcastRecipientModel.find({ broadcast, status: 'sending' }, { leaseHolder: 1 }).lean();
  const inFlight = sending.filter((r) => heldBy(instance.child.pid!)(r.leaseHolder)).map((r) => String(r._id));
  return { at, inFlight };
}

/** Waits until nothing the dead process held is still held (its sends settled, its claims taken over); answers the seconds since `at`. */
async function takenOver(pid: number, broadcast: Types.ObjectId, at: number): Promise<number> {
  await waitFor(async () => {
    const open = await BroadcastRecipientModel.find(
      { broadcast, status: { $in: ['queued', 'sending'] }, leaseUntil: { $ne: null } },
      { leaseHolder: 1 },
    ).lean();
    return !open.some((r) => heldBy(pid)(r.leaseHolder));
  }, `the work of ${pid} to be taken over`);
  return (Date.now() - at) / 1000;
}

it('a broadcast killed mid-send twice counts every player once as sent or unknown, resumes within seconds, and resends the unknown ones once', async () => {
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
  const id = draft._id;
  await updateBroadcast(String(id), { status: 'sending' }, (field) => field === 'status', operator);

  // one instance, killed mid-broadcast; two restarted take over
  const crashed = startProduct();
  await waitFor(() => broadcastMessages().length >= 120, 'the broadcast to be under way');
  const firstKill = await kill(crashed, id);
  const atFirstKill = broadcastMessages().length;
  expect(atFirstKill).toBeLessThan(AUDIENCE);

  const restarted = [startProduct(), startProduct()];
  const [second, survivor] = restarted as [ReturnType<typeof startProduct>, ReturnType<typeof startProduct>];
  let afterSecondKill!: Awaited<ReturnType<typeof kill>>;
  const figures: Record<string, number> = {};
  try {
    figures.restartedTakeOverSeconds = await takenOver(crashed.child.pid!, id, firstKill.at);
    await waitFor(() => proxy.arrivals.some((a) => a.at > firstKill.at), 'a send after the first kill');
    figures.firstSendAfterRestartSeconds = (proxy.arrivals.find((a) => a.at > firstKill.at)!.at - firstKill.at) / 1000;

    // one of the two killed while both send; the survivor takes its work over
    await waitFor(() => broadcastMessages().length >= atFirstKill + 150, 'the restarted instances to send');
    afterSecondKill = await kill(second, id);
    figures.deliveredAtSecondKill = broadcastMessages().length;
    expect(figures.deliveredAtSecondKill).toBeLessThan(AUDIENCE);
    figures.survivorTakeOverSeconds = await takenOver(second.child.pid!, id, afterSecondKill.at);
    await waitFor(async () => (await BroadcastModel.findById(id).lean())?.status === 'done', 'the broadcast to finish');
    figures.finishedSecondsAfterSecondKill = (Date.now() - afterSecondKill.at) / 1000;
  } catch (error) {
    for (const instance of restarted) instance.child.kill('SIGTERM');
    throw error;
  }

  // measured and printed below; bounded only generously here (a lease of minutes, as before, would not finish at all)
  expect(figures.restartedTakeOverSeconds).toBeLessThan(30);
  expect(figures.survivorTakeOverSeconds).toBeLessThan(30);

  const chats = broadcastMessages().map((m) => m.chat_id);
  // each player at most once, whatever was in flight at the kills
  expect(new Set(chats).size).toBe(chats.length);
  const delivered = new Set(chats);
  const record = (await BroadcastModel.findById(id).lean())!;
  const recipients = await BroadcastRecipientModel.find({ broadcast: id }).lean();
  const counted = { sent: 0, failed: 0, blocked: 0, unknown: 0 } as Record<string, number>;
  for (const recipient of recipients) counted[recipient.status] = (counted[recipient.status] ?? 0) + 1;
  // every recipient counted exactly once, and the broadcast's figures say the same
  expect(recipients).toHaveLength(AUDIENCE);
  expect(counted.sent! + counted.failed! + counted.blocked! + counted.unknown!).toBe(AUDIENCE);
  expect(record).toMatchObject({ status: 'done', audience: AUDIENCE, ...counted });
  // unknown are exactly the sends in flight at the two kills, each with the reason; nothing failed or blocked here
  const inFlight = [...firstKill.inFlight, ...afterSecondKill.inFlight];
  const unknown = recipients.filter((r) => r.status === 'unknown');
  expect(unknown.map((r) => String(r._id)).sort()).toEqual([...inFlight].sort());
  expect(unknown.every((r) => r.outcome === INTERRUPTED)).toBe(true);
  expect(counted.failed).toBe(0);
  expect(counted.blocked).toBe(0);
  // what was delivered is sent or unknown, never failed; what is sent was delivered
  const sent = recipients.filter((r) => r.status === 'sent');
  expect(sent.every((r) => delivered.has(r.telegramId))).toBe(true);
  expect(recipients.filter((r) => delivered.has(r.telegramId)).every((r) => r.status === 'sent' || r.status === 'unknown')).toBe(true);
  const unknownDelivered = unknown.filter((r) => delivered.has(r.telegramId)).length;
  expect(chats.length).toBe(sent.length + unknownDelivered);
  // the stand-in in between made both happen: a send in flight at a kill may or may not have arrived
  expect(unknown.length).toBeGreaterThan(0);

  // the operator resends to the unknown ones: two presses at once requeue once; the survivor sends each once more
  const before = broadcastMessages().length;
  const presses = await Promise.allSettled([resendUnknown(String(id), operator), resendUnknown(String(id), operator)]);
  const accepted = presses.filter((p) => p.status === 'fulfilled');
  expect(accepted).toHaveLength(1);
  expect((accepted[0] as PromiseFulfilledResult<{ requeued: number }>).value.requeued).toBe(unknown.length);
  expect(presses.find((p) => p.status === 'rejected')).toMatchObject({ reason: { code: 'BROADCAST_STATE' } });
  try {
    await waitFor(async () => (await BroadcastModel.findById(id).lean())?.status === 'done', 'the resend to finish');
  } finally {
    survivor.child.kill('SIGTERM');
    await survivor.exited;
  }
  const resent = broadcastMessages()
    .slice(before)
    .map((m) => m.chat_id);
  expect(resent.sort()).toEqual(unknown.map((r) => r.telegramId).sort());
  expect(await BroadcastModel.findById(id).lean()).toMatchObject({ status: 'done', sent: AUDIENCE, failed: 0, blocked: 0, unknown: 0 });

  console.log(
    JSON.stringify({
      audience: AUDIENCE,
      deliveredAtFirstKill: atFirstKill,
      ...counted,
      inFlightAtKills: [firstKill.inFlight.length, afterSecondKill.inFlight.length],
      unknownDelivered,
      unknownNotDelivered: unknown.length - unknownDelivered,
      resent: resent.length,
      ...figures,
    }),
  );
});
