import { randomBytes } from 'node:crypto';
import { Query } from 'mongoose';
import { ERROR_MESSAGES, toMicros } from '@gift/shared';
import { createApp } from '../../app';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createCoin, mineInFreshCoin } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { AuditEntryModel } from '../audit/audit.model';
import { GiftCoinModel } from '../coins/giftCoin.model';
import { AppConfigModel } from '../config/appConfig.model';
import { getAppConfig } from '../config/config.service';
import { CategoryModel } from '../content/content.models';
import { OperationModel } from '../ledger/operation.model';
import { MissionModel } from '../missions/mission.models';
import { StarOfferModel } from '../shop/shop.models';
import { StakingCoinModel } from '../staking/staking.models';

/**
 * A console save of a record with a money brake (a mission, a staking offer, a coin, a Stars offer, App Config) writes only on
 * the record as it read it (changeRequests.service.ts `asRead`): a save that read the record before an approval or another save
 * landed is refused with 409, changing nothing, so it neither writes the live values back over the approval nor replaces a
 * waiting change it never saw; the missions' campaign switch too. Each race is played in order: the save reads, then (as it
 * weighs its change against the coin's threshold) the other call runs to its end, then the save writes.
 */
const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
afterEach(() => jest.restoreAllMocks());

type Body = Record<string, unknown>;

interface Source {
  resource: string;
  model: unknown;
  /** Where the waiting change and the last decision are on the record as the console reads it (a dotted path). */
  field: string;
  decision: string;
  approve: string;
  /** Which read of the record is the save's own, after the console route's (2: the route finds it, then the save reads it). */
  read?: number;
  /** A live record under the brake, a raise that waits, and a second, larger raise; `live`: the body's live values. */
  forms: () => Promise<{ body: Body; raise: Body; raiseMore: Body; live: (body: Body) => unknown }>;
  /** Saves the live record: its id in the console's paths and as its audit and requests name it (default: created by a POST). */
  create?: (body: Body) => Promise<{ path: string; record: string }>;
}

/** Where most records keep a waiting change and its decision (a mission names them its own way). */
const WAITING_CHANGE = { field: 'waitingChange', decision: 'lastChangeDecision', approve: 'change/approve' };

/** App Config's referral reward: one record, edited under `current`. */
const APP_CONFIG: Source & Required<Pick<Source, 'create'>> = {
  resource: 'app-config',
  model: AppConfigModel,
  field: 'waitingRewards.referral',
  decision: 'rewardDecisions.referral',
  approve: 'rewards/referral/approve',
  // the route finds App Config (its `current` id twice, then the record), and the save checks the amounts before reading it
  read: 5,
  forms: async () => {
    const referrerCoin = String((await createCoin())._id);
    const form = (referrerCoinAmount: string) => ({ referrerCoin, referrerCoinAmount });
    return { body: form('10'), raise: form('3000'), raiseMore: form('5000'), live: (body) => body.referrerCoinAmount };
  },
  // a fresh App Config for each test, so that it reads its own audits and requests only
  create: async (body) => {
    await AppConfigModel.deleteMany({});
    const config = await getAppConfig();
    config.set({ referrerCoin: body.referrerCoin, referrerCoinAmount: Number(toMicros(String(body.referrerCoinAmount))) });
    await config.save();
    return { path: 'current', record: String(config._id) };
  },
};

const SOURCES: Source[] = [
  {
    resource: 'missions',
    model: MissionModel,
    field: 'waiting',
    decision: 'lastDecision',
    approve: 'reward/approve',
    forms: async () => {
      const coin = String((await createCoin())._id);
      const category = String((await CategoryModel.create({ title: 'Stories' }))._id);
      const form = (reward: string) => ({ category, coin, title: 'Share', reward, verifyType: 'auto', link: 'https://t.me/x' });
      return { body: form('10'), raise: form('3000'), raiseMore: form('5000'), live: (body) => body.reward };
    },
  },
  {
    resource: 'staking-coins',
    model: StakingCoinModel,
    ...WAITING_CHANGE,
    // 1,000 at 50 % is 500, under the coin's threshold; 100,000 and 200,000 at 1,000 % are far above it
    forms: async () => {
      const coin = String((await createCoin())._id);
      const offer = (maxAmount: string, year: string) => ({ coin, minAmount: '1', maxAmount, profits: { year } });
      return {
        body: offer('1000', '50'),
        raise: offer('100000', '1000'),
        raiseMore: offer('200000', '1000'),
        live: (body) => [body.maxAmount, (body.profits as Body).year],
      };
    },
  },
  {
    resource: 'gift-coins',
    model: GiftCoinModel,
    ...WAITING_CHANGE,
    // a gift threshold of 1 is tighter than the suggested one and applies; 3,000 and 5,000 loosen it and wait
    forms: async () => {
      const symbol = `R${randomBytes(3).toString('hex').toUpperCase()}`;
      const coin = (giftApprovalAbove: string) => ({ name: `Race ${symbol}`, symbol, network: 'jetton', giftApprovalAbove });
      return { body: coin('1'), raise: coin('3000'), raiseMore: coin('5000'), live: (body) => body.giftApprovalAbove };
    },
  },
  {
    resource: 'star-offers',
    model: StarOfferModel,
    ...WAITING_CHANGE,
    // a session pays 10,000 coins of a threshold of 1,000: off sale an offer weighs nothing; on sale at ×1.5 or ×3 it waits
    forms: async () => {
      await mineInFreshCoin('10000');
      const offer = (enabled: boolean, multiplierPercent: number) => ({
        title: 'Boost',
        kind: 'multiplier',
        stars: 100,
        multiplierPercent,
        enabled,
      });
      return {
        body: offer(false, 150),
        raise: offer(true, 150),
        raiseMore: offer(true, 300),
        live: (body) => [body.enabled, body.multiplierPercent],
      };
    },
  },
  APP_CONFIG,
];

