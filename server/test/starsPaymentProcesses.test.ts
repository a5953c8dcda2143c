import { execFileSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import path from 'node:path';
import mongoose, { type Types } from 'mongoose';
import { toMicros } from '@gift/shared';
import { withDatabaseName } from '../src/db/connect';
import { webhookSecretToken } from '../src/modules/bot/bot.service';
import { AppConfigModel } from '../src/modules/config/appConfig.model';
import { LedgerEntryModel } from '../src/modules/ledger/ledger.models';
import { OperationModel } from '../src/modules/ledger/operation.model';
import { MiningSessionModel } from '../src/modules/mining/miningSession.model';
import { StarOfferModel, StarPurchaseModel } from '../src/modules/shop/shop.models';
import { UserModel } from '../src/modules/users/user.model';
import { startBotApiStandIn, type BotApiStandIn } from './botApiStandIn';
import { createCoin } from './factories';
import { TEST_BOT_TOKEN } from './helpers';
import { expectLedgerMatchesBalances } from './ledgerInvariant';
import { productProcessEnv, productsOf, waitUntil } from './productProcess';
import { tmaHeader } from './telegram';

/**
 * Telegram's successful_payment, delivered to the compiled product's webhook as Telegram repeats it: five times at once, and
 * again after a `kill -9` at the money engine's fault points of the `stars-payment` kind. Whatever the repeats and the crash,
 * the charge is one operation of the engine, one purchase the player sees, and one boost granted.
 *
 * Stars are not a coin of the app: the payment's operation IS its ledger entry, with no coin postings (nothing is owed in any
 * coin, so no balance line exists for it). The checks say so: the operation's postings are empty, and the only coins the player
 * ever gets from it are those of the extra mining session the boost grants, credited once when moved.
 */
jest.setTimeout(120_000);

const SERVER_DIR = path.resolve(__dirname, '..');
const BUILD = 'dist/stars-crash/index.js';
const OPERATOR = { username: 'stars-crash', password: 'a long operator password' };
/** What a mining session pays (App Config): an extra session granted by the shop pays it once moved. */
const EARN = '2.000003';

let telegram: BotApiStandIn;
let mongoUrl: string;
let products: ReturnType<typeof productsOf>;

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build.mjs', BUILD], { cwd: SERVER_DIR, stdio: 'pipe' });
  telegram = await startBotApiStandIn(TEST_BOT_TOKEN);
  mongoUrl = withDatabaseName(process.env.TEST_MONGO_URL!, mongoose.connection.name);
  // webhook mode (PUBLIC_URL), the bot's Bot API is the stand-in
  products = productsOf(BUILD, (points) =>
    productProcessEnv(mongoUrl, OPERATOR, { NODE_ENV: 'test', GIFT_FAULT_POINTS: points.join(','), TELEGRAM_API_ROOT: telegram.apiRoot }),
  );
  const coin = await createCoin({ symbol: 'MINE' });
  await AppConfigModel.updateOne(
    { key: 'app' },
    { $set: { miningCoin: coin._id, earnAmount: Number(toMicros(EARN)), earnDurationHours: 8 } },
    { upsert: true },
  );
}, 120_000);

afterAll(async () => {
  await products?.stopAll();
  await telegram?.close();
});

/** The webhook secret Telegram was given (setWebhook), derived as the product derives it. */
const SECRET = webhookSecretToken(TEST_BOT_TOKEN, productProcessEnv('', OPERATOR).JWT_SECRET!);

