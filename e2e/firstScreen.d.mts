import type { Page } from 'playwright-core';

export declare const FIRST_SCREEN_BUDGET_KB: number;
export declare function builtGzipBytes(pathname: string): number;
export declare function firstScreenScripts(
  page: Page,
  url: string,
  shown: () => Promise<unknown>,
): Promise<Array<{ pathname: string; gzip: number }>>;
