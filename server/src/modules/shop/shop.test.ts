import { fromMicros, toMicros } from '@gift/shared';
import { createApp } from '../../app';
import { onFault } from '../../lib/faults';
import { startBotApiStandIn, STAND_IN_BOT, type BotApiStandIn } from '../../../test/botApiStandIn';
import { TEST_BOT_TOKEN, silentLogger, testEnv } from '../../../test/helpers';
import { createCoin, createPlayer, playerCaller } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { AppConfigModel } from '../config/appConfig.model';
import { OperationModel } from '../ledger/operation.model';
import { balanceOf, recoverPendingEntries } from '../ledger/ledger.service';
import { MiningSessionModel } from '../mining/miningSession.model';
import { AuditEntryModel } from '../audit/audit.model';
import { UserModel, type UserDocument } from '../users/user.model';
import { advanceStreak } from '../users/players.service';
import { setPlayerStatus } from '../users/playerStatus.service';
import request from 'supertest';
import { createBot, webhookSecretToken } from '../bot/bot.service';
import { BotRuntime } from '../bot/botRuntime';
import { StarOfferModel, StarPurchaseModel } from './shop.models';

let standIn: BotApiStandIn;
let env: ReturnType<typeof testEnv>;
let app: ReturnType<typeof createApp>;
let mineCoin: Awaited<ReturnType<typeof createCoin>>;
const botInfo = { ...STAND_IN_BOT, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false } as never;
let updateId = 1;
const handle = (update: Record<string, unknown>) =>
  createBot(TEST_BOT_TOKEN, { env, logger: silentLogger, botInfo }).handleUpdate({ update_id: ++updateId, ...update });

beforeAll(async () => {
  standIn = await startBotApiStandIn(TEST_BOT_TOKEN);
  env = testEnv({ TELEGRAM_API_ROOT: standIn.apiRoot });
  app = createApp({ env, logger: silentLogger });
  mineCoin = await createCoin({ symbol: 'MINE' });
  await AppConfigModel.updateOne(
    { key: 'app' },
    { $set: { miningCoin: mineCoin._id, earnAmount: Number(toMicros('1.000001')), earnDurationHours: 8 } },
    { upsert: true },
  );
});
afterAll(() => standIn.close());
afterEach(() => onFault(null));

const offer = (fields: Record<string, unknown>) =>
  StarOfferModel.create({
    title: 'Double mining',
    fa: { title: 'استخراج دوبرابر' },
    kind: 'multiplier',
    stars: 50,
    multiplierPercent: 150,
    ...fields,
  });

/** The player asks for an invoice; the purchase id is the invoice's payload. */
async function invoice(player: UserDocument, offerId: string) {
  const { invoiceLink } = await playerCaller(player, { env }).shop.invoice({ offerId });
  const sent = standIn.invoices.at(-1)!;
  expect(sent.link).toBe(invoiceLink);
  return String(sent.payload);
}

const from = (player: UserDocument) => ({ id: player.telegramId, is_bot: false, first_name: 'Test', language_code: 'en' });

async function preCheckout(player: UserDocument, payload: string, fields: Record<string, unknown> = {}) {
  const before = standIn.preCheckoutAnswers.length;
  const id = `q${updateId}`;
  await handle({ pre_checkout_query: { id, from: from(player), currency: 'XTR', total_amount: 50, invoice_payload: payload, ...fields } });
  expect(standIn.preCheckoutAnswers).toHaveLength(before + 1);
  return standIn.preCheckoutAnswers.at(-1)!;
}

const paymentUpdate = (player: UserDocument, payload: string, chargeId: string, stars = 50) => ({
  message: {
    message_id: updateId,
    date: Math.floor(Date.now() / 1000),
    chat: { id: player.telegramId, type: 'private' },
    from: from(player),
    successful_payment: {
      currency: 'XTR',
      total_amount: stars,
      invoice_payload: payload,
      telegram_payment_charge_id: chargeId,
      provider_payment_charge_id: '',
    },
  },
});
const pay = (player: UserDocument, payload: string, chargeId: string, stars = 50) =>
  handle(paymentUpdate(player, payload, chargeId, stars));

