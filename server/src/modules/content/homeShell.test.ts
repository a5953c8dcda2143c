import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { createApp } from '../../app';
import { silentLogger, testEnv } from '../../../test/helpers';
import { CoverModel } from './content.models';
import { FIRST_COVER_MARK, homeShellPage } from './homeShell.rest';

// the built user app's page, with the shell's mark where home's first cover goes
const dist = mkdtempSync(path.join(tmpdir(), 'gift-home-shell-'));
const indexFile = path.join(dist, 'index.html');
beforeAll(() => {
  writeFileSync(
    indexFile,
    `<!doctype html><title>Gift Rewards</title><div id="root"><section class="page">${FIRST_COVER_MARK}</section></div>`,
  );
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));
beforeEach(() => CoverModel.deleteMany({}));

const app = () => createApp({ env: testEnv(), logger: silentLogger, clientDist: dist, adminDist: '/nonexistent' });
const shellCover = (html: string) => /<script type="application\/json" id="first-cover">(.*?)<\/script>/.exec(html)?.[1];

describe("a launch's page", () => {
  it("carries home's first cover (the lowest order of the enabled ones) in its shell, picture and data, revalidated", async () => {
    await CoverModel.create([
      { title: 'Hidden', image: '/demo/hidden.svg', order: 0, enabled: false },
      { title: 'Second', image: '/demo/second.svg', order: 2 },
      { title: 'Welcome', image: '/demo/cover-welcome.svg', link: 'https://t.me/gift', order: 1 },
    ]);
    const res = await request(app()).get('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.text).toContain(
      '<div class="covers"><div><img src="/demo/cover-welcome.svg" alt="Welcome" fetchpriority="high" /></div></div>',
    );
    expect(JSON.parse(shellCover(res.text)!)).toEqual({ image: '/demo/cover-welcome.svg', title: 'Welcome', link: 'https://t.me/gift' });
    expect(res.text).not.toContain(FIRST_COVER_MARK);
  });

  it("writes an operator's text so it cannot break out of the attribute or the script", async () => {
    await CoverModel.create({ title: '"><script>alert(1)</script>', image: 'https://cdn.example.com/a.png?x="y"&z=<1>' });
    const res = await request(app()).get('/');
    expect(res.text).toContain('alt="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(res.text).toContain('src="https://cdn.example.com/a.png?x=&quot;y&quot;&amp;z=&lt;1&gt;"');
    expect(res.text).not.toContain('<script>alert(1)');
    expect(JSON.parse(shellCover(res.text)!)).toMatchObject({ title: '"><script>alert(1)</script>' });
  });

  it('is the page as built without a cover, on other routes, and when the database cannot answer', async () => {
    let res = await request(app()).get('/');
    expect(res.text).not.toContain('first-cover"');
    expect(res.text).toContain(FIRST_COVER_MARK);

    await CoverModel.create({ title: 'Welcome', image: '/demo/cover-welcome.svg' });
    res = await request(app()).get('/staking');
    expect([res.status, res.text.includes('<img')]).toEqual([200, false]);

    const broken = jest.spyOn(CoverModel, 'findOne').mockImplementation(() => {
      throw new Error('connection closed');
    });
    res = await request(app()).get('/');
    broken.mockRestore();
    expect([res.status, res.text.includes(FIRST_COVER_MARK)]).toEqual([200, true]);
  });

  it('reads the cover at most every 30 s: a new first cover shows after that', async () => {
    let now = 1_000_000;
    const server = express().get(
      '/',
      homeShellPage(indexFile, () => now),
    );
    await CoverModel.create({ title: 'Old', image: '/demo/old.svg', order: 1 });
    expect((await request(server).get('/')).text).toContain('/demo/old.svg');
    await CoverModel.create({ title: 'New', image: '/demo/new.svg', order: 0 });
    now += 29_000;
    expect((await request(server).get('/')).text).toContain('/demo/old.svg');
    now += 1_000;
    expect((await request(server).get('/')).text).toContain('/demo/new.svg');
  });
});
