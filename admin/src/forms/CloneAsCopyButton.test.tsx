import { screen, waitFor } from '@testing-library/react';
import { renderScreen } from '../../test/renderScreen';
import { copyTitle } from './CloneAsCopyButton';

const MISSION = {
  id: 'm1',
  title: 'Join channel',
  fa: { title: 'عضویت در کانال', description: '' },
  description: '',
  category: 'c1',
  coin: 'g1',
  reward: '5',
  verifyType: 'telegram',
  enabled: true,
  mustDone: false,
  repeat: 'none',
  order: 1,
};

it('marks a copy in each language, the first mark no title has: (copy), then (copy 2)', () => {
  expect(copyTitle('Join channel', 'en', new Set(['Join channel']))).toBe('Join channel (copy)');
  expect(copyTitle('Join channel (copy)', 'en', new Set(['Join channel (copy)']))).toBe('Join channel (copy 2)');
  expect(copyTitle('عضویت در کانال', 'fa', new Set(['عضویت در کانال (کپی)']))).toBe('عضویت در کانال (کپی ۲)');
  // no Persian title: none is made up (players read the English one)
  expect(copyTitle('', 'fa', new Set())).toBe('');
});

it('opens a clone of a mission with its titles marked as a copy, never one another mission of the list has', async () => {
  let answerSearch = () => {};
  const searched = new Promise<void>((resolve) => (answerSearch = resolve));
  const { sent, user } = renderScreen('/admin/missions/m1', {
    routes: {
      'GET /missions/m1': MISSION,
      'GET /missions': async () => {
        await searched;
        return [MISSION, { ...MISSION, id: 'm2', title: 'Join channel (copy)', fa: { title: 'عضویت در کانال (کپی)' } }];
      },
    },
  });
  expect(await screen.findByDisplayValue('Join channel')).toBeInTheDocument();
  // off until the search has answered: pressed before, the copy would be marked without the copies already made
  expect(await screen.findByRole('link', { name: 'Clone' })).toHaveAttribute('aria-disabled', 'true');
  answerSearch();
  await waitFor(() => expect(screen.getByRole('link', { name: 'Clone' })).not.toHaveAttribute('aria-disabled'));
  await user.click(screen.getByRole('link', { name: 'Clone' }));
  expect(await screen.findByLabelText('Title')).toHaveValue('Join channel (copy 2)');
  expect(screen.getByLabelText('Title in Persian')).toHaveValue('عضویت در کانال (کپی ۲)');
  expect(window.location.pathname).toBe('/admin/missions/create');
  // the titles were looked up by the list's search, for the original's title
  expect(JSON.parse(sent('GET /missions').at(-1)!.query.get('filter')!)).toEqual({ q: 'Join channel' });
});
