import { QueryClient } from '@tanstack/react-query';
import { prefetchLaterPages } from './laterPages';

it("prefetches the later pages' code once the first screen's calls are done, and only the build's own assets", async () => {
  jest.useFakeTimers();
  try {
    document.body.innerHTML = `<script type="application/json" id="later-pages">${JSON.stringify([
      '/assets/StakingPage-1.js',
      '/assets/wallet-2.css',
      'https://elsewhere.example/x.js',
    ])}</script>`;
    const queryClient = new QueryClient();
    let finish: (value: string) => void = () => {};
    void queryClient.fetchQuery({ queryKey: ['home'], queryFn: () => new Promise<string>((resolve) => (finish = resolve)) });
    prefetchLaterPages(queryClient);
    prefetchLaterPages(queryClient);
    const links = () => [...document.head.querySelectorAll('link[rel="prefetch"]')].map((link) => link.getAttribute('href'));
    // the first screen is still loading: nothing competes with it
    await jest.advanceTimersByTimeAsync(3000);
    expect(links()).toEqual([]);
    finish('done');
    await jest.advanceTimersByTimeAsync(3000);
    expect(links()).toEqual(['/assets/StakingPage-1.js', '/assets/wallet-2.css']);
  } finally {
    jest.useRealTimers();
  }
});
