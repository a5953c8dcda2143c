import { suggestedCoinBrakes, toMicros } from '@gift/shared';
import { Types } from 'mongoose';
import { createApp } from '../../app';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createCoin, createPlayer } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { balanceOf } from '../ledger/ledger.service';
import { ClawBackModel } from '../clawbacks/clawBack.model';
import { GiftApprovalModel } from '../gifts/giftApproval.model';
import { setPlayerStatus } from '../users/playerStatus.service';
import { applyBrakeDefaults, createdAloneSince } from './coinBrakes.service';
import { GiftCoinModel } from './giftCoin.model';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
let keys = 0;
const key = () => `brake-test-${++keys}-${Date.now()}`;

describe("every coin's brakes are on out of the box (finding 9)", () => {
  it('gives a fresh coin thresholds and a daily limit: from its price when known, else 1,000 / 1,000 / 5,000 coins', async () => {
    const api = consoleApi(app, (await createOperator(['gift-coins:write'])).token);
    const priced = await api.post('/gift-coins', { name: 'Toncoin braked', symbol: 'TONB', network: 'jetton', usdPrice: '3.25' });
    expect(priced.status).toBe(201);
    // about 250, 500 and 1,000 USD, rounded down to 1, 2 or 5 × 10ⁿ coins
    expect(priced.body).toMatchObject({ giftApprovalAbove: '50', payoutApprovalAbove: '100', operatorDailyLimit: '200' });
    const unpriced = await api.post('/gift-coins', { name: 'Points', symbol: 'PTSB', network: 'jetton' });
    expect(unpriced.body).toMatchObject({ giftApprovalAbove: '1000', payoutApprovalAbove: '1000', operatorDailyLimit: '5000' });
    // a coin written by any other path too (the demo seed, a script): the model fills what was left unset
    const inserted = await GiftCoinModel.create({ name: 'Raw', symbol: `R${Date.now() % 100000}` });
    expect(inserted.toJSON()).toMatchObject({ giftApprovalAbove: '1000', payoutApprovalAbove: '1000', operatorDailyLimit: '5000' });
    expect(suggestedCoinBrakes({ usdPrice: '0.05' })).toEqual({
      giftApprovalAbove: '5000',
      payoutApprovalAbove: '10000',
      operatorDailyLimit: '20000',
    });
  });

  it('a new coin typed with "never" (0) starts at the suggested brake, the 0 waiting; an edit that leaves a brake out keeps it', async () => {
    const api = consoleApi(app, (await createOperator(['gift-coins:write'])).token);
    const coin = await api.post('/gift-coins', { name: 'Never', symbol: 'NVRB', network: 'jetton', giftApprovalAbove: '0' });
    expect(coin.body).toMatchObject({
      giftApprovalAbove: '1000',
      payoutApprovalAbove: '1000',
      waitingChange: { set: { giftApprovalAbove: '0' } },
    });
    const {
      giftApprovalAbove: _g,
      payoutApprovalAbove: _p,
      operatorDailyLimit: _d,
      waitingChange: _w,
      ...rest
    } = coin.body as Record<string, unknown>;
    const edited = await api.put(`/gift-coins/${String(coin.body.id)}`, { ...rest, name: 'Never renamed' });
    expect(edited.body).toMatchObject({
      name: 'Never renamed',
      giftApprovalAbove: '1000',
      payoutApprovalAbove: '1000',
      operatorDailyLimit: '5000',
      waitingChange: { id: coin.body.waitingChange.id, set: { giftApprovalAbove: '0' } },
    });
  });

  it('gives coins saved before brakes existed the suggested ones at start, once, keeping a threshold they had', async () => {
    const old = new Types.ObjectId();
    const kept = new Types.ObjectId();
    // as stored by the previous version: 0 was every coin's default, and there was no daily limit
    await GiftCoinModel.collection.insertMany([
      { _id: old, name: 'Old', symbol: `OLD${keys}`, usdPrice: '3.25', giftApprovalAbove: 0, payoutApprovalAbove: 0 },
      { _id: kept, name: 'Kept', symbol: `KPT${keys}`, usdPrice: '', giftApprovalAbove: 7_000_000, payoutApprovalAbove: 0 },
    ]);
    expect(await applyBrakeDefaults()).toBeGreaterThanOrEqual(2);
    const read = async (id: Types.ObjectId) => (await GiftCoinModel.findById(id))!.toJSON();
    expect(await read(old)).toMatchObject({ giftApprovalAbove: '50', payoutApprovalAbove: '100', operatorDailyLimit: '200' });
    expect(await read(kept)).toMatchObject({ giftApprovalAbove: '7', payoutApprovalAbove: '1000', operatorDailyLimit: '5000' });
    // an operator's "never" since, and a second start: nothing changes
    await GiftCoinModel.updateOne({ _id: old }, { $set: { giftApprovalAbove: 0 } });
    expect(await applyBrakeDefaults()).toBe(0);
    expect((await read(old)).giftApprovalAbove).toBe('0');
  });
});

