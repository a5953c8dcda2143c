/**
 * `npx tsx server/bench/logBytes.ts`: how many bytes of logs a fixed set of requests writes, at the default
 * level. LOG_BYTES_ROUNDS rounds (default 100) of five requests as a browser sends them: the user app's page,
 * a player's home call, the TON Connect manifest, the console's users list and an unknown API path.
 * Prints the figures and one line of each kind; asserts nothing.
 */
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app';
import { startEmbeddedMongo } from '../src/db/embeddedMongo.mjs';
import { seedDemoData } from '../src/modules/demo/demo.service';
import { loadEnv } from '../src/env';
import { createLogger } from '../src/lib/logger';
import { bootstrapSuperAdmin } from '../src/modules/accounts/accounts.service';
import { AccountModel } from '../src/modules/accounts/account.model';
import { UserModel } from '../src/modules/users/user.model';
import { consoleToken } from '../src/modules/accounts/operatorSecurity.service';
import { signInitData } from '../test/telegram';
import { BOT_TOKEN, runOnFreshDatabase } from './loopback';

const ROUNDS = Number(process.env.LOG_BYTES_ROUNDS ?? 100);
// what Chromium sends with every request; the old request log copied all of it into every line
const BROWSER_HEADERS = {
  'user-agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
  'accept-language': 'en-US,en;q=0.9,fa;q=0.8',
  'accept-encoding': 'gzip, deflate, br, zstd',
  'sec-ch-ua': '"Chromium";v="131", "Not_A Brand";v="24"',
  'sec-ch-ua-mobile': '?1',
  'sec-ch-ua-platform': '"Android"',
  'sec-fetch-site': 'same-origin',
  'sec-fetch-mode': 'cors',
  'sec-fetch-dest': 'empty',
};

runOnFreshDatabase(
  'log_bytes',
  async () => {
    const quiet = createLogger('silent');
    await bootstrapSuperAdmin('admin', 'admin-demo-password');
    await seedDemoData(quiet);

    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const env = loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'info', TELEGRAM_BOT_TOKEN: BOT_TOKEN });
    const server = createApp({ env, logger: createLogger('info', sink) }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const player = (await UserModel.findOne({ username: 'sara_ahmadi' }).lean())!;
    const launch = `tma ${signInitData({ user: { id: player.telegramId, first_name: 'Sara', username: 'sara_ahmadi' } }, BOT_TOKEN)}`;
    const account = (await AccountModel.findOne({ username: 'admin' }).lean())!;
    const operator = `Bearer ${await consoleToken(account, env.JWT_SECRET)}`;
    const requests: Array<[string, Record<string, string>]> = [
      ['/', {}],
      ['/trpc/home.get?batch=1&input=%7B%7D', { authorization: launch }],
      ['/tonconnect-manifest.json', {}],
      ['/api/admin/users?sort=%5B%22createdAt%22%2C%22DESC%22%5D&range=%5B0%2C24%5D', { authorization: operator }],
      ['/api/admin/nothing-here', { authorization: operator }],
    ];

    for (let round = 0; round < ROUNDS; round++) {
      for (const [path, headers] of requests) {
        const response = await fetch(base + path, { headers: { ...BROWSER_HEADERS, ...headers } });
        await response.arrayBuffer();
      }
    }
    await new Promise((resolve) => setImmediate(resolve));
    const bytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
    const count = ROUNDS * requests.length;
    console.log(
      `${count} requests wrote ${lines.length} log lines, ${bytes} bytes (${(bytes / 1024).toFixed(1)} KB), ${Math.round(bytes / count)} bytes per request`,
    );
    const seen = new Set<string>();
    for (const line of lines) {
      const kind = line.replace(/"time":\d+|"reqId":"[^"]*"|"id":"?[\w-]+"?|"responseTime":\d+|"ms":\d+/g, '');
      const path = /"(?:url|path)":"([^"?]*)/.exec(line)?.[1] ?? line.slice(0, 40);
      if (seen.has(path)) continue;
      seen.add(path);
      if (kind) console.log(line.length > 600 ? `${line.slice(0, 600)}… (${line.length} characters)` : line);
    }

    server.close();
  },
  startEmbeddedMongo,
);
