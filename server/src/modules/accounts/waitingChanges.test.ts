import { createApp } from '../../app';
import { onFault } from '../../lib/faults';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createCoin, createPlayer, fund, playerCaller } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { AuditEntryModel } from '../audit/audit.model';
import { runJobsOnce } from '../../jobs';
import { GiftCoinModel } from '../coins/giftCoin.model';
import { StakingCoinModel } from '../staking/staking.models';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
afterEach(() => onFault(null));

async function two(permission: string) {
  const [asker, checker] = await Promise.all([createOperator([permission]), createOperator([permission])]);
  return { asker: consoleApi(app, asker.token), checker: consoleApi(app, checker.token), checkerId: checker.id };
}

const brakesOf = async (id: string) => {
  const coin = (await GiftCoinModel.findById(id))!.toJSON() as Record<string, unknown>;
  return [coin.giftApprovalAbove, coin.payoutApprovalAbove, coin.operatorDailyLimit];
};

/** A jetton coin whose brakes one operator (`asker`) asked to loosen to `brakes`: the change waits for a second one. */
async function looseningAsked(brakes: Record<string, string>) {
  const operators = await two('gift-coins:write');
  const coin = await createCoin({ network: 'jetton', withdrawEnabled: false });
  const id = String(coin._id);
  const asked = await operators.asker.put(`/gift-coins/${id}`, { name: coin.name, symbol: coin.symbol, network: 'jetton', ...brakes });
  return { ...operators, id, change: String(asked.body.waitingChange.id) };
}

describe("loosening a coin's brakes waits for a second operator", () => {
  it('switching a brake to never or raising it waits; tightening applies at once; only an independent operator approves', async () => {
    const { asker, checker } = await two('gift-coins:write');
    const coin = await createCoin({ network: 'jetton', withdrawEnabled: false });
    const id = String(coin._id);
    const body = { name: coin.name, symbol: coin.symbol, network: 'jetton' };
    const loosened = await asker.put(`/gift-coins/${id}`, {
      ...body,
      giftApprovalAbove: '0',
      operatorDailyLimit: '1000000',
      payoutApprovalAbove: '500',
    });
    expect(loosened.status).toBe(200);
    // the tighter payout threshold applied; the two looser brakes wait
    expect(await brakesOf(id)).toEqual(['1000', '500', '5000']);
    expect(loosened.body.waitingChange).toMatchObject({ set: { giftApprovalAbove: '0', operatorDailyLimit: '1000000' } });
    const change = String(loosened.body.waitingChange.id);

    // meanwhile a 50,000 gift by one operator still waits for a second one
    const giver = consoleApi(app, (await createOperator(['gifts:write'])).token);
    const player = await createPlayer();
    const gift = await giver.post(`/users/${String(player._id)}/adjustments`, {
      coin: id,
      amount: '50000',
      direction: 'credit',
      note: 'Thanks',
      idempotencyKey: `gift-${Date.now()}`,
    });
    expect(gift.body).toMatchObject({ pending: true, applied: false });

    const own = await asker.post(`/gift-coins/${id}/change/approve`, { id: change });
    expect(own.status).toBe(403);
    expect(own.body.message).toMatch(/this coin change: you asked for it$/);
    expect(await brakesOf(id)).toEqual(['1000', '500', '5000']);
    const approved = await checker.post(`/gift-coins/${id}/change/approve`, { id: change });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      giftApprovalAbove: '0',
      operatorDailyLimit: '1000000',
      payoutApprovalAbove: '500',
      waitingChange: null,
    });
    // twice is once: one audit, and a decided change is not decided again
    expect((await checker.post(`/gift-coins/${id}/change/approve`, { id: change })).status).toBe(200);
    expect(await AuditEntryModel.countDocuments({ key: `change:gift-coins:${change}` })).toBe(1);
    const again = await checker.post(`/gift-coins/${id}/change/reject`, { id: change, rejectReason: 'late' });
    expect([again.status, again.body.code]).toEqual([409, 'CHANGE_DECIDED']);
  });

  it('a rejected loosening leaves the brakes; malformed decisions answer 400 and change nothing', async () => {
    const { checker, id, change } = await looseningAsked({ payoutApprovalAbove: '0' });
    expect((await checker.post(`/gift-coins/${id}/change/approve`, { id: 'x' })).status).toBe(400);
    expect((await checker.post(`/gift-coins/not-an-id/change/approve`, { id: change })).status).toBe(400);
    expect((await checker.post(`/gift-coins/${id}/change/reject`, { id: change })).status).toBe(400);
    const rejected = await checker.post(`/gift-coins/${id}/change/reject`, { id: change, rejectReason: 'Keep payouts checked' });
    expect(rejected.body).toMatchObject({ payoutApprovalAbove: '1000', waitingChange: null, lastChangeDecision: { status: 'rejected' } });
    expect((await checker.post(`/gift-coins/${id}/change/approve`, { id: change })).status).toBe(409);
    expect(await brakesOf(id)).toEqual(['1000', '1000', '5000']);
  });

  it('a crash between the approval and its audit applies the change once; the sweep or a repeat writes the audit once', async () => {
    const { checker, checkerId, id, change } = await looseningAsked({ giftApprovalAbove: '2000' });
    // the engine's point after a decision's admit took and applied it (no postings), before its audit step
    onFault((point, kind) => {
      if (point === 'ledger:after-apply' && kind === 'change-decision') throw new Error('killed');
    });
    expect((await checker.post(`/gift-coins/${id}/change/approve`, { id: change })).status).toBe(500);
    onFault(null);
    expect(await brakesOf(id)).toEqual(['2000', '1000', '5000']);
    expect(await AuditEntryModel.countDocuments({ key: `change:gift-coins:${change}` })).toBe(0);
    // with nobody repeating it, the money recovery writes the audit, in the approver's name; a later repeat adds nothing
    await runJobsOnce(0);
    const audits = await AuditEntryModel.find({ key: `change:gift-coins:${change}` }).lean();
    expect(audits.map((a) => [a.account && String(a.account), a.note])).toEqual([[checkerId, `Approved change ${change}`]]);
    expect((await checker.post(`/gift-coins/${id}/change/approve`, { id: change })).status).toBe(200);
    expect(await AuditEntryModel.countDocuments({ key: `change:gift-coins:${change}` })).toBe(1);
  });
});

