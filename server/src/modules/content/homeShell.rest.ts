import { readFile } from 'node:fs/promises';
import type { RequestHandler } from 'express';
import { firstCover, type FirstCover } from './homeContent.service';

/** Where index.html's shell takes home's first cover. */
export const FIRST_COVER_MARK = '<!--first-cover-->';
/** How long one read of the first cover serves every launch: an operator's new cover shows within it. */
const FRESH_MS = 30_000;

const attribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * index.html with home's first cover in its shell, where the mark is: the picture a launch shows largest, painted from the
 * page itself while the app's code and home's data are still on their way (the app shows the same picture in the same
 * place, read from `#first-cover`). Without a cover the page is as built.
 */
function withFirstCover(template: string, cover: FirstCover | null): string {
  if (!cover) return template;
  const picture = `<div class="covers"><div><img src="${attribute(cover.image)}" alt="${attribute(cover.title)}" fetchpriority="high" /></div></div>`;
  // JSON inside a script element: "<" written as \u003c so no text can close the element
  const data = `<script type="application/json" id="first-cover">${JSON.stringify(cover).replace(/</g, '\\u003c')}</script>`;
  return template.replace(FIRST_COVER_MARK, () => picture + data);
}

/**
 * GET / (a launch): the user app's page with home's first cover in its shell, read at most every 30 s. When the database
 * cannot answer, the next handler sends the page as built: the app then loads as always.
 */
export function homeShellPage(indexFile: string, now: () => number = Date.now): RequestHandler {
  let cached: { html: string; at: number } | undefined;
  return async (_req, res, next) => {
    try {
      if (!cached || now() - cached.at >= FRESH_MS) {
        const [template, cover] = await Promise.all([readFile(indexFile, 'utf8'), firstCover()]);
        cached = { html: withFirstCover(template, cover), at: now() };
      }
      res.setHeader('Cache-Control', 'no-cache');
      res.type('html').send(cached.html);
    } catch {
      next();
    }
  };
}
