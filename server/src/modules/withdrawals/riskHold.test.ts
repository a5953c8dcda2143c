import { createApp } from '../../app';
import { createCoin, createManualMission, createPlayer, withdrawalOf } from '../../../test/factories';
import { silentLogger, testEnv } from '../../../test/helpers';
import { consoleApi, createOperator } from '../../../test/operators';
import { useTonTestChain } from '../../../test/tonChain';
import { AppConfigModel } from '../config/appConfig.model';
import { UserMissionModel } from '../missions/mission.models';
import { UserModel } from '../users/user.model';
import { runPayoutRound } from './payouts.service';
import { WithdrawalModel } from './withdrawal.model';

jest.setTimeout(120_000);

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
useTonTestChain();

/** The player's risk as the sweep would have assessed it. */
const assessed = (userId: unknown, score: number, level: 'low' | 'review' | 'high') =>
  UserModel.updateOne({ _id: userId }, { $set: { risk: { score, level, signals: [], assessedAt: new Date() } } });
const holdFrom = (level: 'review' | 'high' | 'off') =>
  AppConfigModel.updateOne({ key: 'app' }, { $set: { 'risk.holdPayoutsFrom': level } });

describe('a risky player’s payouts wait for an operator to clear their risk (App Config risk.holdPayoutsFrom)', () => {
  let operator: ReturnType<typeof consoleApi>;
  beforeAll(async () => {
    operator = consoleApi(app, (await createOperator(['*'])).token);
  });

  it('shows the risk, balance and history beside the decision, refuses the approval, and lets it go once cleared', async () => {
    const coin = await createCoin({ network: 'ton', decimals: 9, minWithdraw: '0.1' });
    const { user, withdrawal } = await withdrawalOf(coin, '1.5', '10');
    await assessed(user._id, 45, 'review');

    const listed = (await operator.get('/withdraws', { filter: { status: 'pending' } }).expect(200)).body;
    expect(listed.find((row: { id: string }) => row.id === withdrawal.id)).toMatchObject({ playerRisk: { score: 45, level: 'review' } });
    const shown = await operator.get(`/withdraws/${withdrawal.id}`);
    const page = shown.body;
    expect(page).toMatchObject({
      playerRisk: { score: 45, level: 'review' },
      riskHeld: true,
      balance: '8.5',
      paid: { count: 0, amount: '0' },
      earlier: [],
    });
    expect(Date.parse(page.playerJoinedAt)).toBeGreaterThan(Date.now() - 60_000);

    // the default holds review and above: the approval is refused with the score, and nothing changes
    const refused = await operator.put(`/withdraws/${withdrawal.id}`, { status: 'approved' }).expect(409);
    expect(refused.body).toMatchObject({ code: 'RISK_HOLD', params: { level: 'review', score: 45 } });
    expect(await WithdrawalModel.findById(withdrawal.id).lean()).toMatchObject({ status: 'pending', approvedBy: null });

    // cleared at this score, it goes through (the clearance assesses afresh: the stored score stands for it here)
    await UserModel.updateOne({ _id: user._id }, { $set: { riskCleared: { score: 45, at: new Date() } } });
    await operator.put(`/withdraws/${withdrawal.id}`, { status: 'approved' }).expect(200);
    expect((await operator.get(`/withdraws/${withdrawal.id}`).expect(200)).body).toMatchObject({ status: 'approved', riskHeld: false });
  });

  it('follows App Config: high holds only high, off holds none', async () => {
    const coin = await createCoin({ network: 'ton', decimals: 9, minWithdraw: '0.1' });
    const review = await withdrawalOf(coin, '1');
    const high = await withdrawalOf(coin, '1');
    await assessed(review.user._id, 40, 'review');
    await assessed(high.user._id, 80, 'high');
    await holdFrom('high');
    await operator.put(`/withdraws/${review.withdrawal.id}`, { status: 'approved' }).expect(200);
    expect((await operator.put(`/withdraws/${high.withdrawal.id}`, { status: 'approved' }).expect(409)).body.code).toBe('RISK_HOLD');
    await holdFrom('off');
    await operator.put(`/withdraws/${high.withdrawal.id}`, { status: 'approved' }).expect(200);
    await holdFrom('review');
  });

  it('keeps an approved withdrawal out of the hot wallet’s batch when the risk rose after the approval, saying why', async () => {
    const coin = await createCoin({ network: 'ton', decimals: 9, minWithdraw: '0.1' });
    const risky = await withdrawalOf(coin, '1');
    const calm = await withdrawalOf(coin, '1');
    for (const { withdrawal } of [risky, calm]) await operator.put(`/withdraws/${withdrawal.id}`, { status: 'approved' }).expect(200);
    await assessed(risky.user._id, 70, 'high');

    await runPayoutRound();
    const [held, sent] = await Promise.all([
      WithdrawalModel.findById(risky.withdrawal.id).lean(),
      WithdrawalModel.findById(calm.withdrawal.id).lean(),
    ]);
    expect(held).toMatchObject({ status: 'approved', chainNote: expect.stringContaining("the player's risk is high (score 70)") });
    expect(sent!.status).not.toBe('approved');

    // the app config the console edits carries the rule, review by default
    const config = (await operator.get('/app-config/current').expect(200)).body;
    expect(config.risk.holdPayoutsFrom).toBe('review');
    const bad = await operator
      .put('/app-config/current', { ...config, risk: { ...config.risk, holdPayoutsFrom: 'sometimes' } })
      .expect(400);
    expect(bad.body.errors).toEqual({ 'risk.holdPayoutsFrom': 'Choose review, high or off' });
  });

  it('shows each claim’s player risk in the review queue too', async () => {
    const coin = await createCoin({ symbol: 'RQ' });
    const { category, mission } = await createManualMission(coin, 5_000_000, 'Review queue');
    const [farmer, newcomer] = [await createPlayer(), await createPlayer()];
    await assessed(farmer._id, 95, 'high');
    const claim = { mission: mission._id, category: category._id, coin: coin._id, reward: 5_000_000, status: 'pending' as const };
    await UserMissionModel.create([
      { ...claim, user: farmer._id },
      { ...claim, user: newcomer._id },
    ]);
    const queue = (await operator.get('/user-missions', { filter: { status: 'pending', mission: String(mission._id) } }).expect(200)).body;
    expect(queue.map((row: { user: string; playerRisk?: unknown }) => [row.user, row.playerRisk])).toEqual(
      expect.arrayContaining([
        [String(farmer._id), { score: 95, level: 'high' }],
        [String(newcomer._id), { score: 0, level: 'low' }],
      ]),
    );
  });
});