/** One delivery of an update to the webhook, as Telegram makes it: its status, or null when the process died under it. */
async function deliver(base: string, update: object, secret = SECRET): Promise<number | null> {
  try {
    const response = await fetch(`${base}/telegram/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
      body: JSON.stringify(update),
      signal: AbortSignal.timeout(30_000),
    });
    await response.text();
    return response.status;
  } catch {
    return null;
  }
}

/** The product's webhook takes updates once its bot is up: until then it answers 404; then a wrong secret gets 401. */
async function webhookReady(base: string) {
  await waitUntil(async () => (await deliver(base, { update_id: 1 }, 'not-the-secret')) === 401, 'the webhook to take updates');
}

/** A player's tRPC call over HTTP, signed as Telegram signs a launch: its status, data, and the app's error code if refused. */
async function answer(base: string, telegramId: number, procedure: string, input?: unknown) {
  const headers = { authorization: tmaHeader({ user: { id: telegramId, first_name: 'Payer', language_code: 'en' } }) };
  const response = await fetch(
    `${base}/trpc/${procedure}`,
    input === undefined && !procedure.startsWith('mining.')
      ? { headers }
      : { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ json: input ?? null }) },
  );
  const body = (await response.json()) as { result?: { data?: { json?: unknown } }; error?: { json?: { data?: { appCode?: string } } } };
  return { status: response.status, data: body.result?.data?.json, appCode: body.error?.json?.data?.appCode };
}

/** The data of a call that must succeed. */
async function call(base: string, telegramId: number, procedure: string, input?: unknown) {
  const answered = await answer(base, telegramId, procedure, input);
  expect({ procedure, status: answered.status }).toEqual({ procedure, status: 200 });
  return answered.data;
}

let updates = 1000;

interface Sale {
  telegramId: number;
  user: Types.ObjectId;
  purchaseId: string;
  chargeId: string;
  stars: number;
  kind: 'multiplier' | 'extraSession' | 'streakFreeze';
  /** The same update, as Telegram repeats it (one update_id, one charge). */
  payment: Record<string, unknown>;
}

/**
 * A player opens the app, buys an item in the shop (the bot makes the invoice at the stand-in), and Telegram asks the bot to
 * check it before payment (pre_checkout_query, answered ok): what Telegram then reports as paid.
 */
async function buy(base: string, kind: Sale['kind'], { polling = false } = {}): Promise<Sale> {
  const stars = 10 + randomInt(90);
  const offer = await StarOfferModel.create({
    title: `Boost ${randomBytes(3).toString('hex')}`,
    kind,
    stars,
    multiplierPercent: kind === 'multiplier' ? 150 : null,
  });
  const telegramId = 700_000_000 + randomInt(100_000_000);
  await call(base, telegramId, 'home.get');
  const user = (await UserModel.findOne({ telegramId }, { _id: 1 }).lean())!._id;
  const { invoiceLink } = (await call(base, telegramId, 'shop.invoice', { offerId: String(offer._id) })) as { invoiceLink: string };
  const invoice = telegram.invoices.find((sent) => sent.link === invoiceLink)!;
  expect(invoice).toMatchObject({ currency: 'XTR', prices: [{ amount: stars }] });
  const purchaseId = String(invoice.payload);
  const from = { id: telegramId, is_bot: false, first_name: 'Payer', language_code: 'en' };
  const queryId = `pcq-${randomBytes(4).toString('hex')}`;
  const query = {
    update_id: ++updates,
    pre_checkout_query: { id: queryId, from, currency: 'XTR', total_amount: stars, invoice_payload: purchaseId },
  };
  const answered = () => telegram.preCheckoutAnswers.some((answer) => answer.pre_checkout_query_id === queryId);
  if (polling) {
    telegram.pushUpdate(query);
    await waitUntil(async () => answered(), 'the polled pre-checkout query answered');
  } else expect(await deliver(base, query)).toBe(200);
  expect(telegram.preCheckoutAnswers.filter((answer) => answer.pre_checkout_query_id === queryId)).toEqual([
    { pre_checkout_query_id: queryId, ok: true },
  ]);
  const chargeId = `stxPROCESS${randomBytes(12).toString('hex')}`;
  const payment = {
    update_id: ++updates,
    message: {
      message_id: updates,
      date: Math.floor(Date.now() / 1000),
      chat: { id: telegramId, type: 'private', first_name: 'Payer' },
      from,
      successful_payment: {
        currency: 'XTR',
        total_amount: stars,
        invoice_payload: purchaseId,
        telegram_payment_charge_id: chargeId,
        provider_payment_charge_id: '',
      },
    },
  };
  return { telegramId, user, purchaseId, chargeId, stars, kind, payment };
}

/** Delivers the payment `times` times at once; the statuses, sorted (null: no answer). */
const deliverAtOnce = async (base: string, sale: Sale, times = 5) =>
  (await Promise.all(Array.from({ length: times }, () => deliver(base, sale.payment)))).sort();

/** The boosts the player holds, as the mining card and the streak read them: sessions waiting to move, freezes, multipliers. */
async function boostsOf(sale: Sale) {
  const [sessions, player, multipliers] = await Promise.all([
    MiningSessionModel.countDocuments({ user: sale.user, boostPurchase: { $ne: null } }),
    UserModel.findById(sale.user, { streakFreezes: 1 }).lean(),
    StarPurchaseModel.countDocuments({ user: sale.user, kind: 'multiplier', boost: 'ready' }),
  ]);
  return { sessions, streakFreezes: player?.streakFreezes ?? 0, multipliers };
}
const ONE_BOOST = {
  extraSession: { sessions: 1, streakFreezes: 0, multipliers: 0 },
  streakFreeze: { sessions: 0, streakFreezes: 1, multipliers: 0 },
  multiplier: { sessions: 0, streakFreezes: 0, multipliers: 1 },
};

/**
 * Exactly once: one operation of the engine for the charge (done, both steps, no coin postings), one purchase the player reads
 * (paid, its boost ready, carrying the charge id), one boost held; the player's balances equal their ledger lines. An extra
 * session is moved to the wallet by the player: its coins once, a second move finds nothing.
 */
async function expectGrantedOnce(base: string, sale: Sale) {
  const operations = await OperationModel.find({ kind: 'stars-payment', refId: sale.purchaseId }).lean();
  expect(operations.map((op) => ({ key: op.key, state: op.state, steps: op.steps, postings: op.postings }))).toEqual([
    { key: `stars:${sale.chargeId}`, state: 'done', steps: ['paid', 'grant'], postings: [] },
  ]);
  // the operation is the whole record of the payment in the ledger: no line in any coin
  expect(await LedgerEntryModel.countDocuments({ user: sale.user, refType: 'StarPurchase' })).toBe(0);
  const purchases = (await call(base, sale.telegramId, 'shop.purchases')) as Array<Record<string, unknown>>;
  expect(purchases.map((p) => [p.id, p.kind, p.stars, p.status, p.boost, p.telegram_payment_charge_id])).toEqual([
    [sale.purchaseId, sale.kind, sale.stars, 'paid', 'ready', sale.chargeId],
  ]);
  expect(await boostsOf(sale)).toEqual(ONE_BOOST[sale.kind]);
  if (sale.kind === 'extraSession') {
    expect(await call(base, sale.telegramId, 'mining.move')).toMatchObject({ count: 1, amounts: [{ amount: EARN }] });
    expect(await answer(base, sale.telegramId, 'mining.move')).toMatchObject({ status: 409, appCode: 'NOTHING_TO_MOVE' });
  }
  const balances = await expectLedgerMatchesBalances(sale.user);
  expect([...balances.values()]).toEqual(sale.kind === 'extraSession' ? [toMicros(EARN)] : []);
}

it('one successful_payment delivered five times at once to the webhook grants one boost: one operation, one purchase', async () => {
  const product = products.start();
  try {
    const base = await product.listening;
    await webhookReady(base);
    const sale = await buy(base, 'multiplier');
    expect(await deliverAtOnce(base, sale)).toEqual([200, 200, 200, 200, 200]);
    // and once more later, as Telegram may
    expect(await deliver(base, sale.payment)).toBe(200);
    await expectGrantedOnce(base, sale);
  } finally {
    await products.stop(product);
  }
});

it.each([
  // the payment recorded, nothing else: the purchase still pending, no boost
  ['ledger:after-record:stars-payment', 'streakFreeze', 'pending'],
  // the purchase marked paid, the boost not granted yet
  ['ledger:after-step:stars-payment', 'extraSession', 'paid'],
] as const)('killed at %s (a %s), the payment delivered again after the restart grants one boost', async (point, kind, status) => {
  const crashing = products.start([point]);
  const before = await crashing.listening;
  await webhookReady(before);
  const sale = await buy(before, kind);
  // Telegram delivers it: the process dies under it at the point, unanswered
  expect(await deliver(before, sale.payment)).toBeNull();
  await products.crashedAt(crashing, point);
  expect(await OperationModel.countDocuments({ key: `stars:${sale.chargeId}`, state: { $ne: 'done' } })).toBe(1);
  expect((await StarPurchaseModel.findById(sale.purchaseId).lean())?.status).toBe(status);
  expect(await boostsOf(sale)).toEqual({ sessions: 0, streakFreezes: 0, multipliers: 0 });

  // the restart: Telegram, told nothing, delivers it again, five times at once; the engine's sweep runs meanwhile
  const product = products.start();
  try {
    const base = await product.listening;
    await webhookReady(base);
    expect(await deliverAtOnce(base, sale)).toEqual([200, 200, 200, 200, 200]);
    await expectGrantedOnce(base, sale);
  } finally {
    await products.stop(product);
  }
});

it('by long polling: killed at ledger:after-step:stars-payment, the restart polls the unconfirmed payment again and grants once', async () => {
  // no PUBLIC_URL: the bot long-polls (getUpdates), and confirms an update only by asking for the ones after it
  // the sweep's grace far longer than the test: only the poller's delivery can finish the payment
  const polling = (points: string[] = []) => products.start(points, { PUBLIC_URL: undefined, SWEEP_GRACE_MS: '600000' });
  const crashing = polling(['ledger:after-step:stars-payment']);
  const sale = await buy(await crashing.listening, 'streakFreeze', { polling: true });
  telegram.pushUpdate(sale.payment);
  await products.crashedAt(crashing, 'ledger:after-step:stars-payment');
  expect((await StarPurchaseModel.findById(sale.purchaseId).lean())?.status).toBe('paid');
  expect(await boostsOf(sale)).toEqual({ sessions: 0, streakFreezes: 0, multipliers: 0 });

  // nothing is delivered again by the test: the restarted poller gets the update Telegram still holds, and grants it once
  const product = polling();
  try {
    const base = await product.listening;
    await waitUntil(async () => !!(await OperationModel.exists({ key: `stars:${sale.chargeId}`, state: 'done' })), 'the payment finished');
    await expectGrantedOnce(base, sale);
  } finally {
    await products.stop(product);
  }
});
