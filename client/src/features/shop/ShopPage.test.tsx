import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp, renderAppInPersian, signedInPlayer } from '../../../test/renderApp';
import { launchInTelegram } from '../../../test/telegramLaunch';
import { initI18n, setLanguage } from '../../lib/i18n';
import { invoiceSlug } from '../../lib/telegramInvoice';

const OFFERS = [
  {
    id: '65f0000000000000000000a1',
    kind: 'multiplier' as const,
    title: 'Double mining',
    description: '',
    stars: 50,
    multiplierPercent: 150,
  },
  {
    id: '65f0000000000000000000a2',
    kind: 'streakFreeze' as const,
    title: 'Streak freeze',
    description: 'Miss a day',
    stars: 1200,
    multiplierPercent: null,
  },
];

beforeAll(() => initI18n());
afterEach(() => setLanguage('en'));

it('reads the slug after $ or /invoice/ in the link the bot made', () => {
  expect(invoiceSlug('https://t.me/$AbC-12_x')).toBe('AbC-12_x');
  expect(invoiceSlug('https://t.me/invoice/AbC12')).toBe('AbC12');
  expect(invoiceSlug('https://example.com/pay')).toBe('');
});

it('outside Telegram lists the items with their Stars and says purchases need Telegram, with Buy off', async () => {
  const server = renderApp('/shop', {
    ...signedInPlayer,
    'shop.offers': () => OFFERS,
    'shop.boosts': () => ({ multipliers: [], streakFreezes: 0 }),
  });
  expect(await screen.findByTestId('needs-telegram')).toHaveTextContent(
    'Purchases need Telegram: open the app in Telegram to pay with Stars.',
  );
  const buttons = await screen.findAllByRole('button', { name: /^Buy / });
  expect(buttons.map((b) => b.textContent)).toEqual(['Buy for 50 Stars', 'Buy for 1,200 Stars']);
  expect(buttons.every((b) => (b as HTMLButtonElement).disabled)).toBe(true);
  expect(screen.getByText('×1.5 on your next mining session')).toBeInTheDocument();
  expect(server.calls.filter((call) => call.path === 'shop.invoice')).toHaveLength(0);
});

describe('inside Telegram', () => {
  it('asks one invoice for a double tap, opens it with web_app_open_invoice, and shows the boost once paid', async () => {
    const telegram = launchInTelegram({ version: '8.0' });
    try {
      let granted = false;
      const server = renderApp('/shop', {
        ...signedInPlayer,
        'shop.offers': () => OFFERS,
        'shop.boosts': () => ({ multipliers: granted ? [150] : [], streakFreezes: 0 }),
        'shop.invoice': () => ({ invoiceLink: 'https://t.me/$slug42', purchaseId: 'p1' }),
      });
      const offer = (await screen.findAllByTestId('shop-offer'))[0]!;
      await userEvent.dblClick(within(offer).getByRole('button', { name: 'Buy Double mining for 50 Stars' }));
      await waitFor(() =>
        expect(telegram.postedOf('web_app_open_invoice')).toEqual([{ type: 'web_app_open_invoice', data: { slug: 'slug42' } }]),
      );
      expect(server.calls.filter((call) => call.path === 'shop.invoice')).toHaveLength(1);
      expect(server.calls.find((call) => call.path === 'shop.invoice')?.input).toEqual({ offerId: OFFERS[0]!.id });
      // another invoice's closing is not this one's
      act(() => telegram.event('invoice_closed', { slug: 'other', status: 'paid' }));
      expect(screen.queryByText('Paid: your boost arrives in a moment')).not.toBeInTheDocument();
      granted = true;
      act(() => telegram.event('invoice_closed', { slug: 'slug42', status: 'paid' }));
      expect(await screen.findByText('Paid: your boost arrives in a moment')).toBeInTheDocument();
      expect(await screen.findByTestId('waiting-multiplier')).toHaveTextContent('×1.5 for your next mining session');
    } finally {
      telegram.end();
    }
  });

  it('says a cancelled purchase was cancelled, in Persian with Persian digits', async () => {
    const telegram = launchInTelegram({ version: '8.0' });
    try {
      await renderAppInPersian('/shop', {
        ...signedInPlayer,
        'shop.offers': () => OFFERS,
        'shop.boosts': () => ({ multipliers: [], streakFreezes: 2 }),
        'shop.invoice': () => ({ invoiceLink: 'https://t.me/$slug7', purchaseId: 'p2' }),
      });
      expect(await screen.findByTestId('freezes')).toHaveTextContent('محافظ زنجیره: ۲');
      const buttons = await screen.findAllByRole('button', { name: /^خرید/ });
      expect(buttons[1]).toHaveTextContent('خرید با ۱٬۲۰۰ ستاره');
      await userEvent.click(buttons[1]!);
      await waitFor(() => expect(telegram.postedOf('web_app_open_invoice')).toHaveLength(1));
      act(() => telegram.event('invoice_closed', { slug: 'slug7', status: 'cancelled' }));
      expect(await screen.findByText('خرید لغو شد')).toBeInTheDocument();
    } finally {
      telegram.end();
    }
  });
});