describe('gifts split to pass under the threshold (finding 7)', () => {
  it('ten gifts of 999 under a 1,000 threshold: the ones past the daily limit wait for a second operator', async () => {
    const operator = await createOperator(['gifts:write']);
    const api = consoleApi(app, operator.token);
    const player = await createPlayer();
    const coin = await createCoin({ giftApprovalAbove: '1000', operatorDailyLimit: '5000' });
    const answers = [];
    for (let i = 0; i < 10; i++)
      answers.push(
        await api.post(`/users/${String(player._id)}/adjustments`, {
          coin: String(coin._id),
          amount: '999',
          direction: 'credit',
          note: `Split ${i}`,
          idempotencyKey: key(),
        }),
      );
    // five fit 5,000 (4,995); the sixth would make 5,994
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201, 202, 202, 202, 202, 202]);
    expect(await balanceOf(player._id, coin._id)).toBe(toMicros('4995'));
    const waiting = await GiftApprovalModel.find({ user: player._id }).lean();
    expect(waiting.map((w) => [w.status, w.reason])).toEqual(Array.from({ length: 5 }, () => ['pending', 'daily-limit']));
    expect(await createdAloneSince(operator.id, coin._id, new Date())).toBe(toMicros('4995'));

    // a second operator approves one: it is given, and not counted as created alone by either
    const second = await createOperator(['gifts:write']);
    const approved = await consoleApi(app, second.token).post(`/gifts/${String(waiting[0]!._id)}/approve`);
    expect(approved.status).toBe(200);
    expect(await balanceOf(player._id, coin._id)).toBe(toMicros('5994'));
    expect(await createdAloneSince(second.id, coin._id, new Date())).toBe(0n);
  });

  it('counts twenty gifts at once by one operator against the limit: no more than it passes', async () => {
    const operator = await createOperator(['gifts:write']);
    const api = consoleApi(app, operator.token);
    const player = await createPlayer();
    const coin = await createCoin({ giftApprovalAbove: '1000', operatorDailyLimit: '3000' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        api.post(`/users/${String(player._id)}/adjustments`, {
          coin: String(coin._id),
          amount: '999',
          direction: 'credit',
          note: 'At once',
          idempotencyKey: key(),
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 202)).toHaveLength(17);
    expect(await balanceOf(player._id, coin._id)).toBe(toMicros('2997'));
  });
});

describe('a gift that waited, to a player banned or owing since (finding 10)', () => {
  async function waitingGift() {
    const [asker, approver] = await Promise.all([createOperator(['gifts:write']), createOperator(['gifts:write'])]);
    const player = await createPlayer();
    const coin = await createCoin({ giftApprovalAbove: '100' });
    const asked = await consoleApi(app, asker.token).post(`/users/${String(player._id)}/adjustments`, {
      coin: String(coin._id),
      amount: '50000',
      direction: 'credit',
      note: 'Prize',
      idempotencyKey: key(),
    });
    expect(asked.status).toBe(202);
    return { approver: consoleApi(app, approver.token), player, coin, approvalId: String(asked.body.approvalId) };
  }

  it('is refused on approval once the player is banned, and ends rejected with the reason', async () => {
    const { approver, player, coin, approvalId } = await waitingGift();
    await setPlayerStatus(player._id, { status: 'banned', statusReason: 'Farm' }, new Date());
    const refused = await approver.post(`/gifts/${approvalId}/approve`);
    expect([refused.status, refused.body.message]).toEqual([
      409,
      'The player was banned after this gift was asked for: the gift is rejected',
    ]);
    expect(await GiftApprovalModel.findById(approvalId).lean()).toMatchObject({
      status: 'rejected',
      rejectReason: 'The player was banned after this gift was asked for',
    });
    expect(await balanceOf(player._id, coin._id)).toBe(0n);
    expect(await LedgerEntryModel.countDocuments({ user: player._id })).toBe(0);
  });

  it('is refused on approval while the player owes a claw-back', async () => {
    const { approver, player, coin, approvalId } = await waitingGift();
    await ClawBackModel.create({
      user: player._id,
      coin: coin._id,
      entry: `taken-${key()}`,
      amount: Number(toMicros('30')),
      reason: 'Fake proof',
      createdBy: new Types.ObjectId(),
    });
    const refused = await approver.post(`/gifts/${approvalId}/approve`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/^The player owes a claw-back \(30 C[0-9A-F]+\): a gift is not given over a debt/);
    expect((await GiftApprovalModel.findById(approvalId).lean())!.status).toBe('rejected');
    expect(await balanceOf(player._id, coin._id)).toBe(0n);
  });
});
