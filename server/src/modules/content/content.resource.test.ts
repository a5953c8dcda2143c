import { createApp } from '../../app';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createCoin } from '../../../test/factories';
import { operatorConsole } from '../../../test/operators';
import { MissionModel } from '../missions/mission.models';
import { CategoryModel } from './content.models';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

describe('categories, covers and partners in the console', () => {
  const api = operatorConsole(app, ['categories:write', 'covers:write', 'partners:write']);

  it('refuses to delete a category that still holds missions, and deletes it once empty', async () => {
    const coin = await createCoin();
    const { body: category } = await api.post('/categories', { title: 'Socials' });
    for (const title of ['Follow', 'Share'])
      await MissionModel.create({ category: category.id, coin: coin._id, title, reward: 1_000_000, verifyType: 'auto' });

    const refused = await api.delete(`/categories/${category.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      message: 'Cannot delete: it is still used by 2 missions',
      code: 'IN_USE',
      params: { uses: '2 missions' },
    });
    expect(await CategoryModel.exists({ _id: category.id })).toBeTruthy();

    await MissionModel.deleteMany({ category: category.id });
    expect((await api.delete(`/categories/${category.id}`)).status).toBe(200);
    expect(await CategoryModel.exists({ _id: category.id })).toBeNull();
  });

  it.each([
    ['categories', 'title', (text: string, order: number, enabled: boolean) => ({ title: text, order, enabled })],
    [
      'covers',
      'title',
      (text: string, order: number, enabled: boolean) => ({ title: text, image: 'https://example.com/c.png', order, enabled }),
    ],
    [
      'partners',
      'name',
      (text: string, order: number, enabled: boolean) => ({ name: text, image: 'https://example.com/p.png', order, enabled }),
    ],
  ])('%s: searches the %s, filters enabled ones and sorts by order', async (resource, field, body) => {
    await api.post(`/${resource}`, body('Lunar one', 3, true));
    await api.post(`/${resource}`, body('Lunar two', 1, false));
    await api.post(`/${resource}`, body('Lunar three', 2, true));
    await api.post(`/${resource}`, body('Solar', 0, true));
    const found = await api.get(`/${resource}`, { filter: { q: 'lunar' }, sort: ['order', 'ASC'] });
    expect(found.body.map((r: Record<string, string>) => r[field])).toEqual(['Lunar two', 'Lunar three', 'Lunar one']);
    const enabled = await api.get(`/${resource}`, { filter: { q: 'lunar', enabled: true }, sort: [field, 'DESC'] });
    expect(enabled.body.map((r: Record<string, string>) => r[field])).toEqual(['Lunar three', 'Lunar one']);
  });
});
