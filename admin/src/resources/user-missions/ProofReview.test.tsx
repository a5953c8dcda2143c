import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ProgressRecord } from '@gift/server';
import { refusal, renderScreen, type SentRequest } from '../../../test/renderScreen';

const claim = (id: string, reward: string, text: string): ProgressRecord => ({
  id,
  user: 'u1',
  mission: 'm1',
  category: 'k1',
  status: 'pending',
  startedAt: '2026-03-01T09:00:00.000Z',
  claimedAt: '2026-03-01T09:05:00.000Z',
  doneAt: null,
  reward,
  coin: 'c1',
  coinSymbol: 'GIFT',
  rejectReason: '',
  rejectReasonFa: '',
  proof: { link: 'https://t.me/giftchannel/12', text, imageId: '' },
  lockedBy: null,
  lockedByName: '',
  lockedUntil: null,
  reviewedBy: null,
  firstApprovedBy: null,
  firstApprovedAt: null,
  reviewerName: '',
  createdAt: '2026-03-01T09:00:00.000Z',
  updatedAt: '2026-03-01T09:05:00.000Z',
});

/** The pending queue, in the order the server answers it. */
const QUEUE = [claim('p1', '5', 'I joined as @ali'), claim('p2', '5', 'Joined, see my name'), claim('p3', '250', 'Big one')];

const byId = (path: string) => QUEUE.find((record) => `/user-missions/${record.id}` === path)!;
const filterOf = (request: SentRequest) => JSON.parse(request.query.get('filter') ?? '{}') as { status?: string };

function reviewRoutes(decision: unknown = (request: SentRequest) => ({ ...byId(request.path), ...(request.body as object) })) {
  return {
    'GET /user-missions': (request: SentRequest) => QUEUE.filter((record) => record.status === filterOf(request).status),
    ...Object.fromEntries(QUEUE.map((record) => [`GET /user-missions/${record.id}`, record])),
    ...Object.fromEntries(QUEUE.map((record) => [`PUT /user-missions/${record.id}`, decision])),
    'GET /missions': [
      {
        id: 'm1',
        title: 'Join our channel',
        description: 'Join @giftchannel, then send the link to your message',
        link: 'https://t.me/giftchannel',
      },
    ],
    'GET /users': [{ id: 'u1', name: 'Ali Rezaei', username: 'ali' }],
    'GET /gift-coins/c1': { id: 'c1', name: 'Gift Coin', symbol: 'GIFT', giftApprovalAbove: '100' },
  };
}

/** A key pressed where no field has the focus, as a Persian keyboard layout sends it: the key's place (`code`), another letter. */
const press = (code: string, key: string) => fireEvent.keyDown(document.body, { code, key });

const openClaim = async (id: string, locale: 'en' | 'fa' = 'en', routes: Record<string, unknown> = reviewRoutes()) => {
  const screenApi = renderScreen(`/admin/user-missions/${id}`, { routes, locale });
  await screen.findByTestId('proof-review');
  // the queue is read before a key can move through it
  await waitFor(() => expect(screenApi.sent('GET /user-missions').length).toBeGreaterThan(0));
  return screenApi;
};

const path = () => window.location.pathname;

