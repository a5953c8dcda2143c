import { screen, waitFor } from '@testing-library/react';
import { HOME } from '../../test/fixtures';
import { renderApp, signedInPlayer } from '../../test/renderApp';
import { initI18n } from '../lib/i18n';

// what the server writes into the page's shell on a launch at / (server/src/modules/content/homeShell.rest.ts)
const SHELL_COVER = { image: '/demo/cover-welcome.svg', title: 'Welcome to Gift Rewards', link: '' };

beforeAll(async () => {
  await initI18n();
  const data = document.createElement('script');
  data.type = 'application/json';
  data.id = 'first-cover';
  data.textContent = JSON.stringify(SHELL_COVER);
  document.body.append(data);
});

const shownCovers = () => [...document.querySelectorAll<HTMLImageElement>('.covers img')].map((image) => image.getAttribute('src'));

it("keeps the cover the page's shell painted in its place while the session and home load, then shows home's own", async () => {
  let answerMe: () => void = () => {};
  let answerHome: () => void = () => {};
  renderApp('/', {
    ...signedInPlayer,
    'user.me': async () => {
      await new Promise<void>((resolve) => (answerMe = resolve));
      return signedInPlayer['user.me']!(undefined);
    },
    'home.get': async () => {
      await new Promise<void>((resolve) => (answerHome = resolve));
      return { ...HOME, covers: [{ id: 'c1', title: 'Welcome to Gift Rewards', image: '/demo/cover-welcome.svg', link: '' }] };
    },
  });
  // the session on its way: the launch's skeleton, with the shell's cover instead of a grey block
  await waitFor(() => expect(shownCovers()).toEqual(['/demo/cover-welcome.svg']));
  expect(screen.getByRole('status', { busy: true })).toHaveTextContent('Loading…');
  expect(document.querySelector('.skeleton-cover')).toBeNull();

  // the launch asks for home with the session, in one request: both arrive together
  answerMe();
  answerHome();
  // home's own cover, named for screen readers (the shell's stand-in is hidden from them)
  expect(await screen.findByRole('img', { name: 'Welcome to Gift Rewards' })).toHaveAttribute('src', '/demo/cover-welcome.svg');
  expect(shownCovers()).toEqual(['/demo/cover-welcome.svg']);
});
