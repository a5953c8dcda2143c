import { screen, waitFor } from '@testing-library/react';
import { renderScreen, type SentRequest } from '../../../test/renderScreen';

const ID = 'a'.repeat(24);
const CATEGORY = { id: 'c'.repeat(24), title: 'Telegram' };
const COIN = { id: 'd'.repeat(24), symbol: 'GIFT' };
/** An emoji status mission saved before its emoji was chosen. */
const MISSION = {
  id: ID,
  category: CATEGORY.id,
  coin: COIN.id,
  title: 'Wear our emoji',
  description: '',
  link: '',
  image: '',
  reward: '5',
  verifyType: 'emojiStatus',
  verifyDuration: 0,
  emojiId: '',
  fa: {},
  proof: [],
  repeat: 'none',
  order: 0,
  enabled: false,
  mustDone: false,
  cap: null,
  startsAt: null,
  endsAt: null,
  waiting: null,
};
const ROUTES = {
  [`GET /missions/${ID}`]: MISSION,
  [`PUT /missions/${ID}`]: (request: SentRequest) => ({ ...MISSION, ...(request.body as object) }),
  'GET /categories': [CATEGORY],
  'GET /gift-coins': [COIN],
};

it('an emoji status mission needs its custom emoji id, a number, before anything is sent', async () => {
  const { user, sent } = renderScreen(`/admin/missions/${ID}`, { routes: ROUTES });
  const emoji = await screen.findByLabelText('Custom emoji id');
  await user.type(emoji, '🔥');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByText('A custom emoji id is a number, for example 5368324170671202286')).toBeInTheDocument();
  await user.clear(emoji);
  await user.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByText('An emoji status mission needs its custom emoji id')).toBeInTheDocument();
  expect(sent(`PUT /missions/${ID}`)).toHaveLength(0);

  await user.type(emoji, '5368324170671202286');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(sent(`PUT /missions/${ID}`)).toHaveLength(1));
  expect(sent(`PUT /missions/${ID}`)[0]!.body).toMatchObject({ verifyType: 'emojiStatus', emojiId: '5368324170671202286' });
});

it('says the same in Persian, beside the Persian label', async () => {
  const { user, sent } = renderScreen(`/admin/missions/${ID}`, { routes: ROUTES, locale: 'fa' });
  const emoji = await screen.findByLabelText('شناسهٔ اموجی سفارشی');
  await user.type(emoji, 'x');
  await user.click(screen.getByRole('button', { name: 'ذخیره' }));
  expect(await screen.findByText('شناسهٔ اموجی سفارشی یک عدد است، برای مثال 5368324170671202286')).toBeInTheDocument();
  expect(sent(`PUT /missions/${ID}`)).toHaveLength(0);
});
