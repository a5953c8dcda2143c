import { screen } from '@testing-library/react';
import { renderScreen } from '../../../test/renderScreen';

const APPEAL = {
  id: '65f0000000000000000000f1',
  user: '65f0000000000000000000c1',
  userName: 'Sara',
  username: 'sara',
  playerStatus: 'banned',
  standing: 'banned',
  standingReason: 'Several accounts',
  text: 'I am one person with one phone.',
  status: 'open',
  answer: '',
  answeredBy: '',
  createdAt: '2026-11-27T09:00:00.000Z',
};

it.each([
  ['en', 'Save', 'Delete'],
  ['fa', 'ذخیره', 'حذف'],
] as const)('answers an appeal in %s with Save and offers no Delete: an appeal stays on record', async (locale, save, remove) => {
  renderScreen(`/admin/appeals/${APPEAL.id}`, { locale, routes: { [`GET /appeals/${APPEAL.id}`]: APPEAL } });
  await screen.findByText(APPEAL.text);
  expect(await screen.findByRole('button', { name: save })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: remove })).not.toBeInTheDocument();
});
