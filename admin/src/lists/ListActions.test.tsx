import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen } from '../../test/renderScreen';

/** The CSV texts the console handed the browser to download (react-admin's downloadCSV makes a Blob URL of each). */
function capturedDownloads() {
  const blobs: Blob[] = [];
  Object.defineProperty(URL, 'createObjectURL', {
    configurable: true,
    value: (blob: Blob) => {
      blobs.push(blob);
      return 'blob:console.test/export';
    },
  });
  // the download link's click would navigate jsdom
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
  const text = (blob: Blob) =>
    new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.readAsText(blob);
    });
  return async () => Promise.all(blobs.map(text));
}

const PENDING = [
  {
    id: 'w1',
    user: 'u1',
    userName: 'Sara, the "farmer"',
    username: 'sara',
    playerRisk: { score: 104, level: 'high' },
    amount: '1645.123456',
    coin: 'c1',
    coinSymbol: 'GIFT',
    address: 'UQ-sara',
    status: 'pending',
    chainState: '',
    txHash: '',
    processedAt: null,
    createdAt: '2026-03-01T10:00:00.000Z',
  },
  {
    id: 'w2',
    user: 'u2',
    userName: '=HYPERLINK("x")',
    username: '',
    playerRisk: null,
    amount: '0.5',
    coin: 'c1',
    coinSymbol: 'GIFT',
    address: 'UQ-other',
    status: 'pending',
    chainState: 'bounced',
    txHash: '',
    processedAt: null,
    createdAt: '2026-03-02T08:30:00.000Z',
  },
];

describe("a list's Export button", () => {
  it('downloads a CSV of the records under the list’s filters and sort, in words a person reads', async () => {
    const downloads = capturedDownloads();
    const { sent, user } = renderScreen('/admin/withdraw?filter=%7B%22q%22%3A%22sa%22%7D', {
      routes: { 'GET /withdraws': PENDING },
    });
    await screen.findByText('1645.123456 GIFT');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(async () => expect(await downloads()).toHaveLength(1));
    const exported = sent('GET /withdraws').find((request) => request.query.get('range') === '[0,999]')!;
    // the list's own filter (its tab), the search typed, and its sort: the rows are the list's
    expect(JSON.parse(exported.query.get('filter')!)).toEqual({ q: 'sa', status: 'pending' });
    expect(JSON.parse(exported.query.get('sort')!)).toEqual(['createdAt', 'ASC']);
    const [csv] = await downloads();
    expect(csv!.split('\r\n')).toEqual([
      'Id,User,Risk,Risk level,Withdraw amount,Token,Wallet address,Status,On chain,Transaction hash,Processed,Created',
      'w1,"Sara, the ""farmer"" (@sara)",104,High,1645.123456,GIFT,UQ-sara,Pending,,,,2026-03-01T10:00:00.000Z',
      // a name a spreadsheet would run as a formula is written as text
      `w2,"'=HYPERLINK(""x"")",,,0.5,GIFT,UQ-other,Pending,Bounced,,,2026-03-02T08:30:00.000Z`,
      '',
    ]);
  });

  it('is on every list, with react-admin’s saved views and, on the wide ones, a column chooser', async () => {
    const { user } = renderScreen('/admin/missions', {
      routes: {
        'GET /missions': [
          {
            id: 'm1',
            title: 'Join the channel',
            category: 'k1',
            verifyType: 'telegram',
            reward: '5',
            coin: 'c1',
            mustDone: false,
            completions: 3,
            enabled: true,
            order: 1,
            createdAt: '2026-03-01T10:00:00.000Z',
          },
        ],
      },
    });
    await screen.findByText('Join the channel');
    expect(screen.getByRole('button', { name: 'Export' })).toBeEnabled();
    // the column chooser hides a column, and the table follows
    expect(screen.getByRole('columnheader', { name: /Verify type/ })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    await user.click(within(await screen.findByRole('presentation')).getByLabelText('Verify type'));
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: /Verify type/ })).not.toBeInTheDocument());
  });
});
