/** Replaces window.open with a recorder of the addresses the app opens, in order (jsdom opens nothing). */
export function recordWindowOpen(): string[] {
  const opened: string[] = [];
  window.open = ((url: string) => {
    opened.push(url);
    return null;
  }) as typeof window.open;
  return opened;
}
