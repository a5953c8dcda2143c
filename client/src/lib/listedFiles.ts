/**
 * The build's files a script element of the page lists as JSON (`#app-code`, `#later-pages`; vite.config.ts writes
 * them): only paths under /assets/, anything else in the list (or a list that does not parse) is ignored.
 */
export function listedFiles(id: string): string[] {
  let files: unknown;
  try {
    files = JSON.parse(document.getElementById(id)?.textContent ?? '[]');
  } catch {
    return [];
  }
  return Array.isArray(files) ? files.filter((file): file is string => typeof file === 'string' && file.startsWith('/assets/')) : [];
}

/** Has the browser fetch `file` into its cache without running it: `modulepreload` for code about to run, `prefetch` for later. */
export function fetchAhead(file: string, rel: 'modulepreload' | 'prefetch'): void {
  const link = document.createElement('link');
  link.rel = rel;
  link.href = file;
  if (rel === 'prefetch') {
    if (file.endsWith('.js')) {
      link.as = 'script';
      link.crossOrigin = '';
    } else link.as = 'style';
  }
  document.head.append(link);
}
