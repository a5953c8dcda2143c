import { toMicros } from '@gift/shared';
import { createApp } from '../../app';
import { runJobsOnce } from '../../jobs';
import { startBotApiStandIn, STAND_IN_BOT, type BotApiStandIn } from '../../../test/botApiStandIn';
import { TEST_BOT_TOKEN, silentLogger, testEnv } from '../../../test/helpers';
import { createCoin, createPlayer, playerCaller } from '../../../test/factories';
import { AppConfigModel } from '../config/appConfig.model';
import { OperationModel } from '../ledger/operation.model';
import { MiningSessionModel } from '../mining/miningSession.model';
import type { UserDocument } from '../users/user.model';
import { createBot } from '../bot/bot.service';
import { StarOfferModel, StarPurchaseModel } from './shop.models';
import { reconcileStarPayments, UnmatchedStarPaymentModel, unmatchedId } from './starsReconcile.service';

let standIn: BotApiStandIn;
let env: ReturnType<typeof testEnv>;
let offerId = '';
const botInfo = { ...STAND_IN_BOT, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false } as never;
let updateId = 1;

beforeAll(async () => {
  standIn = await startBotApiStandIn(TEST_BOT_TOKEN);
  env = testEnv({ TELEGRAM_API_ROOT: standIn.apiRoot });
  createApp({ env, logger: silentLogger });
  const coin = await createCoin({ symbol: 'MINE' });
  await AppConfigModel.updateOne(
    { key: 'app' },
    { $set: { miningCoin: coin._id, earnAmount: Number(toMicros('1')), earnDurationHours: 8 } },
    { upsert: true },
  );
  offerId = String((await StarOfferModel.create({ title: 'Extra session', kind: 'extraSession', stars: 30 }))._id);
});
afterAll(() => standIn.close());

/** A pending purchase of the extra session: its id is the invoice's payload. */
async function invoice(player: UserDocument) {
  await playerCaller(player, { env }).shop.invoice({ offerId });
  return String(standIn.invoices.at(-1)!.payload);
}

/** Telegram's record of a player's payment, as getStarTransactions lists it. */
function paidAtTelegram(player: UserDocument, payload: string, chargeId: string) {
  standIn.starTransactions.push({
    id: chargeId,
    amount: 30,
    date: Math.floor(Date.now() / 1000),
    source: { type: 'user', user: { id: player.telegramId, is_bot: false, first_name: 'Test' }, invoice_payload: payload },
  });
}

/** The successful_payment update, delivered (late) to the bot. */
const successfulPayment = (player: UserDocument, payload: string, chargeId: string) =>
  createBot(TEST_BOT_TOKEN, { env, logger: silentLogger, botInfo }).handleUpdate({
    update_id: ++updateId,
    message: {
      message_id: updateId,
      date: Math.floor(Date.now() / 1000),
      chat: { id: player.telegramId, type: 'private' },
      from: { id: player.telegramId, is_bot: false, first_name: 'Test' },
      successful_payment: {
        currency: 'XTR',
        total_amount: 30,
        invoice_payload: payload,
        telegram_payment_charge_id: chargeId,
        provider_payment_charge_id: '',
      },
    },
  } as never);

/** What the player holds for this purchase: its state, its sessions, and the payment operations under the charge. */
async function granted(payload: string, chargeId: string) {
  const purchase = await StarPurchaseModel.findById(payload).lean();
  return {
    status: purchase?.status,
    chargeId: purchase?.chargeId,
    boost: purchase?.boost,
    sessions: await MiningSessionModel.countDocuments({ boostPurchase: purchase?._id }),
    operations: await OperationModel.countDocuments({ key: `stars:${chargeId}` }),
  };
}
const ONCE = { status: 'paid', boost: 'ready', sessions: 1, operations: 1 };

describe("reconciling with Telegram's record of Star payments", () => {
  it('grants once, by the registered job, a payment the bot never received; later passes grant nothing more', async () => {
    const player = await createPlayer();
    const payload = await invoice(player);
    paidAtTelegram(player, payload, 'charge-lost');
    expect(await granted(payload, 'charge-lost')).toMatchObject({ status: 'pending', sessions: 0, operations: 0 });

    const report = await runJobsOnce(0);
    expect(report).toMatchObject({ starPaymentsGranted: 1 });
    expect(await granted(payload, 'charge-lost')).toEqual({ ...ONCE, chargeId: 'charge-lost' });
    expect(await reconcileStarPayments(new Date())).toBe(0);
    // the update arriving at last finds it granted
    await successfulPayment(player, payload, 'charge-lost');
    expect(await granted(payload, 'charge-lost')).toEqual({ ...ONCE, chargeId: 'charge-lost' });
  });

  it('does not grant twice a payment the bot already granted', async () => {
    const player = await createPlayer();
    const payload = await invoice(player);
    await successfulPayment(player, payload, 'charge-received');
    paidAtTelegram(player, payload, 'charge-received');
    // another invoice still waits, so the job reads Telegram's list
    await invoice(player);
    expect(await reconcileStarPayments(new Date())).toBe(0);
    expect(await granted(payload, 'charge-received')).toEqual({ ...ONCE, chargeId: 'charge-received' });
  });

  it('gives one boost when the job and a late successful_payment race', async () => {
    const player = await createPlayer();
    const payload = await invoice(player);
    paidAtTelegram(player, payload, 'charge-raced');
    await Promise.all([reconcileStarPayments(new Date()), successfulPayment(player, payload, 'charge-raced')]);
    expect(await granted(payload, 'charge-raced')).toEqual({ ...ONCE, chargeId: 'charge-raced' });
  });

  it('keeps a payment whose payload names no purchase as unmatched, and grants nothing', async () => {
    const player = await createPlayer();
    await invoice(player);
    const purchases = await StarPurchaseModel.countDocuments({ status: 'paid' });
    paidAtTelegram(player, 'not-a-purchase', 'charge-stray');
    expect(await reconcileStarPayments(new Date())).toBe(0);
    expect(await UnmatchedStarPaymentModel.findById(unmatchedId('charge-stray')).lean()).toMatchObject({
      chargeId: 'charge-stray',
      amount: 30,
      userId: player.telegramId,
      payload: 'not-a-purchase',
      why: 'payload',
    });
    expect(await StarPurchaseModel.countDocuments({ status: 'paid' })).toBe(purchases);
    expect(await OperationModel.countDocuments({ key: 'stars:charge-stray' })).toBe(0);
  });
});
