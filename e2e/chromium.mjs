// Where Chromium is and how the tests start it: it must not reach for the internet (there is none here, and tests
// must not depend on it). Shared by the browser tests (support.ts) and the Lighthouse run (lighthouse.mjs).
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
