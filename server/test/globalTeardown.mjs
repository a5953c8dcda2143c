export default async function globalTeardown() {
  await globalThis.__EMBEDDED_MONGO__?.stop();
}