describe('one claim', () => {
  it("shows the mission's instructions beside the player's proof, and the keys", async () => {
    await openClaim('p1');
    const review = screen.getByTestId('proof-review');
    expect(await within(review).findByText('Join our channel')).toBeInTheDocument();
    expect(within(review).getByText('Join @giftchannel, then send the link to your message')).toBeInTheDocument();
    expect(within(review).getByTestId('proof-link')).toHaveAttribute('href', 'https://t.me/giftchannel/12');
    expect(within(review).getByTestId('proof-text')).toHaveTextContent('I joined as @ali');
    expect(within(review).getByRole('button', { name: 'Approve (A) · +5 GIFT' })).toBeEnabled();
    expect(within(review).getByText(/^Keys: A approves/)).toBeInTheDocument();
  });

  it("shows the proof's screenshot, read with the operator's token", async () => {
    // jsdom has no object URLs: the picture's address is a stand-in
    Object.assign(URL, { createObjectURL: () => 'blob:proof', revokeObjectURL: () => undefined });
    const withImage = { ...QUEUE[0]!, proof: { link: '', text: '', imageId: 'img1' } };
    const { sent } = await openClaim('p1', 'en', {
      ...reviewRoutes(),
      'GET /user-missions/p1': withImage,
      'GET /proofs/img1': new Blob(['png'], { type: 'image/png' }),
    });
    expect(await screen.findByRole('img', { name: 'Screenshot' })).toHaveAttribute('src', 'blob:proof');
    expect(sent('GET /proofs/img1')[0]!.headers.get('Authorization')).toBe('Bearer test-token');
  });

  it('says when the screenshot cannot be read', async () => {
    const withImage = { ...QUEUE[0]!, proof: { link: '', text: '', imageId: 'gone' } };
    await openClaim('p1', 'en', {
      ...reviewRoutes(),
      'GET /user-missions/p1': withImage,
      'GET /proofs/gone': refusal(404, 'Not found', 'NOT_FOUND'),
    });
    expect(await screen.findByText('The screenshot could not be loaded')).toBeInTheDocument();
  });

  it('A approves by the key\'s place (ش on a Persian layout): PUT /user-missions/p1 { status: "done" }, then the next claim opens', async () => {
    const { sent } = await openClaim('p1');
    press('KeyA', 'ش');
    await waitFor(() => expect(sent('PUT /user-missions/p1')).toHaveLength(1));
    expect(sent('PUT /user-missions/p1')[0]!.body).toEqual({ status: 'done' });
    expect(await screen.findByText('Approved: the reward is credited')).toBeInTheDocument();
    await waitFor(() => expect(path()).toBe('/admin/user-missions/p2'));
  });

  it('R goes to the reason and Enter rejects with it; without a reason nothing is sent', async () => {
    const { sent, user } = await openClaim('p1');
    await user.click(screen.getByRole('button', { name: 'Reject (R, then Enter)' }));
    expect(await screen.findByText('Write why, for the player: then reject')).toBeInTheDocument();
    expect(sent('PUT /user-missions/p1')).toHaveLength(0);

    // the refusal put the focus on the reason: Escape leaves it, R comes back to it
    const reason = screen.getByLabelText('Reject reason');
    expect(reason).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(reason).not.toHaveFocus();
    press('KeyR', 'ق');
    expect(reason).toHaveFocus();
    await user.type(reason, 'The link is to another channel{Enter}');
    await waitFor(() => expect(sent('PUT /user-missions/p1')).toHaveLength(1));
    expect(sent('PUT /user-missions/p1')[0]!.body).toEqual({ status: 'rejected', rejectReason: 'The link is to another channel' });
    expect(await screen.findByText('Rejected: the player sees why')).toBeInTheDocument();
  });

  it('J opens the next claim waiting and K the previous one', async () => {
    const { sent } = await openClaim('p2');
    press('KeyJ', 'ت');
    await waitFor(() => expect(path()).toBe('/admin/user-missions/p3'));
    expect(await screen.findByText('Big one')).toBeInTheDocument();
    press('KeyK', 'ن');
    await waitFor(() => expect(path()).toBe('/admin/user-missions/p2'));
    expect(sent('PUT /user-missions/p2')).toHaveLength(0);
  });

  it("asks first when the reward is above its coin's threshold, and sends nothing until confirmed", async () => {
    const { sent, user } = await openClaim('p3');
    await screen.findByRole('button', { name: 'Approve (A) · +250 GIFT' });
    // the coin's threshold is read before the approval is decided
    await waitFor(() => expect(sent('GET /gift-coins/c1')).toHaveLength(1));
    press('KeyA', 'a');
    const dialog = await screen.findByRole('dialog');
    expect(sent('PUT /user-missions/p3')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Approve (credits the reward)' }));
    await waitFor(() => expect(sent('PUT /user-missions/p3')).toHaveLength(1));
    expect(sent('PUT /user-missions/p3')[0]!.body).toEqual({ status: 'done' });
  });

  it("shows the server's 409 and stays on the claim", async () => {
    const message = 'Only a pending mission can be approved or rejected; this one is done';
    const { sent } = await openClaim('p1', 'en', reviewRoutes(refusal(409, message, 'MISSION_NOT_PENDING')));
    press('KeyA', 'a');
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(sent('PUT /user-missions/p1')).toHaveLength(1);
    expect(path()).toBe('/admin/user-missions/p1');
  });

  it('in Persian: ← opens the next claim (right to left), and A approves', async () => {
    const { sent } = await openClaim('p1', 'fa');
    expect(await screen.findByRole('button', { name: /^تأیید \(A\)/ })).toBeInTheDocument();
    press('ArrowLeft', 'ArrowLeft');
    await waitFor(() => expect(path()).toBe('/admin/user-missions/p2'));
    await screen.findByText('Joined, see my name');
    press('KeyA', 'ش');
    await waitFor(() => expect(sent('PUT /user-missions/p2')).toHaveLength(1));
  });
});

describe('the pending queue, in bulk', () => {
  const bulkRoutes = (answer: unknown) => ({ ...reviewRoutes(), 'POST /user-missions/bulk-review': answer });

  const selectAll = async (user: ReturnType<typeof renderScreen>['user']) => {
    // the three claims listed, each with its mission
    await waitFor(() => expect(screen.getAllByText('Join our channel')).toHaveLength(3));
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
  };

  it('approves every selected claim in one request after a confirmation naming how many', async () => {
    const { sent, user } = renderScreen('/admin/user-missions', {
      routes: bulkRoutes({
        reviewed: ['p1', 'p2'],
        refused: { p3: 'Only a pending mission can be approved or rejected; this one is done' },
      }),
    });
    await selectAll(user);
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Approve 3 missions')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(sent('POST /user-missions/bulk-review')).toHaveLength(1));
    expect(sent('POST /user-missions/bulk-review')[0]!.body).toEqual({ ids: ['p1', 'p2', 'p3'], status: 'done' });
    expect(
      await screen.findByText('Approved 2; 1 not changed: Only a pending mission can be approved or rejected; this one is done'),
    ).toBeInTheDocument();
  });

  it('rejects the selected claims with the reason the players read', async () => {
    const { sent, user } = renderScreen('/admin/user-missions', { routes: bulkRoutes({ reviewed: ['p1', 'p2', 'p3'], refused: {} }) });
    await selectAll(user);
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByLabelText('Reject reason'));
    await user.paste('No proof of joining');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(sent('POST /user-missions/bulk-review')).toHaveLength(1));
    expect(sent('POST /user-missions/bulk-review')[0]!.body).toEqual({
      ids: ['p1', 'p2', 'p3'],
      status: 'rejected',
      rejectReason: 'No proof of joining',
    });
    expect(await screen.findByText('Rejected 3')).toBeInTheDocument();
  });
});

