import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Refusal } from '../../test/fakeTrpcServer';
import { renderApp, signedInPlayer } from '../../test/renderApp';
import { initI18n, setLanguage } from '../lib/i18n';
import { ErrorBoundary } from './ErrorBoundary';
import { ToastProvider, useToast } from './toast';

beforeAll(() => initI18n());
afterEach(() => {
  jest.useRealTimers();
  void setLanguage('en');
});

function Saver() {
  const toast = useToast();
  return (
    <button type="button" onClick={() => toast('Saved', 'success')}>
      save
    </button>
  );
}

it('shows toasts top-right and closes each after 1000 ms, collapsing over 300 ms', () => {
  jest.useFakeTimers();
  render(
    <ToastProvider>
      <Saver />
    </ToastProvider>,
  );
  act(() => screen.getByRole('button', { name: 'save' }).click());
  const toast = screen.getByText('Saved');
  expect(toast.parentElement).toHaveClass('toasts');
  act(() => jest.advanceTimersByTime(999));
  expect(screen.getByText('Saved')).toBeInTheDocument();
  expect(screen.getByText('Saved')).not.toHaveClass('toast-leaving');
  act(() => jest.advanceTimersByTime(1));
  // closing: it folds away while the toasts below move up
  expect(screen.getByText('Saved')).toHaveClass('toast-leaving');
  act(() => jest.advanceTimersByTime(299));
  expect(screen.getByText('Saved')).toBeInTheDocument();
  act(() => jest.advanceTimersByTime(1));
  expect(screen.queryByText('Saved')).not.toBeInTheDocument();
});

it("says 'Saved' when a setting is kept on the account and 'Save failed' when it is not", async () => {
  let fail = false;
  renderApp('/profile/settings', {
    ...signedInPlayer,
    'user.updateSettings': () => {
      if (fail) throw new Refusal('INTERNAL', 500, 'Something went wrong');
      return { language: 'en', theme: 'dark' };
    },
  });
  await userEvent.click(await screen.findByRole('button', { name: 'Light' }));
  expect(await screen.findByText('Saved')).toBeInTheDocument();
  fail = true;
  await userEvent.click(screen.getByRole('button', { name: 'Dark' }));
  expect(await screen.findByText('Save failed')).toBeInTheDocument();
  // the refused change does not stay on the screen: the light theme that was saved comes back
  await waitFor(() => expect(document.documentElement.dataset.theme).toBe('light'));
  expect(screen.getByRole('button', { name: 'Light' })).toHaveAttribute('aria-pressed', 'true');
});

function Broken(): never {
  throw new Error('render failed');
}

describe('a fatal error', () => {
  const userAgent = navigator.userAgent;
  let logged: unknown[][] = [];
  beforeEach(() => {
    logged = [];
    jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args));
  });
  afterEach(() => {
    Object.defineProperty(navigator, 'userAgent', { value: userAgent, configurable: true });
    jest.restoreAllMocks();
  });

  it('shows players the error view', () => {
    render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Internal Server Error' })).toBeInTheDocument();
  });

  it('is logged and shows no error page to a crawler', () => {
    Object.defineProperty(navigator, 'userAgent', {
      value: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      configurable: true,
    });
    const { container } = render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(container).toBeEmptyDOMElement();
    expect(logged.some((args) => args[0] === 'The app failed to render')).toBe(true);
  });
});