describe('the Stars shop', () => {
  it('makes a Stars invoice link for an item on sale, and none for an item off sale', async () => {
    const player = await createPlayer({ language: 'fa' });
    const item = await offer({ stars: 75 });
    const off = await offer({ enabled: false });
    const offers = await playerCaller(player, { env }).shop.offers();
    expect(offers.find((o) => o.id === item.id)).toMatchObject({ title: 'استخراج دوبرابر', stars: 75, multiplierPercent: 150 });
    expect(offers.some((o) => o.id === off.id)).toBe(false);

    const answer = await playerCaller(player, { env }).shop.invoice({ offerId: item.id });
    const sent = standIn.invoices.at(-1)!;
    expect(answer.invoiceLink).toMatch(/^https:\/\/t\.me\/\$/);
    expect(sent).toMatchObject({ currency: 'XTR', provider_token: '', prices: [{ label: 'استخراج دوبرابر', amount: 75 }] });
    expect(await StarPurchaseModel.findById(sent.payload).lean()).toMatchObject({ user: player._id, status: 'pending', stars: 75 });

    const invoices = standIn.invoices.length;
    await expect(playerCaller(player, { env }).shop.invoice({ offerId: off.id })).rejects.toMatchObject({
      cause: { code: 'OFFER_OFF_SALE' },
    });
    expect(standIn.invoices).toHaveLength(invoices);
    expect(await StarPurchaseModel.countDocuments({ offer: off._id })).toBe(0);
  });

  it('answers pre_checkout_query ok only for its own pending purchase at its price, of an item on sale, to a player in good standing', async () => {
    const [player, other] = await Promise.all([createPlayer(), createPlayer()]);
    const item = await offer({});
    const payload = await invoice(player, item.id);
    const refused = async (who: UserDocument, fields: Record<string, unknown>, message: string, on = payload) => {
      const answer = await preCheckout(who, on, fields);
      expect(answer).toEqual({ pre_checkout_query_id: expect.any(String), ok: false, error_message: message });
    };
    await refused(player, { invoice_payload: '000000000000000000000000' }, 'This purchase is not known. Open the shop and try again.');
    await refused(player, { invoice_payload: 'not-an-id' }, 'This purchase is not known. Open the shop and try again.');
    await refused(other, {}, 'This invoice was made for another player.');
    await refused(player, { total_amount: 49 }, 'The price has changed. Open the shop and try again.');
    await refused(player, { currency: 'USD' }, 'The price has changed. Open the shop and try again.');
    await StarOfferModel.updateOne({ _id: item._id }, { $set: { stars: 60 } });
    await refused(player, {}, 'The price has changed. Open the shop and try again.');
    await StarOfferModel.updateOne({ _id: item._id }, { $set: { stars: 50, enabled: false } });
    await refused(player, {}, 'This item is not on sale any more.');
    await StarOfferModel.updateOne({ _id: item._id }, { $set: { enabled: true } });
    await setPlayerStatus(player._id, { status: 'frozen', statusReason: 'Checking' }, new Date());
    await refused(player, {}, 'Your account is frozen or blocked: purchases are closed.');
    await setPlayerStatus(player._id, { status: 'active', statusReason: '' }, new Date());
    await AppConfigModel.updateOne({ key: 'app' }, { $set: { earnAmount: 0 } });
    await refused(player, {}, 'Mining is not available right now, so this boost cannot be used.');
    await AppConfigModel.updateOne({ key: 'app' }, { $set: { earnAmount: Number(toMicros('1.000001')) } });
    // a Persian payer reads it in Persian
    await handle({
      pre_checkout_query: {
        id: 'fa',
        from: { ...from(other), language_code: 'fa' },
        currency: 'XTR',
        total_amount: 50,
        invoice_payload: payload,
      },
    });
    expect(standIn.preCheckoutAnswers.at(-1)!.error_message).toBe('این صورت‌حساب برای بازیکن دیگری ساخته شده است.');
    // every refusal changed nothing
    expect(await StarPurchaseModel.findById(payload).lean()).toMatchObject({ status: 'pending', boost: 'none', chargeId: null });

    expect(await preCheckout(player, payload)).toEqual({ pre_checkout_query_id: expect.any(String), ok: true });
    await pay(player, payload, 'charge-pc-1');
    await refused(player, {}, 'This invoice was already paid or closed. Open the shop and buy again.');
  });

  it('grants once per charge however often and at once Telegram repeats successful_payment: one boost, one operation', async () => {
    const player = await createPlayer();
    const [multiplier, extra, freeze] = await Promise.all([
      offer({}),
      offer({ kind: 'extraSession', multiplierPercent: null, stars: 30 }),
      offer({ kind: 'streakFreeze', multiplierPercent: null, stars: 20 }),
    ]);
    const payloads = [await invoice(player, multiplier.id), await invoice(player, extra.id), await invoice(player, freeze.id)];
    const stars = [50, 30, 20];
    for (const [i, payload] of payloads.entries()) {
      const deliveries = Array.from({ length: 20 }, () => pay(player, payload, `charge-many-${i}`, stars[i]));
      await Promise.all(deliveries);
      await pay(player, payload, `charge-many-${i}`, stars[i]);
    }
    expect(await OperationModel.countDocuments({ key: /^stars:charge-many-/ })).toBe(3);
    expect(await OperationModel.countDocuments({ key: /^stars:charge-many-/, state: 'done' })).toBe(3);
    // the player as their next call reads them
    expect(await playerCaller(await UserModel.findById(player._id)).shop.boosts()).toEqual({ multipliers: [150], streakFreezes: 1 });
    expect(await MiningSessionModel.countDocuments({ user: player._id })).toBe(1);
    const purchases = await playerCaller(player).shop.purchases();
    expect(purchases.map((p) => [p.kind, p.status, p.boost, p.telegram_payment_charge_id]).sort()).toEqual([
      ['extraSession', 'paid', 'ready', 'charge-many-1'],
      ['multiplier', 'paid', 'ready', 'charge-many-0'],
      ['streakFreeze', 'paid', 'ready', 'charge-many-2'],
    ]);
    // the extra session waits to move with the App Config's amount: moved once
    expect(await playerCaller(player).mining.move()).toMatchObject({ count: 1, amounts: [{ amount: '1.000001' }] });
    expect(fromMicros(await balanceOf(player._id, mineCoin._id))).toBe('1.000001');
  });

  it.each([
    ['ledger:after-record', 1, 'recorded'],
    ['ledger:after-step', 1, 'posted'],
    // the last step's record marks the operation done: a crash after it leaves nothing for the sweep
    ['ledger:after-step', 2, 'done'],
  ])('finishes a payment cut off at %s (#%i, left %s) by the sweep, granting once', async (point, nth, left) => {
    const player = await createPlayer();
    const item = await offer({ kind: 'streakFreeze', multiplierPercent: null, stars: 50 });
    const payload = await invoice(player, item.id);
    const charge = `charge-crash-${point}-${nth}`;
    let reached = 0;
    onFault((at) => {
      if (at === point && ++reached === nth) throw new Error(`crash at ${at}`);
    });
    await expect(pay(player, payload, charge)).rejects.toThrow('crash');
    onFault(null);
    const cut = await OperationModel.findOne({ key: `stars:${charge}` }).lean();
    expect(cut?.state).toBe(left);
    expect(await recoverPendingEntries(0)).toBeGreaterThanOrEqual(left === 'done' ? 0 : 1);
    expect(await OperationModel.findOne({ key: `stars:${charge}` }).lean()).toMatchObject({ state: 'done', steps: ['paid', 'grant'] });
    // Telegram delivers it again after the crash: nothing more
    await pay(player, payload, charge);
    expect((await UserModel.findById(player._id).lean())!.streakFreezes).toBe(1);
    expect(await StarPurchaseModel.findById(payload).lean()).toMatchObject({ status: 'paid', boost: 'ready', chargeId: charge });
  });

  it('starts the next mining session with the multiplier, crediting exactly the multiplied micro-units, once', async () => {
    const player = await createPlayer();
    const item = await offer({ multiplierPercent: 150 });
    await pay(player, await invoice(player, item.id), 'charge-mine-1');
    const start = new Date('2030-01-01T00:00:00Z');
    const at = (hours: number) => playerCaller(player, { now: () => new Date(start.getTime() + hours * 3_600_000) });
    // 1.000001 × 150% = 1.5000015, rounded down to the micro-unit
    expect(await at(0).mining.start()).toMatchObject({ amount: '1.500001', multiplierPercent: 150 });
    expect(await playerCaller(player).shop.boosts()).toEqual({ multipliers: [], streakFreezes: 0 });
    await at(9).mining.move();
    expect(await balanceOf(player._id, mineCoin._id)).toBe(1_500_001n);
    // the next session is plain
    expect(await at(9).mining.start()).toMatchObject({ amount: '1.000001', multiplierPercent: null });
    await at(18).mining.move();
    expect(await balanceOf(player._id, mineCoin._id)).toBe(2_500_002n);
  });

  it('keeps a streak across one missed day with a freeze, once', async () => {
    const player = await createPlayer({ streak: { days: 5, startDay: '2030-02-01', lastDay: '2030-02-05' } });
    const item = await offer({ kind: 'streakFreeze', multiplierPercent: null });
    await pay(player, await invoice(player, item.id), 'charge-freeze-1');
    // 2030-02-06 missed; ten deliveries of the 7th's daily mission at once spend one freeze and count one day
    const streaks = await Promise.all(Array.from({ length: 10 }, () => advanceStreak(player._id, '2030-02-07', '2030-02-06')));
    expect(streaks.at(-1)).toEqual({ days: 6, startDay: '2030-02-01', lastDay: '2030-02-07' });
    expect((await UserModel.findById(player._id).lean())!.streakFreezes).toBe(0);
    // another day missed, no freeze left: a new streak
    expect(await advanceStreak(player._id, '2030-02-09', '2030-02-08')).toEqual({ days: 1, startDay: '2030-02-09', lastDay: '2030-02-09' });
  });

  describe('in the console', () => {
    it('refunds a payment once through refundStarPayment, takes the unused boost back, audits it, and counts the revenue', async () => {
      const [{ token }, reader] = await Promise.all([createOperator(['star-purchases:write']), createOperator(['star-purchases:read'])]);
      const api = consoleApi(app, token);
      const player = await createPlayer();
      const item = await offer({});
      const payload = await invoice(player, item.id);
      await pay(player, payload, 'charge-refund-1');
      const before = (await api.get('/star-purchases/revenue')).body as { stars: number; refundedStars: number };

      const listed = await api.get('/star-purchases', { filter: { user: String(player._id) } });
      expect(listed.body).toEqual([
        expect.objectContaining({ id: payload, chargeId: 'charge-refund-1', status: 'paid', stars: 50, userName: player.name }),
      ]);
      expect((await consoleApi(app, reader.token).post(`/star-purchases/${payload}/refund`)).status).toBe(403);

      const refunded = await api.post(`/star-purchases/${payload}/refund`);
      expect(refunded.status).toBe(200);
      expect(refunded.body).toMatchObject({ status: 'refunded', boost: 'revoked' });
      expect(standIn.refunds.filter((r) => r.telegram_payment_charge_id === 'charge-refund-1')).toEqual([
        { user_id: player.telegramId, telegram_payment_charge_id: 'charge-refund-1' },
      ]);
      expect(await playerCaller(player).shop.boosts()).toEqual({ multipliers: [], streakFreezes: 0 });
      const again = await api.post(`/star-purchases/${payload}/refund`);
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('PURCHASE_NOT_REFUNDABLE');
      expect(standIn.refunds.filter((r) => r.telegram_payment_charge_id === 'charge-refund-1')).toHaveLength(1);
      expect(await AuditEntryModel.countDocuments({ resource: 'star-purchases', record: payload })).toBe(1);
      const after = (await api.get('/star-purchases/revenue')).body as { stars: number; refundedStars: number };
      expect(after.stars).toBe(before.stars - 50);
      expect(after.refundedStars).toBe(before.refundedStars + 50);
      // the next session is plain: the multiplier is gone
      expect(await playerCaller(player).mining.start()).toMatchObject({ multiplierPercent: null });
    });

    it('keeps a used boost used on refund, removes an unmoved extra session and an unspent freeze, and refuses what Telegram refuses', async () => {
      const { token } = await createOperator(['*']);
      const api = consoleApi(app, token);
      const player = await createPlayer();
      const [multiplier, extra, freeze] = await Promise.all([
        offer({}),
        offer({ kind: 'extraSession', multiplierPercent: null }),
        offer({ kind: 'streakFreeze', multiplierPercent: null }),
      ]);
      const used = await invoice(player, multiplier.id);
      await pay(player, used, 'charge-used-1');
      await playerCaller(player).mining.start();
      expect((await api.post(`/star-purchases/${used}/refund`)).body).toMatchObject({ status: 'refunded', boost: 'used' });
      expect(await MiningSessionModel.findOne({ user: player._id }).lean()).toMatchObject({ amount: 1_500_001 });

      const session = await invoice(player, extra.id);
      await pay(player, session, 'charge-extra-1');
      expect(await MiningSessionModel.countDocuments({ boostPurchase: session })).toBe(1);
      expect((await api.post(`/star-purchases/${session}/refund`)).body).toMatchObject({ status: 'refunded', boost: 'revoked' });
      expect(await MiningSessionModel.countDocuments({ boostPurchase: session })).toBe(0);

      const frozen = await invoice(player, freeze.id);
      await pay(player, frozen, 'charge-freeze-r');
      standIn.failNext.set('refundStarPayment', { status: 400, description: 'Bad Request: CHARGE_NOT_FOUND' });
      const failed = await api.post(`/star-purchases/${frozen}/refund`);
      expect(failed.status).toBe(502);
      expect(failed.body.message).toBe('Telegram refused the refund: Bad Request: CHARGE_NOT_FOUND');
      expect((await UserModel.findById(player._id).lean())!.streakFreezes).toBe(1);
      expect((await api.post(`/star-purchases/${frozen}/refund`)).body).toMatchObject({ status: 'refunded', boost: 'revoked' });
      expect((await UserModel.findById(player._id).lean())!.streakFreezes).toBe(0);
    });

    // found by the crash test: the refund's audit was written after its operation, by the call alone, and Telegram was asked
    // before the operation was recorded, so a call cut off never repeated left a refund unaudited, or Stars returned with the boost kept
    it.each(['ledger:after-record', 'ledger:after-step'])(
      'finishes a refund cut off at %s by the sweep alone: Stars returned once, the boost taken back, audited once',
      async (point) => {
        const { token } = await createOperator(['*']);
        const player = await createPlayer();
        const item = await offer({ kind: 'streakFreeze', multiplierPercent: null });
        const payload = await invoice(player, item.id);
        const charge = `charge-refund-cut-${point}`;
        await pay(player, payload, charge);
        onFault((at, kind) => {
          if (at === point && kind === 'stars-refund') throw new Error(`crash at ${at}`);
        });
        expect((await consoleApi(app, token).post(`/star-purchases/${payload}/refund`)).status).toBe(500);
        onFault(null);
        // nobody repeats it: the sweep finishes it
        expect(await recoverPendingEntries(0)).toBeGreaterThanOrEqual(1);
        expect(await OperationModel.findOne({ key: `stars-refund:${charge}` }).lean()).toMatchObject({
          state: 'done',
          steps: ['take-back', 'audit'],
        });
        expect(standIn.refunds.filter((r) => r.telegram_payment_charge_id === charge)).toHaveLength(1);
        expect(await StarPurchaseModel.findById(payload).lean()).toMatchObject({ status: 'refunded', boost: 'revoked' });
        expect((await UserModel.findById(player._id).lean())!.streakFreezes).toBe(0);
        expect(await AuditEntryModel.countDocuments({ resource: 'star-purchases', record: payload })).toBe(1);
      },
    );

    it('lets operators set items in whole Stars, with a multiplier percent for a multiplier', async () => {
      const { token } = await createOperator(['star-offers:write']);
      const api = consoleApi(app, token);
      const bad = await api.post('/star-offers', { title: 'Boost', kind: 'multiplier', stars: 1.5 });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual({ stars: 'Whole Stars only' });
      const noPercent = await api.post('/star-offers', { title: 'Boost', kind: 'multiplier', stars: 5 });
      expect(noPercent.body.errors).toEqual({ multiplierPercent: 'A multiplier needs its percent, like 200 for ×2' });
      expect(await StarOfferModel.countDocuments({ title: 'Boost' })).toBe(0);
      const made = await api.post('/star-offers', { title: 'Boost', kind: 'multiplier', stars: 25, multiplierPercent: 200 });
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({ title: 'Boost', stars: 25, multiplierPercent: 200, enabled: true });
      expect((await api.delete(`/star-offers/${made.body.id}`)).status).toBe(405);
    });
  });

  describe('delivered by long polling and by webhook', () => {
    async function eventually(condition: () => Promise<boolean> | boolean, what: string) {
      for (let i = 0; i < 200; i++) {
        if (await condition()) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`never happened: ${what}`);
    }

    it('asks Telegram for pre-checkout queries when polling, answers one, grants once, and polls a payment not recorded again', async () => {
      const player = await createPlayer();
      const payload = await invoice(player, (await offer({ kind: 'streakFreeze', multiplierPercent: null })).id);
      const runtime = new BotRuntime({ env, logger: silentLogger, holder: 'shop-poller' });
      await runtime.start();
      try {
        const polls = () => standIn.calls.filter((c) => c.method === 'getUpdates');
        await eventually(() => polls().length > 0, 'the first poll');
        expect(polls().at(-1)!.params.allowed_updates).toEqual(['message', 'pre_checkout_query']);
        standIn.pushUpdate({
          pre_checkout_query: { id: 'polled', from: from(player), currency: 'XTR', total_amount: 50, invoice_payload: payload },
        });
        await eventually(() => standIn.preCheckoutAnswers.some((a) => a.pre_checkout_query_id === 'polled' && a.ok), 'the polled answer');
        for (let i = 0; i < 3; i++) standIn.pushUpdate(paymentUpdate(player, payload, 'charge-polled'));
        await eventually(async () => (await StarPurchaseModel.findById(payload).lean())?.boost === 'ready', 'the polled grant');
        expect((await UserModel.findById(player._id).lean())!.streakFreezes).toBe(1);

        // the database fails as the next payment is polled: the poll does not move past it, and polls it again once recorded
        const second = await invoice(player, (await offer({ kind: 'extraSession', multiplierPercent: null })).id);
        const failing = jest.spyOn(OperationModel, 'findOneAndUpdate').mockRejectedValueOnce(new Error('connection reset'));
        standIn.pushUpdate(paymentUpdate(player, second, 'charge-polled-unrecorded'));
        await eventually(() => failing.mock.calls.length > 0, 'the failed record');
        failing.mockRestore();
        await eventually(async () => (await StarPurchaseModel.findById(second).lean())?.boost === 'ready', 'the payment polled again');
      } finally {
        await runtime.stop();
      }
      expect(await OperationModel.countDocuments({ key: 'stars:charge-polled-unrecorded' })).toBe(1);
      expect(await MiningSessionModel.countDocuments({ user: player._id })).toBe(1);
    });

    it('registers its webhook for pre-checkout queries, and five parallel webhook deliveries of a payment grant once', async () => {
      const webhookEnv = testEnv({ TELEGRAM_API_ROOT: standIn.apiRoot, PUBLIC_URL: 'https://rewards.example.com' });
      const runtime = new BotRuntime({ env: webhookEnv, logger: silentLogger, holder: 'shop-webhook' });
      await runtime.start();
      try {
        expect(standIn.calls.filter((c) => c.method === 'setWebhook').at(-1)!.params.allowed_updates).toEqual([
          'message',
          'pre_checkout_query',
        ]);
        const hook = createApp({
          env: webhookEnv,
          logger: silentLogger,
          bot: runtime,
          clientDist: '/nonexistent',
          adminDist: '/nonexistent',
        });
        const post = (update: Record<string, unknown>) =>
          request(hook)
            .post('/telegram/webhook')
            .set('X-Telegram-Bot-Api-Secret-Token', webhookSecretToken(TEST_BOT_TOKEN, webhookEnv.JWT_SECRET))
            .send({ update_id: ++updateId, ...update });
        const player = await createPlayer();
        const payload = await invoice(player, (await offer({ kind: 'extraSession', multiplierPercent: null })).id);
        await post({
          pre_checkout_query: { id: 'hooked', from: from(player), currency: 'XTR', total_amount: 50, invoice_payload: payload },
        }).expect(200);
        expect(standIn.preCheckoutAnswers.at(-1)).toEqual({ pre_checkout_query_id: 'hooked', ok: true });
        await Promise.all(Array.from({ length: 5 }, () => post(paymentUpdate(player, payload, 'charge-hooked')).expect(200)));
        expect(await MiningSessionModel.countDocuments({ user: player._id })).toBe(1);
        expect(await OperationModel.countDocuments({ key: 'stars:charge-hooked' })).toBe(1);

        // the database fails as the next payment arrives: answered 500, so Telegram delivers it again, and it is granted once
        const second = await invoice(player, (await offer({ kind: 'streakFreeze', multiplierPercent: null })).id);
        const failing = jest.spyOn(OperationModel, 'findOneAndUpdate').mockRejectedValueOnce(new Error('connection reset'));
        await post(paymentUpdate(player, second, 'charge-unrecorded')).expect(500);
        failing.mockRestore();
        expect(await OperationModel.countDocuments({ key: 'stars:charge-unrecorded' })).toBe(0);
        await post(paymentUpdate(player, second, 'charge-unrecorded')).expect(200);
        expect((await UserModel.findById(player._id).lean())!.streakFreezes).toBe(1);
        // a payment refused for good (an invoice payload that names nothing) is answered 200: a redelivery would fail again
        await post(paymentUpdate(player, 'not-a-purchase', 'charge-unknown')).expect(200);
      } finally {
        await runtime.stop();
      }
    });
  });
});
