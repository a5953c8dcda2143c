import { randomBytes } from 'node:crypto';
import { createApp } from '../../app';
import { onFault } from '../../lib/faults';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createCoin, mineInFreshCoin } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { AuditEntryModel } from '../audit/audit.model';
import { CategoryModel } from '../content/content.models';
import { recoverPendingEntries } from '../ledger/ledger.service';
import { OperationModel } from '../ledger/operation.model';

/**
 * Every save that holds a change for a second operator is a `change-request` of the money engine (changeRequests.service.ts):
 * a coin's brakes, a staking offer's and a Stars offer's terms, a mission's reward (an edit, a creation, the campaign switch).
 * Cut off between its write and its audit, it is audited once: by the operator saving again (whose own save is audited once
 * too, naming the change it replaced) or by the sweep alone. The operator who asked still cannot approve it.
 */
const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
afterEach(() => onFault(null));

// a Stars offer is weighed in the mining coin (threshold 1,000) at App Config's session amount (10)
beforeAll(async () => {
  await mineInFreshCoin();
});

type Body = Record<string, unknown>;

/** Where a change is held: a live record (saved under the brake) and the edit raising it above, and a new record asked above it. */
interface Source {
  /** The console resource, opened by its own `:write` permission. */
  resource: string;
  /** The field of the record that holds the waiting change: a mission's reward waits in `waiting`, decided at `reward/approve`. */
  field?: 'waiting';
  live: () => Promise<{ body: Body; raise: Body }>;
  created: () => Promise<Body>;
}

const symbol = () => `R${randomBytes(2).toString('hex').toUpperCase()}`;

async function missionForm() {
  const coin = await createCoin();
  const category = await CategoryModel.create({ title: 'Stories' });
  return (reward: string) => ({
    category: String(category._id),
    coin: String(coin._id),
    title: 'Share the channel',
    reward,
    verifyType: 'auto',
    link: 'https://t.me/x',
  });
}

const stakingOffer = async () => {
  const coin = String((await createCoin())._id);
  return (maxAmount: string, year: string) => ({ coin, minAmount: '1', maxAmount, profits: { year } });
};

const DOUBLE = { title: 'Double mining', kind: 'multiplier', stars: 50, multiplierPercent: 200 };

const SOURCES: Source[] = [
  {
    resource: 'gift-coins',
    live: () => {
      const coin = { name: 'Points', symbol: symbol(), network: 'jetton' };
      return Promise.resolve({ body: coin, raise: { ...coin, giftApprovalAbove: '0' } });
    },
    created: () => Promise.resolve({ name: 'Points', symbol: symbol(), network: 'jetton', giftApprovalAbove: '0' }),
  },
  {
    resource: 'staking-coins',
    // 1,000 at 50 % is 500, under the threshold; 100,000 at 1,000 % is far above it
    live: async () => {
      const offer = await stakingOffer();
      return { body: offer('1000', '50'), raise: offer('100000', '1000') };
    },
    created: async () => (await stakingOffer())('100000', '1000'),
  },
  {
    resource: 'star-offers',
    // ×10 for 1 Star: 100 Stars buy 9,000 coins, above the threshold
    live: () => Promise.resolve({ body: DOUBLE, raise: { ...DOUBLE, stars: 1, multiplierPercent: 1000 } }),
    created: () => Promise.resolve({ ...DOUBLE, stars: 1, multiplierPercent: 1000 }),
  },
  {
    resource: 'missions',
    field: 'waiting',
    live: async () => {
      const form = await missionForm();
      return { body: form('10'), raise: form('3000') };
    },
    created: async () => (await missionForm())('3000'),
  },
];

async function operators(permission: string) {
  const [asker, checker] = await Promise.all([createOperator([permission]), createOperator([permission])]);
  return { asker: consoleApi(app, asker.token), checker: consoleApi(app, checker.token), askerId: asker.id };
}