it('says the player is offline when a page cannot load without a connection', async () => {
  Object.defineProperty(navigator, 'onLine', { value: false, configurable: true });
  try {
    renderApp('/currency', {
      ...signedInPlayer,
      'home.currency': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    expect(await screen.findByRole('alert', {}, { timeout: 4000 })).toHaveTextContent(
      'You are offline. Check your connection and try again.',
    );
  } finally {
    Object.defineProperty(navigator, 'onLine', { value: true, configurable: true });
  }
});

it("offers 'Install the app' on the profile where the browser has an install prompt", async () => {
  const { captureInstallPrompt } = await import('../lib/installPrompt');
  captureInstallPrompt();
  renderApp('/profile', signedInPlayer);
  expect(await screen.findByText('Settings')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Install the app' })).not.toBeInTheDocument();
  const prompt = jest.fn(async () => undefined);
  act(
    () =>
      void window.dispatchEvent(
        Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
          prompt,
          userChoice: Promise.resolve({ outcome: 'accepted' }),
        }),
      ),
  );
  await userEvent.click(await screen.findByRole('button', { name: 'Install the app' }));
  expect(prompt).toHaveBeenCalledTimes(1);
  expect(screen.queryByRole('button', { name: 'Install the app' })).not.toBeInTheDocument();
});

describe('the loading bar', () => {
  const bar = () => document.querySelector('.loading-bar');

  it('stays calm on the sign-in page and on the banned notice: those answers are the page, not a failure; each is the main landmark', async () => {
    renderApp('/', {
      'auth.signInSettings': () => ({ openInTelegram: null }),
      'user.me': () => {
        throw new Refusal('UNAUTHORIZED', 401, 'Please sign in again');
      },
    });
    const send = await screen.findByRole('button', { name: 'Send code' });
    // the page's main content is a landmark, as on every other page
    expect(screen.getByRole('main')).toContainElement(send);
    await waitFor(() => expect(bar()).toHaveClass('loading-bar-idle'));
    cleanup();

    renderApp('/', {
      // the banned notice offers help and the appeal below it
      'help.get': () => ({ faqs: [], contact: '' }),
      'help.appeal': () => null,
      'user.me': () => {
        throw new Refusal('ACCOUNT_BANNED', 403, 'Your account is blocked: Several accounts', { reason: 'Several accounts' });
      },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Several accounts');
    expect(screen.getByRole('main')).toContainElement(screen.getByRole('alert'));
    await waitFor(() => expect(bar()).toHaveClass('loading-bar-idle'));
  });

  it('turns red when a page fails, and is named for screen readers while it runs', async () => {
    renderApp('/currency', {
      ...signedInPlayer,
      'home.currency': () => {
        throw new Refusal('INTERNAL', 500, 'Something went wrong');
      },
    });
    expect(await screen.findByRole('progressbar', { name: 'Loading…' })).toBe(bar());
    await waitFor(() => expect(bar()).toHaveClass('loading-bar-error'), { timeout: 4000 });
  });
});

it('shows a page loading as its own shape, not as text: rows for a list, the covers and rows on home', async () => {
  const never = () => new Promise<never>(() => {});
  renderApp('/currency', { ...signedInPlayer, 'home.currency': never });
  expect(await screen.findByRole('heading', { name: 'Currency' })).toBeInTheDocument();
  const loading = screen.getByRole('status', { busy: true });
  expect(loading).toHaveTextContent('Loading…');
  expect(loading.querySelectorAll('.skeleton-row')).toHaveLength(3);
  cleanup();

  // home opened from another tab (a launch at home asks for its content with the session, in the same request)
  renderApp('/currency', { ...signedInPlayer, 'home.get': never });
  await userEvent.click(await screen.findByRole('link', { name: 'Tasks' }));
  expect(await screen.findByText('Your coins')).toBeInTheDocument();
  const shapes = screen.getAllByRole('status', { busy: true });
  expect(shapes.some((shape) => shape.querySelector('.skeleton-cover'))).toBe(true);
  expect(shapes.some((shape) => shape.querySelectorAll('.skeleton-row').length === 4)).toBe(true);
});

it("launched at home, asks for home's content with the session instead of one round trip after it", async () => {
  let answerMe: () => void = () => {};
  const server = renderApp('/', {
    ...signedInPlayer,
    'user.me': async () => {
      await new Promise<void>((resolve) => (answerMe = resolve));
      return signedInPlayer['user.me']!(undefined);
    },
  });
  await waitFor(() => expect(server.calls.map((call) => call.path)).toEqual(expect.arrayContaining(['user.me', 'home.get'])));
  answerMe();
  expect(await screen.findByText('Your coins')).toBeInTheDocument();
  // the home page then reads what was already asked for: home is asked for once
  expect(server.calls.filter((call) => call.path === 'home.get')).toHaveLength(1);
});
