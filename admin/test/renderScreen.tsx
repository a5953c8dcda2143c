import { configure, render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { App } from '../src/App';
import { i18nProvider } from '../src/i18n/i18nProvider';
import { clearSession, saveSession } from '../src/session';

/** One request the console sent to the fake server. */
export interface SentRequest {
  method: string;
  /** Below /api/admin, without the query: `/gifts/g1/approve`. */
  path: string;
  query: URLSearchParams;
  /** The JSON body, parsed; undefined without one. */
  body: unknown;
  headers: Headers;
}

/** A refusal of the fake server: its status and the body the real server writes (`{ message, code }`, and `params` if any). */
class Refusal {
  constructor(
    readonly status: number,
    readonly message: string,
    readonly code: string,
    readonly params?: Record<string, string>,
  ) {}
}
export const refusal = (status: number, message: string, code: string, params?: Record<string, string>) =>
  new Refusal(status, message, code, params);

/** What a route answers: a JSON body (an array as a list, with its Content-Range), a Blob, or a refusal; or a function of the request. */
type Route = unknown;

interface ScreenOptions {
  /** `'GET /gifts'`, `'POST /gifts/g1/approve'`: the path below /api/admin, without the query. */
  routes?: Record<string, Route>;
  permissions?: string[];
  locale?: 'en' | 'fa';
  /** False: the screen opens signed out (the sign-in page). */
  signedIn?: boolean;
}

/** The signed-in operator of every screen test. */
export const OPERATOR = { id: 'a1', username: 'maria' };

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

function answer(value: unknown): Response {
  if (value instanceof Refusal)
    return json({ message: value.message, code: value.code, ...(value.params ? { params: value.params } : {}) }, value.status);
  if (value instanceof Blob) return new Response(value, { status: 200 });
  if (Array.isArray(value)) return json(value, 200, { 'Content-Range': `items 0-${Math.max(0, value.length - 1)}/${value.length}` });
  return json(value ?? {});
}

function sentRequest(input: RequestInfo | URL, init: RequestInit = {}): SentRequest {
  const url = new URL(String(input instanceof Request ? input.url : input), 'http://console.test');
  const body = typeof init.body === 'string' && init.body ? (JSON.parse(init.body) as unknown) : undefined;
  return {
    method: (init.method ?? 'GET').toUpperCase(),
    path: url.pathname.replace(/^\/api\/admin/, ''),
    query: url.searchParams,
    body,
    headers: new Headers(init.headers),
  };
}

// the whole console renders per test: more than the defaults on a slow, shared machine
jest.setTimeout(120_000);
configure({ asyncUtilTimeout: 20_000 });

afterEach(async () => {
  jest.restoreAllMocks();
  await i18nProvider.changeLocale('en');
  document.documentElement.dir = '';
});

/**
 * A console screen at `path` (`/admin/gifts`), rendered whole with the app's own data and auth providers, signed in as OPERATOR,
 * against a fake server in place of `fetch`: each route answers what the test gives it; a GET of anything else answers an empty
 * list, any other request 404. Answers the requests sent (to assert what an operator's action sends) and a user-event session.
 */
export function renderScreen(path: string, { routes = {}, permissions = ['*'], locale = 'en', signedIn = true }: ScreenOptions = {}) {
  const requests: SentRequest[] = [];
  jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = sentRequest(input, init);
    requests.push(request);
    const key = `${request.method} ${request.path}`;
    if (!Object.hasOwn(routes, key)) return request.method === 'GET' ? answer([]) : answer(refusal(404, 'Not found', 'NOT_FOUND'));
    const route = routes[key];
    return answer(typeof route === 'function' ? await (route as (sent: SentRequest) => unknown)(request) : route);
  });
  if (signedIn) saveSession('test-token', { ...OPERATOR, permissions });
  else clearSession();
  if (locale === 'fa') localStorage.setItem('RaStore.locale', JSON.stringify('fa'));
  window.history.replaceState({}, '', path);
  render(<App />);
  /** The requests sent as `METHOD /path`. */
  const sent = (key: string) => requests.filter((request) => `${request.method} ${request.path}` === key);
  return { requests, sent, user: userEvent.setup({ delay: null }) };
}

/** Turns down what waits through the Reject button inside `scope`: the reason typed in the dialog that opens, then confirmed. */
export async function rejectWithReason(user: UserEvent, scope: HTMLElement, reason: string) {
  await user.click(within(scope).getByRole('button', { name: 'Reject' }));
  const dialog = await screen.findByRole('dialog');
  await user.type(within(dialog).getByLabelText('Why'), reason);
  await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
}
