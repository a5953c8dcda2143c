import { createApp } from '../../app';
import { silentLogger, testEnv } from '../../../test/helpers';
import { consoleApi, createOperator } from '../../../test/operators';
import { AccountModel } from './account.model';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

/** Every operator here may use the accounts resource; what differs is the rest of their access. */
const OPERATORS: string[][] = [
  ['accounts:write'],
  ['accounts:write', 'users:read'],
  ['accounts:write', 'users:write'],
  ['accounts:write', 'users:write', 'withdraws:write'],
  ['*'],
];
const TARGETS: string[][] = [
  [],
  ['users:read'],
  ['users:write'],
  ['withdraws:read'],
  ['accounts:write'],
  ['accounts:write', 'users:write'],
  ['users:read', 'withdraws:write'],
  ['*'],
];

/** The rule of issue 6, restated: the operator holds each of the target's permissions ('*' only by '*'; read also by write). */
function holdsAll(operator: string[], target: string[]): boolean {
  if (operator.includes('*')) return true;
  return target.every(
    (p) => p !== '*' && (operator.includes(p) || (p.endsWith(':read') && operator.includes(p.replace(/:read$/, ':write')))),
  );
}

describe('the accounts resource, for each pair of operator and target permissions', () => {
  for (const operator of OPERATORS) {
    for (const target of TARGETS) {
      const allowed = holdsAll(operator, target);
      it(`[${operator.join(' ')}] ${allowed ? 'may' : 'may not'} rename, set the password of, demote, disable or delete [${target.join(' ')}]`, async () => {
        const actor = await createOperator(operator);
        const subject = await createOperator(target);
        const api = consoleApi(app, actor.token);
        const record = (await api.get(`/accounts/${subject.id}`)).body;
        const expected = allowed ? 200 : 403;

        const outcomes = {
          rename: (await api.put(`/accounts/${subject.id}`, { ...record, username: `${record.username}_r` })).status,
          password: (await api.put(`/accounts/${subject.id}`, { ...record, password: 'set by another operator' })).status,
          demote: (await api.put(`/accounts/${subject.id}`, { ...record, permissions: [] })).status,
          disable: (await api.put(`/accounts/${subject.id}`, { ...record, enabled: false })).status,
          delete: (await api.delete(`/accounts/${subject.id}`)).status,
        };
        expect(outcomes).toEqual({ rename: expected, password: expected, demote: expected, disable: expected, delete: expected });
        const stored = await AccountModel.findById(subject.id).lean();
        if (allowed) expect(stored).toBeNull();
        else expect(stored).toMatchObject({ username: record.username, enabled: true, permissions: target, passwordChangedAt: null });
      });
    }
  }
});