/** A field of a record as the console reads it, by its dotted path. */
const at = (body: Body, path: string): unknown => path.split('.').reduce<unknown>((value, key) => (value as Body | null)?.[key], body);

/**
 * Runs `other` to its end once, right after a save reads the record (`model`; `read`: which read of it is the save's): before
 * its request and its write.
 */
function between(model: unknown, other: () => Promise<void>, read = 2) {
  // the driver's own exec, called below on the query it belongs to
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const exec = Query.prototype.exec;
  let reads = 0;
  jest.spyOn(Query.prototype, 'exec').mockImplementation(async function (this: Query<unknown, unknown>, ...args: []) {
    const found: unknown = await exec.apply(this, args);
    if (this.model === model && (this as unknown as { op: string }).op === 'findOne' && ++reads === read) {
      await other();
    }
    return found;
  });
}

/** Saves the live record of a source: its id in the console's paths and as its audit and requests name it. */
async function savedLive({ resource, create }: Pick<Source, 'resource' | 'create'>, asker: ReturnType<typeof consoleApi>, body: Body) {
  if (create) return create(body);
  const id = String((await asker.post(`/${resource}`, body).expect(201)).body.id);
  return { path: id, record: id };
}

const requests = (record: string) => OperationModel.find({ kind: 'change-request', refId: record }, { key: 1, state: 1 }).lean();

describe.each(SOURCES)('a save of $resource racing another call', ({ resource, model, field, decision, approve, read, forms, create }) => {
  const operators = async () => {
    const [asker, checker] = await Promise.all([createOperator([`${resource}:write`]), createOperator([`${resource}:write`])]);
    return { asker: consoleApi(app, asker.token), checker: consoleApi(app, checker.token), checkerId: checker.id };
  };
  const changeOf = (body: Body) => (at(body, field) as { id: string } | null)?.id ?? null;
  const saved = (asker: ReturnType<typeof consoleApi>, body: Body) => savedLive({ resource, create }, asker, body);

  it('an approval landing after an edit read the record stands; the edit answers 409 and changes nothing', async () => {
    const { asker, checker } = await operators();
    const { body, raise, raiseMore, live } = await forms();
    const { path, record } = await saved(asker, body);
    const asked = changeOf((await asker.put(`/${resource}/${path}`, raise).expect(200)).body)!;
    const approved = live((await asker.get(`/${resource}/${path}`)).body);
    expect(asked).not.toBeNull();

    // the edit has read the record (the raise waiting); the second operator approves it before the edit writes
    between(
      model,
      async () => {
        await checker.post(`/${resource}/${path}/${approve}`, { id: asked }).expect(200);
      },
      read,
    );
    const refused = await asker.put(`/${resource}/${path}`, raiseMore);
    expect([refused.status, refused.body.code, refused.body.message]).toEqual([409, 'RECORD_CHANGED', ERROR_MESSAGES.RECORD_CHANGED]);

    // the approved values are live, nothing waits, and the refused edit left no request and no audit
    const after = (await asker.get(`/${resource}/${path}`)).body;
    expect(live(after)).toEqual(live(raise));
    expect([at(after, field), at(after, `${decision}.id`), at(after, `${decision}.status`)]).toEqual([null, asked, 'approved']);
    expect(approved).toEqual(live(body));
    expect((await requests(record)).map((r) => [r.key, r.state])).toEqual([[`change-request:${resource}:${asked}`, 'done']]);
    expect(await AuditEntryModel.countDocuments({ resource, record, action: 'update' })).toBe(1);
  });

  it('of two saves racing, the one that read the record before the other landed answers 409; the other stands, audited', async () => {
    const { asker, checker, checkerId } = await operators();
    const { body, raise, raiseMore } = await forms();
    const { path, record } = await saved(asker, body);

    // the asker's save has read the record (nothing waiting); the checker's save lands first
    let landed = '';
    between(
      model,
      async () => {
        landed = changeOf((await checker.put(`/${resource}/${path}`, raise).expect(200)).body)!;
      },
      read,
    );
    const refused = await asker.put(`/${resource}/${path}`, raiseMore);
    expect([refused.status, refused.body.code]).toEqual([409, 'RECORD_CHANGED']);

    // the checker's change waits, its request done and audited once as theirs; the refused save left nothing
    expect(changeOf((await asker.get(`/${resource}/${path}`)).body)).toBe(landed);
    expect((await requests(record)).map((r) => [r.key, r.state])).toEqual([[`change-request:${resource}:${landed}`, 'done']]);
    const audits = await AuditEntryModel.find({ resource, record, action: 'update' }).lean();
    expect(audits.map((entry) => [String(entry.account), entry.key])).toEqual([[checkerId, `change-request:${resource}:${landed}`]]);
  });
});

