import { screen, waitFor, within } from '@testing-library/react';
import { OPERATOR, rejectWithReason, renderScreen } from '../../../test/renderScreen';

const ASKER = { id: '65f0000000000000000000a9', username: 'shop-keeper' };
const OFFER = {
  id: '65f0000000000000000000f1',
  title: 'Double mining',
  description: '',
  fa: { title: '', description: '' },
  kind: 'multiplier',
  stars: 50,
  multiplierPercent: 200,
  order: 0,
  enabled: true,
  waitingChange: {
    id: '65f0000000000000000000d1',
    requestedBy: ASKER.id,
    requestedAt: '2026-11-27T10:40:00.000Z',
    set: { kind: 'multiplier', stars: 1, multiplierPercent: 1000, enabled: true },
  },
};
const DECIDED = { ...OFFER, waitingChange: null };

/** The offer's page as a second operator opens it, answering a decision with the offer as decided. */
function openOffer(locale: 'en' | 'fa' = 'en', offer: typeof OFFER = OFFER) {
  return renderScreen(`/admin/star-offers/${offer.id}`, {
    locale,
    routes: {
      [`GET /star-offers/${offer.id}`]: offer,
      [`GET /accounts/${ASKER.id}`]: ASKER,
      [`GET /accounts/${OPERATOR.id}`]: OPERATOR,
      [`POST /star-offers/${offer.id}/change/approve`]: { ...DECIDED, stars: 1, multiplierPercent: 1000 },
      [`POST /star-offers/${offer.id}/change/reject`]: DECIDED,
    },
  });
}

it('shows the boost waiting for a second operator and approves it only after the operator confirms', async () => {
  const { sent, user } = openOffer();
  const banner = await screen.findByTestId('change-waiting-banner');
  await within(banner).findByText(/shop-keeper/);
  expect(banner).toHaveTextContent('Asked: Mining multiplier 1000%; 1 Stars; On sale, shop-keeper, ');
  // the form still holds the live terms
  expect(screen.getByLabelText('Price (Stars)')).toHaveValue('50');

  await user.click(within(banner).getByRole('button', { name: 'Approve the change' }));
  const dialog = await screen.findByRole('dialog');
  expect(within(dialog).getByText('From now on: Mining multiplier 1000%; 1 Stars; On sale.')).toBeInTheDocument();
  expect(sent(`POST /star-offers/${OFFER.id}/change/approve`)).toHaveLength(0);
  await user.click(within(dialog).getByRole('button', { name: 'Approve the change' }));
  await waitFor(() => expect(sent(`POST /star-offers/${OFFER.id}/change/approve`)).toHaveLength(1));
  expect(sent(`POST /star-offers/${OFFER.id}/change/approve`)[0]!.body).toEqual({ id: OFFER.waitingChange.id });
  expect(await screen.findByText('The change is live')).toBeInTheDocument();
});

it('rejects the waiting boost with the reason typed', async () => {
  const { sent, user } = openOffer();
  const banner = await screen.findByTestId('change-waiting-banner');
  await rejectWithReason(user, banner, 'far too cheap');
  await waitFor(() => expect(sent(`POST /star-offers/${OFFER.id}/change/reject`)).toHaveLength(1));
  expect(sent(`POST /star-offers/${OFFER.id}/change/reject`)[0]!.body).toEqual({
    id: OFFER.waitingChange.id,
    rejectReason: 'far too cheap',
  });
  expect(await screen.findByText('Rejected: what is live stays')).toBeInTheDocument();
});

it('does not let the operator who asked approve it, and shows no banner when nothing waits', async () => {
  openOffer('en', { ...OFFER, waitingChange: { ...OFFER.waitingChange, requestedBy: OPERATOR.id } });
  const banner = await screen.findByTestId('change-waiting-banner');
  expect(within(banner).getByRole('button', { name: 'Approve the change' })).toBeDisabled();
});

it('writes the waiting boost in Persian digits', async () => {
  openOffer('fa');
  const banner = await screen.findByTestId('change-waiting-banner');
  await within(banner).findByText(/shop-keeper/);
  expect(banner.textContent).toContain('ضریب استخراج ۱۰۰۰%؛ ۱ ستاره؛ در فروش، shop-keeper، ');
});

it('shows the decision as icons an operator can see on a phone', async () => {
  // a phone's width: react-admin's buttons become icon buttons, which show their icon only when it is the button's child
  // jsdom has no matchMedia (MUI then takes every screen as wide): this one says a phone's
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    writable: true,
    value: (query: string) =>
      ({
        matches: query.includes('max-width'),
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as MediaQueryList,
  });
  try {
    openOffer();
    const banner = await screen.findByTestId('change-waiting-banner');
    for (const name of ['Approve the change', 'Reject'])
      expect(within(banner).getByRole('button', { name }).querySelector('svg')).not.toBeNull();
  } finally {
    Reflect.deleteProperty(window, 'matchMedia');
  }
});