/** Kills the next `change-request` at the engine's point (in process: the point throws, as a kill there would stop it). */
function killAt(point: 'ledger:after-record' | 'ledger:after-apply') {
  onFault((reached, kind) => {
    if (reached === point && kind === 'change-request') throw new Error(`killed at ${point}`);
  });
}

/** The record's audit entries of one action, oldest first. */
const auditsOf = (resource: string, record: string, action: 'create' | 'update') =>
  AuditEntryModel.find({ resource, record, action }).sort({ createdAt: 1, _id: 1 }).lean();

const unfinished = (record: string) => OperationModel.countDocuments({ kind: 'change-request', refId: record, state: { $ne: 'done' } });

describe.each(SOURCES)(
  'a held change of $resource is a change-request, audited once',
  ({ resource, field = 'waitingChange', ...source }) => {
    const changeOf = (body: Body) => String((body[field] as { id: string }).id);
    const permission = `${resource}:write`;
    const approve = field === 'waiting' ? 'reward/approve' : 'change/approve';

    it.each(
      (['retry', 'sweep'] as const).flatMap((finisher) =>
        (['ledger:after-record', 'ledger:after-apply'] as const).map((point) => ({ point, finisher })),
      ),
    )('an edit cut off at $point is audited once by the $finisher; the asker still cannot approve it', async ({ point, finisher }) => {
      const { asker, checker, askerId } = await operators(permission);
      const { body, raise } = await source.live();
      const created = await asker.post(`/${resource}`, body);
      expect([created.status, created.body[field]]).toEqual([201, null]);
      const id = String(created.body.id);
      killAt(point);
      expect((await asker.put(`/${resource}/${id}`, raise)).status).toBe(500);
      onFault(null);
      // the change waits, and its audit is its request's step, not reached
      const crashed = changeOf((await asker.get(`/${resource}/${id}`)).body);
      expect(await auditsOf(resource, id, 'update')).toEqual([]);

      let latest = crashed;
      if (finisher === 'retry') {
        // the same save again: the crashed edit is audited first, then this one, which replaced its change
        const again = await asker.put(`/${resource}/${id}`, raise);
        expect(again.status).toBe(200);
        latest = changeOf(again.body);
        expect(latest).not.toBe(crashed);
      } else await recoverPendingEntries(0);
      await recoverPendingEntries(0);
      const audited = await auditsOf(resource, id, 'update');
      expect(audited.map((entry) => entry.key)).toEqual(
        finisher === 'retry'
          ? [`change-request:${resource}:${crashed}`, `change-request:${resource}:${latest}`]
          : [`change-request:${resource}:${crashed}`],
      );
      // each as the asker's, the crashed one showing the change it asked
      for (const entry of audited) expect(String(entry.account)).toBe(askerId);
      expect(audited[0]!.after).toMatchObject({ [field]: { id: crashed } });
      if (finisher === 'retry')
        // who replaced which waiting change with what
        expect(audited[1]).toMatchObject({
          note: `Replaced the waiting change ${crashed}`,
          before: { [field]: { id: crashed } },
          after: { [field]: { id: latest } },
        });
      expect(await unfinished(id)).toBe(0);

      // the asker cannot approve their own change; a second operator does, once
      expect((await asker.post(`/${resource}/${id}/${approve}`, { id: latest })).status).toBe(403);
      const approved = await checker.post(`/${resource}/${id}/${approve}`, { id: latest });
      expect([approved.status, approved.body[field]]).toEqual([200, null]);
    });

    it('a record created with its change held is audited once, as its creation, also when cut off and swept', async () => {
      const { asker, checker } = await operators(permission);
      const saved = await asker.post(`/${resource}`, await source.created());
      expect(saved.status).toBe(201);
      const id = String(saved.body.id);
      const change = changeOf(saved.body);
      const created = await auditsOf(resource, id, 'create');
      expect(created.map((entry) => entry.key)).toEqual([`change-request:${resource}:${change}`]);
      expect(created[0]!.after).toMatchObject({ [field]: { id: change } });

      // cut off after its write: the record is there with the change waiting; the sweep audits its creation once
      killAt('ledger:after-record');
      expect((await asker.post(`/${resource}`, await source.created())).status).toBe(500);
      onFault(null);
      const cut = (await OperationModel.findOne({ kind: 'change-request', refType: resource, state: 'recorded' }).lean())!;
      expect(await auditsOf(resource, cut.refId, 'create')).toEqual([]);
      await recoverPendingEntries(0);
      await recoverPendingEntries(0);
      expect((await auditsOf(resource, cut.refId, 'create')).map((entry) => entry.key)).toEqual([cut.key]);
      expect(await unfinished(cut.refId)).toBe(0);
      const waiting = changeOf((await checker.get(`/${resource}/${cut.refId}`)).body);
      expect((await asker.post(`/${resource}/${cut.refId}/${approve}`, { id: waiting })).status).toBe(403);
      expect((await checker.post(`/${resource}/${cut.refId}/${approve}`, { id: waiting })).status).toBe(200);
    });
  },
);