describe('a staking offer that lets one stake earn above the threshold waits for a second operator', () => {
  const offer = (coin: string, fields: Record<string, unknown> = {}) => ({
    coin,
    minAmount: '1',
    maxAmount: '100000',
    profits: { year: '1000' },
    ...fields,
  });

  it('an offer of 1,000 % a year is saved but not offered until approved; a colluding player cannot stake in it', async () => {
    const { asker, checker } = await two('staking-coins:write');
    const coin = await createCoin();
    const created = await asker.post('/staking-coins', offer(String(coin._id)));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      enabled: false,
      waitingChange: { set: { enabled: true, maxAmount: '100000', profits: { year: '1000' } } },
    });
    const player = await createPlayer();
    await fund(player._id, coin._id, '100');
    const stake = playerCaller(player).staking.stake({
      stakingCoinId: created.body.id,
      amount: '100',
      duration: 'year',
      idempotencyKey: 'collude-stake-1',
    });
    await expect(stake).rejects.toThrow();

    const id = String(created.body.id);
    const change = String(created.body.waitingChange.id);
    expect((await asker.post(`/staking-coins/${id}/change/approve`, { id: change })).status).toBe(403);
    const approved = await checker.post(`/staking-coins/${id}/change/approve`, { id: change });
    expect(approved.body).toMatchObject({ enabled: true, profits: { year: '1000' }, waitingChange: null });
  });

  it('raising a live offer’s percent keeps the live terms; lowering, or a top profit under the threshold, applies at once', async () => {
    const { asker } = await two('staking-coins:write');
    const coin = await createCoin();
    // 1,000 at 50 % is 500: offered at once
    const created = await asker.post('/staking-coins', offer(String(coin._id), { maxAmount: '1000', profits: { week: '1', year: '50' } }));
    expect(created.body).toMatchObject({ enabled: true, waitingChange: null });
    const id = String(created.body.id);
    const raised = await asker.put(
      `/staking-coins/${id}`,
      offer(String(coin._id), { maxAmount: '1000', profits: { week: '200', year: '50' }, order: 3 }),
    );
    expect(raised.body).toMatchObject({
      enabled: true,
      order: 3,
      profits: { week: '1', year: '50' },
      waitingChange: { set: { profits: { week: '200' } } },
    });
    // a larger maximum is a raise too
    const larger = await asker.put(
      `/staking-coins/${id}`,
      offer(String(coin._id), { maxAmount: '5000', profits: { week: '1', year: '50' } }),
    );
    expect(larger.body).toMatchObject({ maxAmount: '1000', waitingChange: { set: { maxAmount: '5000' } } });
    // lowering applies, and drops what waited
    const lowered = await asker.put(
      `/staking-coins/${id}`,
      offer(String(coin._id), { maxAmount: '1000', profits: { week: '1', year: '20' } }),
    );
    expect(lowered.body).toMatchObject({ profits: { year: '20' }, waitingChange: null });
    expect((await StakingCoinModel.findById(id).lean())!.profits?.year).toBe('20');
  });
});