/**
 * A save carries the brake state of the record its form was opened on (`brakeState`, as the record's read and its list row
 * carry it): a save from a form opened before another operator's change was held is refused, though it reads the record after
 * that change landed, so it never replaces a change its operator did not see. A form opened since saves.
 */
describe.each(SOURCES)('a save of $resource from a form opened before a change was held', (source) => {
  const { resource, field, decision, approve, forms } = source;
  const changeOf = (body: Body) => (at(body, field) as { id: string } | null)?.id ?? null;

  it('answers 409 and changes nothing; the same save from a form opened since lands', async () => {
    const [asker, checker] = await Promise.all([createOperator([`${resource}:write`]), createOperator([`${resource}:write`])]);
    const [askerApi, checkerApi] = [consoleApi(app, asker.token), consoleApi(app, checker.token)];
    const { body, raise, raiseMore } = await forms();
    const { path, record } = await savedLive(source, askerApi, body);
    // the asker opens the form, from the record's read or from its row in the list: the same brake state
    const opened = (await askerApi.get(`/${resource}/${path}`).expect(200)).body as Body;
    const row = ((await askerApi.get(`/${resource}`, { filter: { id: record } }).expect(200)).body as Body[])[0]!;
    expect([typeof opened.brakeState, row.brakeState]).toEqual(['string', opened.brakeState]);

    // the checker's raise is held on the record; the asker saves the form they opened before it
    const landed = changeOf((await checkerApi.put(`/${resource}/${path}`, raise).expect(200)).body)!;
    expect(landed).not.toBeNull();
    const before = (await askerApi.get(`/${resource}/${path}`)).body as Body;
    const refused = await askerApi.put(`/${resource}/${path}`, { ...raiseMore, brakeState: opened.brakeState });
    expect([refused.status, refused.body.code, refused.body.message]).toEqual([409, 'RECORD_CHANGED', ERROR_MESSAGES.RECORD_CHANGED]);

    // the checker's change still waits, the record as it was, one request and one audit, the checker's
    expect((await askerApi.get(`/${resource}/${path}`)).body).toEqual(before);
    expect(changeOf(before)).toBe(landed);
    expect((await requests(record)).map((r) => [r.key, r.state])).toEqual([[`change-request:${resource}:${landed}`, 'done']]);
    const audits = await AuditEntryModel.find({ resource, record, action: 'update' }).lean();
    expect(audits.map((entry) => String(entry.account))).toEqual([checker.id]);

    // reopened, the form shows the checker's change: the save replaces it knowingly, audited as a replacement
    const reopened = (await askerApi.get(`/${resource}/${path}`)).body as Body;
    expect(reopened.brakeState).not.toBe(opened.brakeState);
    const saved = (await askerApi.put(`/${resource}/${path}`, { ...raiseMore, brakeState: reopened.brakeState }).expect(200)).body as Body;
    expect(changeOf(saved)).not.toBe(landed);
    const now = await AuditEntryModel.find({ resource, record, action: 'update' }).sort({ _id: 1 }).lean();
    expect(now.map((entry) => [String(entry.account), entry.note ?? ''])).toEqual([
      [checker.id, ''],
      [asker.id, `Replaced the waiting change ${landed}`],
    ]);
  });

  it('answers 409 when the change it showed waiting was approved since: the approved values stand', async () => {
    const [asker, checker] = await Promise.all([createOperator([`${resource}:write`]), createOperator([`${resource}:write`])]);
    const [askerApi, checkerApi] = [consoleApi(app, asker.token), consoleApi(app, checker.token)];
    const { body, raise, live } = await forms();
    const { path, record } = await savedLive(source, askerApi, body);
    // the asker's raise waits; they open the form (the live values, the raise waiting), and the checker approves the raise
    const asked = changeOf((await askerApi.put(`/${resource}/${path}`, raise).expect(200)).body)!;
    const opened = (await askerApi.get(`/${resource}/${path}`).expect(200)).body as Body;
    await checkerApi.post(`/${resource}/${path}/${approve}`, { id: asked }).expect(200);

    // saved as opened, the form would write the values in force before the approval back over it
    const refused = await askerApi.put(`/${resource}/${path}`, { ...body, brakeState: opened.brakeState });
    expect([refused.status, refused.body.code]).toEqual([409, 'RECORD_CHANGED']);
    const after = (await askerApi.get(`/${resource}/${path}`)).body as Body;
    expect([live(after), at(after, `${decision}.id`), at(after, `${decision}.status`)]).toEqual([live(raise), asked, 'approved']);
    expect(await AuditEntryModel.countDocuments({ resource, record, action: 'update', account: asker.id })).toBe(1);
  });
});

