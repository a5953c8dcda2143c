import { createApp } from '../../app';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createPlayer, mineInFreshCoin, playerCaller } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { AppConfigModel } from '../config/appConfig.model';
import { AuditEntryModel } from '../audit/audit.model';
import { OperationModel } from '../ledger/operation.model';
import { StarOfferModel } from './shop.models';

const env = testEnv();
const app = createApp({ env, logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

// the mining coin's threshold is 1,000 (a coin's default); a session is 10 coins
beforeAll(async () => {
  await mineInFreshCoin();
});

async function two() {
  const [asker, checker] = await Promise.all([createOperator(['star-offers:write']), createOperator(['star-offers:write'])]);
  return { asker: consoleApi(app, asker.token), checker: consoleApi(app, checker.token) };
}

/** ×2 for 50 Stars: 100 Stars buy two sessions' extra, 20 coins, far under the threshold. */
const DOUBLE = { title: 'Double mining', kind: 'multiplier', stars: 50, multiplierPercent: 200 };
/** ×10 for 1 Star: 100 Stars buy 900 % of a session a hundred times over, 9,000 coins: above the threshold. */
const HUGE = { ...DOUBLE, stars: 1, multiplierPercent: 1000 };

const onSale = async (id: string) => (await playerCaller(await createPlayer(), { env }).shop.offers()).find((offer) => offer.id === id);

describe('a shop offer that lets Stars buy coins above the threshold waits for a second operator', () => {
  it('an offer within the brake is on sale at once; a new one above it is saved off sale until approved', async () => {
    const { asker, checker } = await two();
    const within = await asker.post('/star-offers', DOUBLE);
    expect([within.status, within.body.enabled, within.body.waitingChange]).toEqual([201, true, null]);
    // a streak freeze creates no coins: never braked, however cheap
    const freeze = await asker.post('/star-offers', { title: 'Freeze', kind: 'streakFreeze', stars: 1 });
    expect([freeze.body.enabled, freeze.body.waitingChange]).toEqual([true, null]);

    // an extra session for 1 Star: 100 Stars buy 100 sessions, 1,000 coins, the threshold itself (not above it)
    const session = await asker.post('/star-offers', { title: 'Extra', kind: 'extraSession', stars: 1 });
    expect([session.body.enabled, session.body.waitingChange]).toEqual([true, null]);

    // ×3 for 1 Star: 100 Stars buy 2,000 coins
    const created = await asker.post('/star-offers', { ...DOUBLE, title: 'Triple', stars: 1, multiplierPercent: 300 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      enabled: false,
      waitingChange: { set: { kind: 'multiplier', stars: 1, multiplierPercent: 300, enabled: true } },
    });
    expect(await onSale(created.body.id)).toBeUndefined();
    const id = String(created.body.id);
    const change = String(created.body.waitingChange.id);
    const own = await asker.post(`/star-offers/${id}/change/approve`, { id: change });
    expect([own.status, own.body.message]).toEqual([403, expect.stringMatching(/this shop offer: you asked for it$/)]);
    const approved = await checker.post(`/star-offers/${id}/change/approve`, { id: change });
    expect(approved.body).toMatchObject({ enabled: true, stars: 1, waitingChange: null });
    expect(await onSale(id)).toMatchObject({ kind: 'multiplier', stars: 1, multiplierPercent: 300 });
  });

  it('one operator cannot raise a live boost past the brake alone; a second operator’s approval applies it once', async () => {
    const { asker, checker } = await two();
    const created = await asker.post('/star-offers', { ...DOUBLE, order: 1 });
    const id = String(created.body.id);
    const raised = await asker.put(`/star-offers/${id}`, { ...HUGE, title: 'Tenfold mining', order: 2 });
    expect(raised.status).toBe(200);
    // the title and order apply; the boost and price stay live until decided
    expect(raised.body).toMatchObject({
      title: 'Tenfold mining',
      order: 2,
      stars: 50,
      multiplierPercent: 200,
      enabled: true,
      waitingChange: { set: { stars: 1, multiplierPercent: 1000 } },
    });
    expect(await onSale(id)).toMatchObject({ stars: 50, multiplierPercent: 200 });
    const change = String(raised.body.waitingChange.id);
    expect((await asker.post(`/star-offers/${id}/change/approve`, { id: change })).status).toBe(403);
    expect(await StarOfferModel.findById(id).lean()).toMatchObject({ stars: 50, multiplierPercent: 200 });

    const approved = await checker.post(`/star-offers/${id}/change/approve`, { id: change });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      stars: 1,
      multiplierPercent: 1000,
      waitingChange: null,
      lastChangeDecision: { status: 'approved' },
    });
    expect(await onSale(id)).toMatchObject({ stars: 1, multiplierPercent: 1000 });
    // twice is once: one decision, one audit; a decided change is not decided again
    expect((await checker.post(`/star-offers/${id}/change/approve`, { id: change })).status).toBe(200);
    expect(await OperationModel.countDocuments({ kind: 'change-decision', refId: id })).toBe(1);
    expect(await AuditEntryModel.countDocuments({ key: `change:star-offers:${change}` })).toBe(1);
    const late = await checker.post(`/star-offers/${id}/change/reject`, { id: change, rejectReason: 'late' });
    expect([late.status, late.body.code]).toEqual([409, 'CHANGE_DECIDED']);
  });

  it('a rejection leaves the offer as it was; a lower price alone is a raise, a smaller boost applies at once', async () => {
    const { asker, checker } = await two();
    const id = String((await asker.post('/star-offers', DOUBLE)).body.id);
    // the same ×2 for 1 Star: 100 Stars buy 10,000 % of a session, 1,000 coins... and one more percent is above
    const cheaper = await asker.put(`/star-offers/${id}`, { ...DOUBLE, stars: 1, multiplierPercent: 201 });
    expect(cheaper.body).toMatchObject({ stars: 50, waitingChange: { set: { stars: 1, multiplierPercent: 201 } } });
    const change = String(cheaper.body.waitingChange.id);
    const rejected = await checker.post(`/star-offers/${id}/change/reject`, { id: change, rejectReason: 'far too cheap' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({
      stars: 50,
      multiplierPercent: 200,
      waitingChange: null,
      lastChangeDecision: { status: 'rejected', reason: 'far too cheap' },
    });
    expect(await onSale(id)).toMatchObject({ stars: 50, multiplierPercent: 200 });
    expect((await checker.post(`/star-offers/${id}/change/approve`, { id: change })).status).toBe(409);

    // exactly at the threshold (1,000 coins for 100 Stars) is not above it: applies
    const at = await asker.put(`/star-offers/${id}`, { ...DOUBLE, stars: 1 });
    expect(at.body).toMatchObject({ stars: 1, waitingChange: null });
    // a raise that waits, then a smaller boost: the smaller one applies and drops what waited
    const waits = await asker.put(`/star-offers/${id}`, { ...HUGE });
    expect(waits.body.waitingChange).not.toBeNull();
    const smaller = await asker.put(`/star-offers/${id}`, { ...DOUBLE, stars: 80, multiplierPercent: 150 });
    expect(smaller.body).toMatchObject({ stars: 80, multiplierPercent: 150, waitingChange: null });
    expect((await checker.post(`/star-offers/${id}/change/approve`, { id: String(waits.body.waitingChange.id) })).status).toBe(409);
    expect(await StarOfferModel.findById(id).lean()).toMatchObject({ stars: 80, multiplierPercent: 150 });
  });

  it('switching an offer back on above the brake waits; while mining has no coin every coin-making raise waits', async () => {
    const { asker } = await two();
    const id = String((await asker.post('/star-offers', { ...HUGE, enabled: false })).body.id);
    const on = await asker.put(`/star-offers/${id}`, { ...HUGE, enabled: true });
    expect(on.body).toMatchObject({ enabled: false, waitingChange: { set: { enabled: true } } });

    await AppConfigModel.updateOne({ key: 'app' }, { $set: { miningCoin: null } });
    try {
      const unknown = await asker.post('/star-offers', DOUBLE);
      expect(unknown.body).toMatchObject({ enabled: false, waitingChange: { set: { enabled: true } } });
      expect((await asker.post('/star-offers', { title: 'Freeze', kind: 'streakFreeze', stars: 5 })).body.enabled).toBe(true);
    } finally {
      await mineInFreshCoin();
    }
  });
});
