import { screen, waitFor, within } from '@testing-library/react';
import type { OperatorSession } from '@gift/server';
import { refusal, renderScreen } from '../../../test/renderScreen';
import { deviceOf } from './security';

const AT = '2026-11-27T06:00:00.000Z';
const session = (id: string, userAgent: string, current = false): OperatorSession => ({
  id,
  ip: '203.0.113.7',
  userAgent,
  signedInAt: AT,
  lastSeenAt: AT,
  current,
});
/** The page's other sections, answered plainly. */
const OTHER_SECTIONS = {
  'GET /accounts/me/totp': { enabled: false, required: false, recoveryCodesLeft: 0 },
  'GET /alerts/me': { id: 'me', linked: false, available: [], chosen: [] },
  'GET /accounts/me/sign-ins': [],
};
const DESK = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1';

describe('sessions on My account', () => {
  it('marks this session, signs out another, and signs out the others in one click', async () => {
    let live = [session('s1', DESK, true), session('s2', PHONE), session('s3', '')];
    const { user, sent } = renderScreen('/admin/account', {
      routes: {
        ...OTHER_SECTIONS,
        'GET /accounts/me/sessions': () => live,
        'DELETE /accounts/me/sessions/s2': () => {
          live = live.filter(({ id }) => id !== 's2');
          return { revoked: 1 };
        },
        'DELETE /accounts/me/sessions': () => {
          live = live.filter(({ current }) => current);
          return { revoked: 1 };
        },
      },
    });
    const list = await screen.findByRole('list', { name: 'Signed-in sessions' });
    const rows = await within(list).findAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('Chrome · WindowsThis session'),
      expect.stringContaining('Safari · iOS'),
      expect.stringContaining('Unknown browser'),
    ]);
    // the session in use has no Sign out of its own: the console's Logout is that
    expect(within(rows[0]!).queryByRole('button')).toBeNull();

    await user.click(within(rows[1]!).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(await screen.findByText('Sessions signed out: 1')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign out other sessions' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(sent('DELETE /accounts/me/sessions')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Sign out other sessions' })).toBeNull();
  });

  it('returns to sign-in when the session in use was signed out elsewhere (401)', async () => {
    renderScreen('/admin/account', {
      routes: {
        ...OTHER_SECTIONS,
        'GET /accounts/me/sessions': refusal(401, 'Please sign in again', 'UNAUTHORIZED'),
      },
    });
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });
});

describe('deviceOf', () => {
  it('names the browser and the system, Edge and Chrome apart', () => {
    expect(deviceOf('Mozilla/5.0 (Windows NT 10.0) Chrome/130.0 Safari/537.36 Edg/130.0')).toBe('Edge · Windows');
    expect(deviceOf('Mozilla/5.0 (Linux; Android 14) Chrome/130.0 Mobile Safari/537.36')).toBe('Chrome · Android');
    expect(deviceOf('curl/8.4')).toBeNull();
  });
});