describe('a save carrying a brake state', () => {
  it('that is not one the server gave is refused as bad input, saving nothing', async () => {
    const operator = await createOperator(['missions:write']);
    const api = consoleApi(app, operator.token);
    const { body, raise } = await SOURCES[0]!.forms();
    const id = String((await api.post('/missions', body).expect(201)).body.id);
    const refused = await api.put(`/missions/${id}`, { ...raise, brakeState: 'not-a-token' });
    expect([refused.status, refused.body.code, refused.body.errors]).toEqual([
      400,
      'BAD_INPUT',
      { brakeState: 'Reload the record and save again' },
    ]);
    expect((await api.get(`/missions/${id}`)).body.waiting).toBeNull();
  });
});

describe('App Config saved again over a waiting reward change', () => {
  it("names the change it replaced in its audit, as a mission's save does", async () => {
    const [asker, checker] = await Promise.all([createOperator(['app-config:write']), createOperator(['app-config:write'])]);
    const { body, raise, raiseMore } = await APP_CONFIG.forms();
    const { record } = await APP_CONFIG.create(body);
    const first = (await consoleApi(app, asker.token).put('/app-config/current', raise).expect(200)).body;
    const second = (await consoleApi(app, checker.token).put('/app-config/current', raiseMore).expect(200)).body;

    // the second save read the first one's change waiting and held its own in its place: its audit says so, once
    const replaced = first.waitingRewards.referral.id as string;
    expect(second.waitingRewards.referral).toMatchObject({ amount: '5000' });
    const audits = await AuditEntryModel.find({ resource: 'app-config', record, action: 'update' }).sort({ _id: 1 }).lean();
    expect(audits.map((entry) => [String(entry.account), entry.note ?? ''])).toEqual([
      [asker.id, ''],
      [checker.id, `Replaced the waiting change ${replaced}`],
    ]);
  });
});

describe('the missions campaign switch racing a save', () => {
  it('an enabling that read a mission before another save held a change answers 409; the save and its change stand', async () => {
    const [asker, checker] = await Promise.all([createOperator(['missions:write']), createOperator(['missions:write'])]);
    const coin = String((await createCoin())._id);
    const category = String((await CategoryModel.create({ title: 'Campaign' }))._id);
    const form = (reward: string, enabled: boolean) => ({
      category,
      coin,
      title: 'Join',
      reward,
      enabled,
      verifyType: 'auto',
      link: 'https://t.me/x',
    });
    // off, a mission's reward above the threshold is not live: enabling it is the change that waits
    const id = String((await consoleApi(app, asker.token).post('/missions', form('3000', false)).expect(201)).body.id);

    // the switch has read the mission (nothing waiting); the checker's save asking to put 5,000 live lands first
    let landed = '';
    between(
      MissionModel,
      async () => {
        landed = (await consoleApi(app, checker.token).put(`/missions/${id}`, form('5000', true)).expect(200)).body.waiting.id as string;
      },
      1,
    );
    const refused = await consoleApi(app, asker.token).post('/missions/enabled', { ids: [id], enabled: true });
    expect([refused.status, refused.body.code]).toEqual([409, 'RECORD_CHANGED']);

    // the checker's change waits, off, audited once as theirs; the refused switch asked and audited nothing
    const after = await MissionModel.findById(id).lean();
    expect([after!.enabled, after!.waiting?.id, after!.waiting?.reward]).toEqual([false, landed, Number(toMicros('5000'))]);
    expect((await requests(id)).map((r) => [r.key, r.state])).toEqual([[`change-request:missions:${landed}`, 'done']]);
    const audits = await AuditEntryModel.find({ resource: 'missions', record: id, action: 'update' }).lean();
    expect(audits.map((entry) => [String(entry.account), entry.key])).toEqual([[checker.id, `change-request:missions:${landed}`]]);
  });
});