describe('enabling missions in bulk above the threshold (the campaign switch)', () => {
  it.each(['retry', 'sweep'] as const)('a held enabling cut off after its write is audited once by the %s', async (finisher) => {
    const { asker, checker, askerId } = await operators('missions:write');
    const form = await missionForm();
    const created = await asker.post('/missions', { ...form('3000'), enabled: false });
    expect([created.status, created.body.waiting]).toEqual([201, null]);
    const id = String(created.body.id);
    const enable = () => asker.post('/missions/enabled', { ids: [id], enabled: true });
    killAt('ledger:after-record');
    expect((await enable()).status).toBe(500);
    onFault(null);
    const crashed = String((await asker.get(`/missions/${id}`)).body.waiting.id);
    expect(await auditsOf('missions', id, 'update')).toEqual([]);

    let latest = crashed;
    if (finisher === 'retry') {
      const again = await enable();
      expect(again.body).toEqual({ changed: [], waiting: [id] });
      latest = String((await asker.get(`/missions/${id}`)).body.waiting.id);
    } else await recoverPendingEntries(0);
    await recoverPendingEntries(0);
    const audited = await auditsOf('missions', id, 'update');
    expect(audited.map((entry) => [entry.key, String(entry.account)])).toEqual(
      [...new Set([crashed, latest])].map((change) => [`change-request:missions:${change}`, askerId]),
    );
    if (finisher === 'retry') expect(audited[1]!.note).toBe(`Replaced the waiting change ${crashed}`);
    expect(await unfinished(id)).toBe(0);

    // still disabled until a second operator approves the enabling
    expect((await asker.post(`/missions/${id}/reward/approve`, { id: latest })).status).toBe(403);
    const approved = await checker.post(`/missions/${id}/reward/approve`, { id: latest });
    expect(approved.body).toMatchObject({ enabled: true, reward: '3000', waiting: null });
  });

  it('switching off a mission whose raise a crash cut off audits the raise first, once, then the switch', async () => {
    const { asker } = await operators('missions:write');
    const form = await missionForm();
    const id = String((await asker.post('/missions', form('10'))).body.id);
    killAt('ledger:after-record');
    expect((await asker.put(`/missions/${id}`, form('3000'))).status).toBe(500);
    onFault(null);
    const crashed = String((await asker.get(`/missions/${id}`)).body.waiting.id);
    expect((await asker.post('/missions/enabled', { ids: [id], enabled: false })).body).toEqual({ changed: [id] });
    await recoverPendingEntries(0);
    const audited = await auditsOf('missions', id, 'update');
    // the raise, then the switch that dropped its change
    expect(audited.map((entry) => entry.key)).toEqual([`change-request:missions:${crashed}`, undefined]);
    expect(audited[1]).toMatchObject({ before: { enabled: true, waiting: { id: crashed } }, after: { enabled: false, waiting: null } });
    expect(await unfinished(id)).toBe(0);
  });
});
