// This device's storage, which a private window or a locked-down webview may refuse: a refused read is nothing stored,
// a refused write lasts for this visit only.

export function readStored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Keeps `value` under `key`; null forgets it. */
export function writeStored(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // storage off: for this visit only
  }
}
