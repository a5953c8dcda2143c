import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError, type AuthProvider, type DataProvider } from 'react-admin';
import { App } from '../../App';

const COIN = { id: 'c'.repeat(24), name: 'Gift Coin', symbol: 'GIFT' };
const OFFER = {
  id: 'a'.repeat(24),
  coin: COIN.id,
  minAmount: '100',
  maxAmount: '1000',
  profits: { week: '1', month: '', threeMonths: '', sixMonths: '', year: '' },
  order: 0,
  enabled: true,
};

function api(update: DataProvider['update']): DataProvider {
  return {
    getList: async () => ({ data: [COIN], total: 1 }),
    getOne: async () => ({ data: OFFER }),
    getMany: async () => ({ data: [COIN] }),
    getManyReference: async () => ({ data: [], total: 0 }),
    create: async () => ({ data: OFFER }),
    update,
    updateMany: async () => ({ data: [] }),
    delete: async () => ({ data: OFFER }),
    deleteMany: async () => ({ data: [] }),
  } as DataProvider;
}

const operator: AuthProvider = {
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  getIdentity: async () => ({ id: 'a1', fullName: 'maria' }),
  getPermissions: async () => ['*'],
  canAccess: async () => true,
};

jest.setTimeout(30_000);

/** The offer's edit form, saved through `update`, once its 1-week profit field shows. */
function openOffer(update: jest.Mock) {
  render(<App dataProvider={api(update as never)} authProvider={operator} />);
  return screen.findByLabelText('Profit % — 1 week', undefined, { timeout: 8000 });
}

/** What an operator types in a field, in place of what it held. */
async function retype(field: HTMLElement, text: string) {
  await userEvent.clear(field);
  await userEvent.type(field, text);
}
beforeEach(() => window.history.replaceState({}, '', `/admin/staking-coins/${OFFER.id}`));

it('marks the nested profit field with the shared schema, before anything is sent', async () => {
  const update = jest.fn(async () => ({ data: OFFER }));
  const week = await openOffer(update);
  await retype(week, 'abc');
  await userEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByText('Enter a percent like 5 or 12.5')).toBeInTheDocument();
  expect(week).toHaveAttribute('aria-invalid', 'true');
  expect(update).not.toHaveBeenCalled();
});

it("puts the server's flat 'profits.week' error on its nested field", async () => {
  const update = jest.fn(async () => {
    throw new HttpError('Invalid input', 400, {
      message: 'Invalid input',
      code: 'BAD_INPUT',
      errors: { 'profits.week': 'Refused by the server' },
    });
  });
  const week = await openOffer(update);
  await retype(week, '7');
  await userEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByText('Refused by the server')).toBeInTheDocument();
  await waitFor(() => expect(week).toHaveAttribute('aria-invalid', 'true'));
  expect(update).toHaveBeenCalledTimes(1);
});

it('reads amounts and percents typed with Persian digits and the Persian decimal separator', async () => {
  const update = jest.fn(async () => ({ data: OFFER }));
  const week = await openOffer(update);
  const minimum = screen.getByLabelText('Minimum amount');
  await retype(minimum, '۲۵۰');
  expect(minimum).toHaveValue('250');
  await retype(week, '۱۲٫۵');
  await userEvent.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(update).toHaveBeenCalled());
  expect(update).toHaveBeenCalledWith(
    'staking-coins',
    expect.objectContaining({ data: expect.objectContaining({ minAmount: '250', profits: expect.objectContaining({ week: '12.5' }) }) }),
  );
});