describe('team review', () => {
  const HELD_UNTIL = new Date(Date.now() + 4 * 60_000).toISOString();
  // the server's 409 names the holder in its params, with the whole time for the console's clock
  const heldByBob = refusal(409, 'Being reviewed by bob until 09:09 UTC: choose another claim', 'CLAIM_LOCKED', {
    name: 'bob',
    until: '09:09',
    at: HELD_UNTIL,
  });

  const REASONS = [
    { id: 'r1', en: 'The screenshot does not show the channel', fa: 'تصویر کانال را نشان نمی‌دهد' },
    { id: 'r2', en: 'The link is to another account', fa: 'پیوند به حساب دیگری است' },
  ];

  it('opening a claim holds it for the reviewer, and moving on lets it go and holds the next', async () => {
    const { sent } = await openClaim('p1', 'en', {
      ...reviewRoutes(),
      'POST /user-missions/p1/lock': {},
      'POST /user-missions/p2/lock': {},
    });
    await waitFor(() => expect(sent('POST /user-missions/p1/lock')).toHaveLength(1));
    press('KeyJ', 'ت');
    await waitFor(() => expect(sent('POST /user-missions/p2/lock')).toHaveLength(1));
    expect(sent('DELETE /user-missions/p1/lock')).toHaveLength(1);
  });

  it("another reviewer's claim says who has it, and neither the buttons nor A decide it", async () => {
    const { sent, user } = await openClaim('p1', 'en', {
      ...reviewRoutes(),
      'POST /user-missions/p1/lock': heldByBob,
    });
    expect(await screen.findByTestId('claim-locked')).toHaveTextContent(/^Being reviewed by bob/);
    expect(screen.getByRole('button', { name: 'Approve (A) · +5 GIFT' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Reject (R, then Enter)' })).toBeDisabled();
    press('KeyA', 'ش');
    await user.keyboard('{Escape}');
    expect(sent('PUT /user-missions/p1')).toHaveLength(0);
  });

  it('J passes over a claim another reviewer has open', async () => {
    const held = { ...QUEUE[1]!, lockedBy: 'a2', lockedByName: 'bob', lockedUntil: HELD_UNTIL };
    const queue = [QUEUE[0]!, held, QUEUE[2]!];
    await openClaim('p1', 'en', { ...reviewRoutes(), 'GET /user-missions': queue });
    press('KeyJ', 'ت');
    await waitFor(() => expect(path()).toBe('/admin/user-missions/p3'));
  });

  it.each([
    ['en', 'The link is to another account', 'Reject (R, then Enter)'],
    ['fa', 'پیوند به حساب دیگری است', 'رد (R، سپس Enter)'],
  ] as const)('rejects with a canned reason picked in the %s console: the server gets its id', async (locale, shown, rejectLabel) => {
    const { sent, user } = await openClaim('p1', locale, { ...reviewRoutes(), 'GET /user-missions/reject-reasons': REASONS });
    const picker = await screen.findByTestId('canned-reason');
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(3));
    await user.selectOptions(picker, within(picker).getByRole('option', { name: shown }));
    // a canned reason replaces the written one
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: rejectLabel }));
    await waitFor(() => expect(sent('PUT /user-missions/p1')).toHaveLength(1));
    expect(sent('PUT /user-missions/p1')[0]!.body).toEqual({ status: 'rejected', reasonId: 'r2' });
  });

  it('opens the screenshot full size, zooms it with the buttons and the wheel, and keeps the review keys off until Esc', async () => {
    Object.assign(URL, { createObjectURL: () => 'blob:proof', revokeObjectURL: () => undefined });
    const withImage = { ...QUEUE[0]!, proof: { link: '', text: '', imageId: 'img1' } };
    const { sent, user } = await openClaim('p1', 'en', {
      ...reviewRoutes(),
      'GET /user-missions/p1': withImage,
      'GET /proofs/img1': new Blob(['png'], { type: 'image/png' }),
    });
    // the picture itself opens it (as does the button under it)
    await user.click(await screen.findByRole('button', { name: 'Screenshot' }));
    const dialog = await screen.findByRole('dialog');
    const level = within(dialog).getByTestId('proof-zoom-level');
    expect(level).toHaveTextContent('100%');
    expect(within(dialog).getByRole('button', { name: 'Zoom out' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Zoom in' }));
    expect(level).toHaveTextContent('125%');
    fireEvent.wheel(within(dialog).getByTestId('proof-zoom-image'), { deltaY: -100 });
    expect(level).toHaveTextContent('156%');
    expect(within(dialog).getByTestId('proof-zoom-image').style.transform).toBe('translate(0px, 0px) scale(1.5625)');
    press('KeyA', 'a');
    press('KeyJ', 'j');
    expect(sent('PUT /user-missions/p1')).toHaveLength(0);
    expect(path()).toBe('/admin/user-missions/p1');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    press('KeyA', 'a');
    await waitFor(() => expect(sent('PUT /user-missions/p1')).toHaveLength(1));
  });
});
