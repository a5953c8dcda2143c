import { QueryClient } from '@tanstack/react-query';
import { afterFirstScreen, prefetchLaterPages, watchFirstScreen } from './laterPages';

it("prefetches the later pages' code once the first screen is complete, every one of them, and only the build's own assets", async () => {
  jest.useFakeTimers();
  try {
    const pages = Array.from({ length: 9 }, (_, index) => `/assets/Page${index}-1.js`);
    document.body.innerHTML = `<script type="application/json" id="later-pages">${JSON.stringify([
      ...pages,
      '/assets/wallet-2.css',
      'https://elsewhere.example/x.js',
    ])}</script>`;
    const queryClient = new QueryClient();
    let finish: (value: string) => void = () => {};
    void queryClient.fetchQuery({ queryKey: ['home'], queryFn: () => new Promise<string>((resolve) => (finish = resolve)) });
    watchFirstScreen(queryClient);
    prefetchLaterPages();
    prefetchLaterPages();
    const links = () => [...document.head.querySelectorAll('link[rel="prefetch"]')].map((link) => link.getAttribute('href'));
    // the first screen is still loading: nothing competes with it
    await jest.advanceTimersByTimeAsync(3000);
    expect(links()).toEqual([]);
    finish('done');
    await jest.advanceTimersByTimeAsync(3000);
    expect(links()).toEqual([...pages, '/assets/wallet-2.css']);
    // what asks to wait for the first screen once it is complete (a player who signed in on the first screen) runs at once
    const run = jest.fn();
    afterFirstScreen(run);
    expect(run).toHaveBeenCalledTimes(1);
  } finally {
    jest.useRealTimers();
  }
});
