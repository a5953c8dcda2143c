// Stops the shared database once, whichever project's teardown runs first.
export default async function globalTeardown() {
  const db = globalThis.__EMBEDDED_MONGO__;
  globalThis.__EMBEDDED_MONGO__ = undefined;
  await db?.stop();
}
