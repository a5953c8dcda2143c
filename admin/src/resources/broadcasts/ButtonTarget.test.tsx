import { screen } from '@testing-library/react';
import { renderScreen } from '../../../test/renderScreen';

const NOTICE_EN = /This server has no public address \(PUBLIC_URL\), so a button cannot open the page named here/;

it('says beside the button fields, in English and in Persian, that without PUBLIC_URL a button opens the home page', async () => {
  renderScreen('/admin/broadcasts/create', { routes: { 'GET /broadcasts/button-target': { hasPublicUrl: false } } });
  expect(await screen.findByText(NOTICE_EN)).toBeInTheDocument();
});

it('says it in Persian too', async () => {
  renderScreen('/admin/broadcasts/create', { routes: { 'GET /broadcasts/button-target': { hasPublicUrl: false } }, locale: 'fa' });
  expect(await screen.findByText(/این سرور نشانی عمومی \(PUBLIC_URL\) ندارد/)).toBeInTheDocument();
});

it('says nothing when the server has its public address', async () => {
  const { sent } = renderScreen('/admin/broadcasts/create', {
    routes: { 'GET /broadcasts/button-target': { hasPublicUrl: true }, 'POST /broadcasts/count': { count: 3 } },
  });
  // the segment's count answers 400 ms after the form opens, long after the button's target did
  expect(await screen.findByText('This reaches 3 players who allow messages')).toBeInTheDocument();
  expect(sent('GET /broadcasts/button-target')).toHaveLength(1);
  expect(screen.queryByText(NOTICE_EN)).not.toBeInTheDocument();
});
