/**
 * `npx tsx server/bench/loginCodeTiming.ts`: how long `auth.requestLoginCode` takes to answer for
 * players who would get a code and for unknown usernames, with a Bot API that takes BOT_API_MS
 * (default 250) to answer, as the real one does from afar. Prints the figures; asserts nothing.
 * Knobs: LOGIN_TIMING_REQUESTS (default 200 of each), BOT_API_MS.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createApp } from '../src/app';
import { startEmbeddedMongo } from '../src/db/embeddedMongo.mjs';
import { loadEnv } from '../src/env';
import { createLogger } from '../src/lib/logger';
import { UserModel } from '../src/modules/users/user.model';
import { BOT_TOKEN, runOnFreshDatabase } from './loopback';

const REQUESTS = Number(process.env.LOGIN_TIMING_REQUESTS ?? 200);
const BOT_API_MS = Number(process.env.BOT_API_MS ?? 250);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

runOnFreshDatabase(
  'login_code_timing',
  async (database) => {
    let delivered = 0;
    const botApi = createServer((req, res) => {
      req.resume();
      req.on('end', () =>
        setTimeout(() => {
          delivered++;
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, result: { message_id: delivered } }));
        }, BOT_API_MS),
      );
    });
    await new Promise<void>((resolve) => botApi.listen(0, '127.0.0.1', resolve));

    const env = loadEnv({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      TELEGRAM_BOT_TOKEN: BOT_TOKEN,
      TELEGRAM_API_ROOT: `http://127.0.0.1:${(botApi.address() as AddressInfo).port}`,
      // each request names its own client address, so the per-address limit does not stop the measurement
      TRUST_PROXY: 'loopback',
    });
    const server = createApp({ env, logger: createLogger('silent') }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    await UserModel.insertMany(
      Array.from({ length: REQUESTS }, (_, i) => ({
        telegramId: 8_000_000 + i,
        firstName: 'Timing',
        name: `Timing ${i}`,
        username: `timing_player_${i}`,
        usernameLower: `timing_player_${i}`,
        referralCode: `timing${i}`,
        messagePermission: true,
      })),
    );

    const ask = async (username: string, i: number) => {
      const started = performance.now();
      const res = await fetch(`${base}/trpc/auth.requestLoginCode`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
        body: JSON.stringify({ json: { username } }),
      });
      await res.text();
      if (res.status !== 200) throw new Error(`requestLoginCode answered ${res.status}`);
      return performance.now() - started;
    };
    const players: number[] = [];
    const unknown: number[] = [];
    // alternate, so both kinds see the same server state
    for (let i = 0; i < REQUESTS; i++) {
      players.push(await ask(`timing_player_${i}`, 2 * i));
      unknown.push(await ask(`nobody_plays_${i}`, 2 * i + 1));
    }
    const deadline = Date.now() + 10_000;
    while (delivered < REQUESTS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));

    const row = (name: string, times: number[]) => {
      const sorted = [...times].sort((a, b) => a - b);
      const mean = times.reduce((a, b) => a + b, 0) / times.length;
      return `${name.padEnd(34)} ${percentile(sorted, 50).toFixed(1).padStart(7)} ${percentile(sorted, 99).toFixed(1).padStart(7)} ${mean.toFixed(1).padStart(7)}`;
    };
    console.log(`\nauth.requestLoginCode, ${REQUESTS} of each, Bot API answering in ${BOT_API_MS} ms (database: ${database.kind})`);
    console.log(`${'username'.padEnd(34)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'mean ms'.padStart(7)}`);
    console.log(row('a player who gets a code', players));
    console.log(row('a username nobody plays with', unknown));
    console.log(`codes the bot sent after the answers: ${delivered} of ${REQUESTS}\n`);

    server.close();
    botApi.close();
  },
  startEmbeddedMongo,
);
