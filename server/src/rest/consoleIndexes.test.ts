import { Types } from 'mongoose';
import { createApp } from '../app';
import { createCoin, createPlayer } from '../../test/factories';
import { silentLogger, testEnv } from '../../test/helpers';
import { consoleApi, createOperator } from '../../test/operators';
import { adminResources } from './registry';

/**
 * Every list the console offers, in every order it offers and with every filter and search: the index test
 * (test/queryPlans.ts, run after every test file) fails this file if any of these queries has no index that
 * serves it. The answers themselves must be lists, so a refused sort or filter cannot pass unnoticed.
 */
const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
let api: ReturnType<typeof consoleApi>;

const sampleValue = { objectId: () => String(new Types.ObjectId()), boolean: () => true, equals: () => 'x', number: () => 1 } as Record<
  string,
  () => unknown
>;

beforeAll(async () => {
  api = consoleApi(app, (await createOperator(['*'])).token);
  // a few records, so lists are not answered from an empty collection
  await Promise.all([createPlayer(), createPlayer(), createCoin()]);
});

const lists = adminResources.filter((resource) => resource.name !== 'app-config');

describe.each(lists.map((resource) => [resource.name, resource] as const))('%s', (name, resource) => {
  it('answers every order it offers, both ways', async () => {
    for (const field of ['id', 'createdAt', ...(resource.list?.sortable ?? [])]) {
      for (const order of ['ASC', 'DESC']) {
        const res = await api.get(`/${name}`, { sort: [field, order], range: [0, 9] });
        expect(`${field} ${order}: ${res.status}`).toBe(`${field} ${order}: 200`);
      }
    }
  });

  it('answers every filter in its default order, and a search', async () => {
    for (const [field, kind] of Object.entries(resource.list?.filters ?? {})) {
      const res = await api.get(`/${name}`, { filter: { [field]: (sampleValue[kind] ?? sampleValue.equals)!() }, range: [0, 9] });
      expect(`${field}: ${res.status}`).toBe(`${field}: 200`);
    }
    if (resource.list?.searchFields?.length || resource.list?.searchReferences) {
      const res = await api.get(`/${name}`, { filter: { q: 'abc' }, range: [0, 9] });
      expect(res.status).toBe(200);
    }
  });

  it('refuses an order it does not offer', async () => {
    const res = await api.get(`/${name}`, { sort: ['updatedAt', 'ASC'] });
    expect(res.status).toBe(400);
  });
});