describe("a coin's withdrawals and place on TON wait for a second operator", () => {
  it('a new coin asked with withdrawals on is saved without them; another jetton master or decimals for a held coin wait', async () => {
    const { asker, checker } = await two('gift-coins:write');
    const master = `0:${'b'.repeat(64)}`;
    const created = await asker.post('/gift-coins', {
      name: 'Points',
      symbol: `PTW${Date.now() % 10000}`,
      network: 'jetton',
      jettonMaster: master,
      withdrawEnabled: true,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ withdrawEnabled: false, jettonMaster: master, waitingChange: { set: { withdrawEnabled: true } } });
    const id = String(created.body.id);
    expect((await checker.post(`/gift-coins/${id}/change/approve`, { id: created.body.waitingChange.id })).body).toMatchObject({
      withdrawEnabled: true,
      waitingChange: null,
    });

    // pointing the coin at another jetton (one the hot wallet may hold more of), or scaling what a payout sends, waits
    const other = `0:${'c'.repeat(64)}`;
    const moved = await asker.put(`/gift-coins/${id}`, {
      name: 'Points',
      symbol: created.body.symbol,
      network: 'jetton',
      jettonMaster: other,
      decimals: 12,
      withdrawEnabled: true,
    });
    expect(moved.body).toMatchObject({ jettonMaster: master, decimals: 9, waitingChange: { set: { jettonMaster: other, decimals: 12 } } });
    // another coin takes that master meanwhile: the approval is refused with the reason, and nothing moves
    const taken = await asker.post('/gift-coins', {
      name: 'Squatter',
      symbol: `SQT${Date.now() % 10000}`,
      network: 'jetton',
      jettonMaster: other,
    });
    expect(taken.status).toBe(201);
    const refused = await checker.post(`/gift-coins/${id}/change/approve`, { id: moved.body.waitingChange.id });
    expect([refused.status, refused.body.errors]).toEqual([400, { jettonMaster: 'Squatter already has this jetton master' }]);
    expect(await GiftCoinModel.findById(id).lean()).toMatchObject({ jettonMaster: master, decimals: 9 });
    await asker.delete(`/gift-coins/${String(taken.body.id)}`);
    const approved = await checker.post(`/gift-coins/${id}/change/approve`, { id: moved.body.waitingChange.id });
    expect(approved.body).toMatchObject({ jettonMaster: other, decimals: 12, waitingChange: null });
    // the master is this coin's now: a new coin cannot take it
    const copy = await asker.post('/gift-coins', {
      name: 'Copy',
      symbol: `CPW${Date.now() % 10000}`,
      network: 'jetton',
      jettonMaster: other,
    });
    expect(copy.body.errors).toEqual({ jettonMaster: 'Points already has this jetton master' });
  });

  it('withdrawals asked for a jetton whose master was cleared since are refused at approval, with the reason', async () => {
    const { asker, checker } = await two('gift-coins:write');
    const symbol = `PTC${Date.now() % 10000}`;
    const master = `0:${'d'.repeat(64)}`;
    const created = await asker.post('/gift-coins', {
      name: 'Cleared',
      symbol,
      network: 'jetton',
      jettonMaster: master,
      withdrawEnabled: true,
    });
    const cleared = await asker.put(`/gift-coins/${String(created.body.id)}`, {
      name: 'Cleared',
      symbol,
      network: 'jetton',
      jettonMaster: '',
    });
    expect(cleared.body).toMatchObject({ jettonMaster: '', withdrawEnabled: false, waitingChange: { set: { withdrawEnabled: true } } });
    const refused = await checker.post(`/gift-coins/${String(created.body.id)}/change/approve`, { id: created.body.waitingChange.id });
    expect([refused.status, refused.body.errors]).toEqual([
      400,
      { jettonMaster: 'A jetton needs its master address before withdrawals can be enabled' },
    ]);
    expect(await GiftCoinModel.findById(created.body.id).lean()).toMatchObject({ withdrawEnabled: false, jettonMaster: '' });
  });
});
