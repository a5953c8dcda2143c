import { randomBytes } from 'node:crypto';
import { toMicros } from '@gift/shared';
import { createApp } from '../../app';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createCoin, createPlayer, fund, playerCaller } from '../../../test/factories';
import { WalletLinkModel } from '../wallet/wallet.models';
import { WithdrawalModel } from '../withdrawals/withdrawal.model';
import { consoleApi, createOperator } from '../../../test/operators';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { balanceOf, postEntry } from '../ledger/ledger.service';
import { UserModel } from './user.model';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
const key = () => `form-${randomBytes(6).toString('hex')}`;

describe('players in the console', () => {
  let api: ReturnType<typeof consoleApi>;
  let operatorId: string;
  beforeAll(async () => {
    const operator = await createOperator(['users:write', 'gifts:write']);
    api = consoleApi(app, operator.token);
    operatorId = operator.id;
  });

  it('shows a player with their balance and money figures per coin, as exact decimal strings', async () => {
    const player = await createPlayer();
    const gold = await createCoin({ symbol: 'GOLD', name: 'Gold', order: 1 });
    const ton = await createCoin({ symbol: 'TON', name: 'Toncoin', order: 0 });
    await fund(player._id, gold._id, '10.000001');
    await postEntry({ userId: player._id, coinId: gold._id, amount: toMicros('0.1'), reason: 'mission', idempotencyKey: key() });
    await postEntry({ userId: player._id, coinId: gold._id, amount: toMicros('0.2'), reason: 'referral', idempotencyKey: key() });
    await postEntry({ userId: player._id, coinId: ton._id, amount: toMicros('3'), reason: 'mining', idempotencyKey: key() });
    await postEntry({ userId: player._id, coinId: ton._id, amount: -toMicros('1.5'), reason: 'withdraw', idempotencyKey: key() });

    const res = await api.get(`/users/${player._id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: String(player._id), telegramId: player.telegramId, inviteLimit: 100 });
    expect(res.body.coins).toEqual([
      {
        id: String(ton._id),
        coin: String(ton._id),
        name: 'Toncoin',
        symbol: 'TON',
        balance: '1.5',
        rewards: '0',
        earned: '3',
        withdrawn: '1.5',
        pendingWithdrawals: '0',
        gifts: '0',
      },
      {
        id: String(gold._id),
        coin: String(gold._id),
        name: 'Gold',
        symbol: 'GOLD',
        balance: '10.300001',
        rewards: '0.3',
        earned: '0',
        withdrawn: '0',
        pendingWithdrawals: '0',
        gifts: '10.000001',
      },
    ]);
    // the list stays light: no per-coin figures there
    const listed = await api.get('/users', { filter: { id: [String(player._id)] } });
    expect(listed.body[0]).not.toHaveProperty('coins');
  });

  it('counts a withdrawal as withdrawn once paid, and one still waiting or on its way as pending, exactly', async () => {
    const player = await createPlayer();
    const coin = await createCoin({ symbol: 'GIFT' });
    await fund(player._id, coin._id, '5000');
    await WalletLinkModel.create({ address: `0:${randomBytes(32).toString('hex')}`, user: player._id, network: '-239' });
    const request = (amount: string) =>
      playerCaller(player).withdrawals.request({ coinId: String(coin._id), amount, idempotencyKey: key() });
    await request('1645');
    const paid = await request('100.000001');
    const approved = await request('7');
    const sending = await request('1.5');
    const rejected = await request('20');
    // the payout module's outcomes, as they land on the records (paying on chain is its own tests' business)
    await WithdrawalModel.updateOne({ _id: paid.id }, { $set: { status: 'done', txHash: 'ab'.repeat(32) } });
    await WithdrawalModel.updateOne({ _id: approved.id }, { $set: { status: 'approved' } });
    await WithdrawalModel.updateOne({ _id: sending.id }, { $set: { status: 'sending' } });
    const payouts = consoleApi(app, (await createOperator()).token);
    await payouts.put(`/withdraws/${rejected.id}`, { status: 'rejected', rejectReason: 'Wallet address is frozen' }).expect(200);

    const res = await api.get(`/users/${player._id}`);
    expect(res.body.coins).toEqual([
      expect.objectContaining({ symbol: 'GIFT', balance: '3246.499999', withdrawn: '100.000001', pendingWithdrawals: '1653.5' }),
    ]);
  });

  it('changes the invite limit, status and language, and nothing else', async () => {
    const player = await createPlayer({ language: 'fa', referrersCount: 4 });
    const current = (await api.get(`/users/${player._id}`)).body;
    const res = await api.put(`/users/${player._id}`, {
      ...current,
      inviteLimit: 3,
      status: 'frozen',
      statusReason: 'Five friends joined in one second',
      referrersCount: 999,
      telegramId: 1,
      name: 'Renamed',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      inviteLimit: 3,
      status: 'frozen',
      statusReason: 'Five friends joined in one second',
      language: 'fa',
      referrersCount: 4,
      telegramId: player.telegramId,
      name: player.name,
    });
    // saving the form again with another invite limit keeps the freeze as it began
    const frozenSince = (await UserModel.findById(player._id).lean())!.statusChangedAt;
    const again = await api.put(`/users/${player._id}`, { ...res.body, inviteLimit: 4 });
    expect(again.body).toMatchObject({ inviteLimit: 4, status: 'frozen' });
    expect((await UserModel.findById(player._id).lean())!.statusChangedAt).toEqual(frozenSince);
    const english = await api.put(`/users/${player._id}`, { inviteLimit: 3, status: 'active', language: 'en' });
    expect(english.body).toMatchObject({ language: 'en', status: 'active', statusReason: '' });
  });

  it('refuses a bad edit field by field and changes nothing', async () => {
    const player = await createPlayer();
    const res = await api.put(`/users/${player._id}`, { inviteLimit: -1, status: 'asleep', language: 'de' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['inviteLimit', 'language', 'status']);
    // a freeze or ban without a reason: the player would not know why
    const silent = await api.put(`/users/${player._id}`, { status: 'frozen', statusReason: '  ' });
    expect(silent.status).toBe(400);
    expect(silent.body.errors).toEqual({ statusReason: 'Say why: the player reads this reason' });
    expect(await UserModel.findById(player._id).lean()).toMatchObject({ inviteLimit: 100, status: 'active', language: 'en' });
  });

  it('finds players by name, username or exact Telegram id, and filters by referrer and demo', async () => {
    const referrer = await createPlayer({ name: 'Zelda Quasar', username: 'ZQ_referrer', usernameLower: 'zq_referrer' });
    const invited = await createPlayer({ referrer: referrer._id, isDemo: true });
    await createPlayer({ referrer: referrer._id });
    const ids = (res: { body: Array<{ id: string }> }) => res.body.map((u) => u.id);

    expect(ids(await api.get('/users', { filter: { q: 'zelda quas' } }))).toEqual([String(referrer._id)]);
    expect(ids(await api.get('/users', { filter: { q: 'zq_REF' } }))).toEqual([String(referrer._id)]);
    expect(ids(await api.get('/users', { filter: { q: String(invited.telegramId) } }))).toEqual([String(invited._id)]);
    const byReferrer = await api.get('/users', { filter: { referrer: String(referrer._id) } });
    expect(byReferrer.headers['content-range']).toBe('users 0-1/2');
    expect(ids(await api.get('/users', { filter: { referrer: String(referrer._id), isDemo: true } }))).toEqual([String(invited._id)]);
  });

  it('filters by risk level as the console’s select sends it (a nested object) and as a dotted key (issue 34, defect 1)', async () => {
    const [review, high, low] = await Promise.all([createPlayer(), createPlayer(), createPlayer()]);
    await UserModel.updateOne({ _id: review._id }, { $set: { risk: { level: 'review', score: 40 } } });
    await UserModel.updateOne({ _id: high._id }, { $set: { risk: { level: 'high', score: 90 } } });
    await UserModel.updateOne({ _id: low._id }, { $set: { risk: { level: 'low', score: 1 } } });
    const ours = [String(review._id), String(high._id), String(low._id)];
    const listed = async (filter: Record<string, unknown>) => {
      const res = await api.get('/users', { filter, perPage: 500 });
      expect(res.status).toBe(200);
      return (res.body as { id: string }[]).map((p) => p.id).filter((id) => ours.includes(id));
    };
    expect(await listed({ risk: { level: 'review' } })).toEqual([String(review._id)]);
    expect(await listed({ 'risk.level': 'high' })).toEqual([String(high._id)]);
    // a nested filter on a field that is not one stays refused
    const unknown = await api.get('/users', { filter: { risk: { score: 5 } } });
    expect([unknown.status, unknown.body.errors]).toEqual([400, { filter: 'Unknown filter: risk' }]);
  });

  it('sorts by the figures operators look at', async () => {
    const tag = randomBytes(3).toString('hex');
    for (const done of [2, 9, 5]) await createPlayer({ name: `Sorted ${tag}`, doneMissionsCount: done });
    const res = await api.get('/users', { filter: { q: `Sorted ${tag}` }, sort: ['doneMissionsCount', 'DESC'] });
    expect(res.body.map((u: { doneMissionsCount: number }) => u.doneMissionsCount)).toEqual([9, 5, 2]);
  });

  describe("a player's ledger", () => {
    it('lists posted entries newest first, paged, and filtered by coin', async () => {
      const player = await createPlayer();
      const coin = await createCoin();
      const other = await createCoin();
      for (const amount of ['1', '2', '3']) await fund(player._id, coin._id, amount);
      await fund(player._id, other._id, '7');
      await fund((await createPlayer())._id, coin._id, '100');

      // the ledger tab of the player's page: ledger-entries filtered by the player
      const ledger = (query: Record<string, unknown>) =>
        api.get('/ledger-entries', { ...query, filter: { user: String(player._id), ...(query.filter as object) } });
      const page = await ledger({ range: [0, 1] });
      expect(page.status).toBe(200);
      expect(page.headers['content-range']).toBe('ledger-entries 0-1/4');
      expect(page.headers['access-control-expose-headers']).toContain('Content-Range');
      expect(page.body.map((e: { amount: string }) => e.amount)).toEqual(['7', '3']);
      const rest = await ledger({ range: [2, 3] });
      expect(rest.body.map((e: { amount: string }) => e.amount)).toEqual(['2', '1']);
      const byCoin = await ledger({ filter: { coin: String(other._id) } });
      expect(byCoin.body).toHaveLength(1);
      expect(byCoin.body[0]).toMatchObject({ coin: String(other._id), amount: '7', reason: 'gift', state: 'posted' });

      expect((await ledger({ filter: { user: 'x' } })).status).toBe(400);
    });

    it('needs users read access', async () => {
      const player = await createPlayer();
      const ledgerOf = { filter: { user: String(player._id) } };
      expect((await consoleApi(app, (await createOperator(['users:read'])).token).get('/ledger-entries', ledgerOf)).status).toBe(200);
      expect((await consoleApi(app, (await createOperator(['missions:write'])).token).get('/ledger-entries', ledgerOf)).status).toBe(403);
    });
  });

  it('sorts players by their balance of a coin, largest first, for an operator who may read players', async () => {
    const [gift, ton] = [await createCoin({ symbol: 'GIFT' }), await createCoin({ symbol: 'TON' })];
    const [small, large, tiny] = [await createPlayer(), await createPlayer(), await createPlayer()];
    await fund(small._id, gift._id, '5');
    await fund(large._id, gift._id, '50');
    await fund(tiny._id, gift._id, '0.5');
    await fund(small._id, ton._id, '999');
    const reader = consoleApi(app, (await createOperator(['users:read'])).token);
    const res = await reader.get('/balances', { filter: { coin: String(gift._id) }, sort: ['amount', 'DESC'], range: [0, 9] });
    expect(res.body.map((b: { user: string; amount: string }) => [b.user, b.amount])).toEqual([
      [String(large._id), '50'],
      [String(small._id), '5'],
      [String(tiny._id), '0.5'],
    ]);
    expect(res.body[0]).not.toHaveProperty('appliedKeys');
    expect((await consoleApi(app, (await createOperator(['missions:write'])).token).get('/balances')).status).toBe(403);
  });

  describe('balance adjustments', () => {
    const adjust = (userId: unknown, body: Record<string, unknown>) => api.post(`/users/${String(userId)}/adjustments`, body);

    it('credits through the ledger as a gift, signed by the operator, once per form key', async () => {
      const player = await createPlayer();
      const coin = await createCoin();
      const form = { coin: String(coin._id), amount: '12.5', direction: 'credit', note: 'Contest prize', idempotencyKey: key() };
      const first = await adjust(player._id, form);
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ applied: true, balance: '12.5' });
      const again = await adjust(player._id, form);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ applied: false, balance: '12.5' });
      expect(await balanceOf(player._id, coin._id)).toBe(toMicros('12.5'));

      const entry = await LedgerEntryModel.findOne({ user: player._id }).lean();
      expect(entry).toMatchObject({
        reason: 'gift',
        note: 'Contest prize',
        idempotencyKey: `admin:${form.idempotencyKey}`,
        state: 'posted',
        amount: 12_500_000,
      });
      expect(String(entry!.createdBy)).toBe(operatorId);
    });

    it('debits what the balance covers, and refuses a debit beyond it with 409 and writes nothing', async () => {
      const player = await createPlayer();
      const coin = await createCoin();
      await fund(player._id, coin._id, '5');
      const debit = await adjust(player._id, {
        coin: String(coin._id),
        amount: '2',
        direction: 'debit',
        note: 'Correction',
        idempotencyKey: key(),
      });
      expect(debit.status).toBe(201);
      expect(debit.body.balance).toBe('3');
      const entriesBefore = await LedgerEntryModel.countDocuments({ user: player._id });

      const tooMuch = await adjust(player._id, {
        coin: String(coin._id),
        amount: '3.000001',
        direction: 'debit',
        note: 'Too much',
        idempotencyKey: key(),
      });
      expect(tooMuch.status).toBe(409);
      expect(tooMuch.body).toEqual({ message: 'Not enough balance', code: 'INSUFFICIENT_BALANCE' });
      expect(await balanceOf(player._id, coin._id)).toBe(toMicros('3'));
      expect(await LedgerEntryModel.countDocuments({ user: player._id })).toBe(entriesBefore);
    });

    it('adjusts once when the same form arrives 100 times at once', async () => {
      const player = await createPlayer();
      const coin = await createCoin();
      const form = { coin: String(coin._id), amount: '1', direction: 'credit', note: 'Double click', idempotencyKey: key() };
      const results = await Promise.all(Array.from({ length: 100 }, () => adjust(player._id, form)));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.every((r) => r.status === 201 || r.status === 200)).toBe(true);
      expect(await balanceOf(player._id, coin._id)).toBe(toMicros('1'));
      expect(await LedgerEntryModel.countDocuments({ user: player._id })).toBe(1);
    });

    it('never takes a balance below zero, however many debits arrive at once', async () => {
      const player = await createPlayer();
      const coin = await createCoin();
      await fund(player._id, coin._id, '10');
      const results = await Promise.all(
        Array.from({ length: 40 }, () =>
          adjust(player._id, { coin: String(coin._id), amount: '1', direction: 'debit', note: 'Drain', idempotencyKey: key() }),
        ),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(10);
      expect(results.filter((r) => r.status === 409)).toHaveLength(30);
      expect(await balanceOf(player._id, coin._id)).toBe(0n);
    });

    it('refuses a reused key for a different adjustment, an unknown coin, too many decimals and a bad body', async () => {
      const player = await createPlayer();
      const coin = await createCoin({ decimals: 2 });
      const form = { coin: String(coin._id), amount: '1', direction: 'credit', note: 'First', idempotencyKey: key() };
      await adjust(player._id, form);
      const reused = await adjust(player._id, { ...form, amount: '2' });
      expect(reused.status).toBe(400);
      expect(reused.body.errors).toEqual({ idempotencyKey: 'This key was already used for a different adjustment' });
      const unknownCoin = await adjust(player._id, { ...form, coin: '0123456789abcdef01234567', idempotencyKey: key() });
      expect(unknownCoin.body.errors).toEqual({ coin: 'Choose an existing gift coin' });
      const decimals = await adjust(player._id, { ...form, amount: '0.001', idempotencyKey: key() });
      expect(decimals.body.errors).toEqual({ amount: `${coin.symbol} has at most 2 decimals` });
      const bad = await adjust(player._id, { coin: 'x', amount: '0', direction: 'sideways', note: '' });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['amount', 'coin', 'direction', 'idempotencyKey', 'note']);
      expect(await balanceOf(player._id, coin._id)).toBe(toMicros('1'));
      expect((await adjust('0123456789abcdef01234567', { ...form, idempotencyKey: key() })).status).toBe(404);
    });

    it('needs the gifts permission: support who may freeze and edit players (users:write) cannot move money', async () => {
      const player = await createPlayer();
      const coin = await createCoin();
      const form = () => ({ coin: String(coin._id), amount: '1', direction: 'credit', note: 'x', idempotencyKey: key() });
      for (const permissions of [['users:read'], ['users:write']]) {
        const res = await consoleApi(app, (await createOperator(permissions)).token).post(`/users/${player._id}/adjustments`, form());
        expect([permissions, res.status]).toEqual([permissions, 403]);
      }
      expect(await balanceOf(player._id, coin._id)).toBe(0n);
      // the gifts permission alone moves money, and opens the player it gives to (read-only), not the list of players
      const treasurer = consoleApi(app, (await createOperator(['gifts:write'])).token);
      expect((await treasurer.post(`/users/${player._id}/adjustments`, form())).status).toBe(201);
      expect((await treasurer.get(`/users/${player._id}`)).status).toBe(200);
      expect((await treasurer.get('/users')).status).toBe(200);
      expect((await treasurer.put(`/users/${player._id}`, { status: 'frozen', statusReason: 'x' })).status).toBe(403);
      expect(await balanceOf(player._id, coin._id)).toBe(toMicros('1'));
    });
  });
});
