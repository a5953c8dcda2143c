import { Query } from 'mongoose';
import { ERROR_MESSAGES } from '@gift/shared';
import { createApp } from '../../app';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createCoin } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { AuditEntryModel } from '../audit/audit.model';
import { CategoryModel } from '../content/content.models';
import { OperationModel } from '../ledger/operation.model';
import { MissionModel } from '../missions/mission.models';
import { StakingCoinModel } from '../staking/staking.models';

/**
 * A console save holding a brake change writes only on the record as it read it (changeRequests.service.ts `asRead`): a save
 * that read the record before an approval or another save landed is refused with 409, changing nothing, so it neither writes the
 * live values back over the approval nor replaces a waiting change it never saw. Each race is played in order: the save reads,
 * then (as it weighs its change against the coin's threshold) the other call runs to its end, then the save writes.
 */
const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
afterEach(() => jest.restoreAllMocks());

type Body = Record<string, unknown>;

interface Source {
  resource: string;
  model: unknown;
  /** Where the waiting change and the last decision are on the record as the console reads it. */
  field: string;
  decision: string;
  approve: string;
  /** A live record under the brake, a raise that waits, and a second, larger raise; `live`: the body's live values. */
  forms: () => Promise<{ body: Body; raise: Body; raiseMore: Body; live: (body: Body) => unknown }>;
}

/** Where most records keep a waiting change and its decision (a mission names them its own way). */
const WAITING_CHANGE = { field: 'waitingChange', decision: 'lastChangeDecision', approve: 'change/approve' };

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
];

/** Runs `other` to its end once, right after the next save reads the record (`model`): before its request and its write. */
function between(model: unknown, other: () => Promise<void>) {
  // the driver's own exec, called below on the query it belongs to
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const exec = Query.prototype.exec;
  let reads = 0;
  jest.spyOn(Query.prototype, 'exec').mockImplementation(async function (this: Query<unknown, unknown>, ...args: []) {
    const read: unknown = await exec.apply(this, args);
    // the console's route finds the record (404 if none), then the save reads it: the second read
    if (this.model === model && (this as unknown as { op: string }).op === 'findOne' && ++reads === 2) {
      await other();
    }
    return read;
  });
}

const requests = (record: string) => OperationModel.find({ kind: 'change-request', refId: record }, { key: 1, state: 1 }).lean();

describe.each(SOURCES)('a save of $resource racing another call', ({ resource, model, field, decision, approve, forms }) => {
  const operators = async () => {
    const [asker, checker] = await Promise.all([createOperator([`${resource}:write`]), createOperator([`${resource}:write`])]);
    return { asker: consoleApi(app, asker.token), checker: consoleApi(app, checker.token), checkerId: checker.id };
  };
  const changeOf = (body: Body) => (body[field] as { id: string } | null)?.id ?? null;

  it('an approval landing after an edit read the record stands; the edit answers 409 and changes nothing', async () => {
    const { asker, checker } = await operators();
    const { body, raise, raiseMore, live } = await forms();
    const id = String((await asker.post(`/${resource}`, body).expect(201)).body.id);
    const asked = changeOf((await asker.put(`/${resource}/${id}`, raise).expect(200)).body)!;
    const approved = live((await asker.get(`/${resource}/${id}`)).body);
    expect(asked).not.toBeNull();

    // the edit has read the record (the raise waiting); the second operator approves it before the edit writes
    between(model, async () => {
      await checker.post(`/${resource}/${id}/${approve}`, { id: asked }).expect(200);
    });
    const refused = await asker.put(`/${resource}/${id}`, raiseMore);
    expect([refused.status, refused.body.code, refused.body.message]).toEqual([409, 'RECORD_CHANGED', ERROR_MESSAGES.RECORD_CHANGED]);

    // the approved values are live, nothing waits, and the refused edit left no request and no audit
    const after = (await asker.get(`/${resource}/${id}`)).body;
    expect(live(after)).toEqual(live(raise));
    expect([after[field], (after[decision] as Body).id, (after[decision] as Body).status]).toEqual([null, asked, 'approved']);
    expect(approved).toEqual(live(body));
    expect((await requests(id)).map((r) => [r.key, r.state])).toEqual([[`change-request:${resource}:${asked}`, 'done']]);
    expect(await AuditEntryModel.countDocuments({ resource, record: id, action: 'update' })).toBe(1);
  });

  it('of two saves racing, the one that read the record before the other landed answers 409; the other stands, audited', async () => {
    const { asker, checker, checkerId } = await operators();
    const { body, raise, raiseMore } = await forms();
    const id = String((await asker.post(`/${resource}`, body).expect(201)).body.id);

    // the asker's save has read the record (nothing waiting); the checker's save lands first
    let landed = '';
    between(model, async () => {
      landed = changeOf((await checker.put(`/${resource}/${id}`, raise).expect(200)).body)!;
    });
    const refused = await asker.put(`/${resource}/${id}`, raiseMore);
    expect([refused.status, refused.body.code]).toEqual([409, 'RECORD_CHANGED']);

    // the checker's change waits, its request done and audited once as theirs; the refused save left nothing
    expect(changeOf((await asker.get(`/${resource}/${id}`)).body)).toBe(landed);
    expect((await requests(id)).map((r) => [r.key, r.state])).toEqual([[`change-request:${resource}:${landed}`, 'done']]);
    const audits = await AuditEntryModel.find({ resource, record: id, action: 'update' }).lean();
    expect(audits.map((entry) => [String(entry.account), entry.key])).toEqual([[checkerId, `change-request:${resource}:${landed}`]]);
  });
});
