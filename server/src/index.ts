import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import { connectDatabase } from './db/connect';
import { seedDemoData } from './modules/demo/demo.service';
import { EnvError, loadEnv } from './env';
import { armFaultPoints } from './lib/faults';
import { createLogger } from './lib/logger';
import { exitOnUnhandledErrors } from './lib/processCrash';
import { backfillUsernameKeys, bootstrapSuperAdmin } from './modules/accounts/accounts.service';
import { BotRuntime } from './modules/bot/botRuntime';
import { applyBrakeDefaults } from './modules/coins/coinBrakes.service';
import { chooseSigningSecret } from './modules/config/signingSecret.service';
import { startProductJobs } from './jobs';
import { registerMoneyKinds } from './moneyKinds';
import { runExclusively } from './modules/jobs/jobLease.service';
import { setUpTon } from './tonSetup';

/** How long a stop waits for the bot before it closes the database anyway (its leases then run out by themselves). */
const BOT_STOP_WAIT_MS = 2_000;
const DEMO_ADMIN = { username: 'admin', password: 'admin-demo-password' };
/** The demo's second operator: money above a brake waits for a second, independent person, and the demo has one to try it. */
const DEMO_APPROVER = { username: 'approver', password: 'approver-demo-password' };

async function main() {
  // the money kinds, before anything records or finishes an operation (the demo's seeding, the jobs, the app)
  registerMoneyKinds();
  let loaded;
  try {
    loaded = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(loaded.LOG_LEVEL);
  exitOnUnhandledErrors(logger);
  armFaultPoints(loaded);
  const database = await connectDatabase(loaded, logger);
  const { env } = await chooseSigningSecret(loaded, database, logger);
  // the chain comes first: the demo's coins point at the stand-in's jetton masters
  const ton = await setUpTon(env, logger);
  const credentials =
    env.ADMIN_USERNAME && env.ADMIN_PASSWORD
      ? { username: env.ADMIN_USERNAME, password: env.ADMIN_PASSWORD }
      : database.embedded
        ? DEMO_ADMIN
        : undefined;
  // instances sharing the database run these one at a time; the next one finds them done
  await runExclusively(
    'start-up',
    async () => {
      await backfillUsernameKeys();
      // coins saved before brakes existed get them (their 0 was the old implicit "never"); idempotent
      await applyBrakeDefaults();
      if (credentials) await bootstrapSuperAdmin(credentials.username, credentials.password);
      if (credentials === DEMO_ADMIN) await bootstrapSuperAdmin(DEMO_APPROVER.username, DEMO_APPROVER.password);
      if (database.embedded) await seedDemoData(logger, new Date(), { jettonMasters: ton.demoJettons ?? {} });
    },
    { ttlMs: env.LEASE_TTL_MS },
  );
  // the background jobs (server/src/jobs.ts), each on whichever instance holds its lease: the money recovery finishes what
  // a crash interrupted within seconds; start-up does not wait for them
  const jobs = startProductJobs({ logger, intervalMs: env.SWEEP_INTERVAL_MS, graceMs: env.SWEEP_GRACE_MS, leaseMs: env.LEASE_TTL_MS });

  const bot = new BotRuntime({ env, logger });
  const app = createApp({ env, logger, bot });
  const server = env.HOST ? app.listen(env.PORT, env.HOST) : app.listen(env.PORT);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const base = `http://localhost:${port}`;
  logger.info({ port }, 'listening');
  // from here a stop is clean (the embedded database writes its data file), even while the bot is still starting
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close();
    server.closeIdleConnections();
    await jobs.stop();
    ton.stop();
    // a bot still starting (Telegram unreachable, grammY retrying) must not hold the database's last write past the force exit
    const botStopped = bot.stop().catch((error) => logger.error({ err: error }, 'bot stop failed'));
    await Promise.race([botStopped, delay(BOT_STOP_WAIT_MS)]);
    await database.close().catch((error) => logger.error({ err: error }, 'database close failed'));
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // a bot that cannot reach Telegram yet keeps trying each round; the app serves meanwhile
  await bot.start();
  console.log(
    [
      '',
      `  Gift Rewards is running (database: ${database.kind}${database.embedded ? ', embedded with demo data' : ''})`,
      ...(database.dataFile
        ? [
            `  Data:      ${database.dataFile} (${database.restored === null ? 'a fresh demo' : `${database.restored} records read back`})`,
            '             written every second and at a clean stop: a kill -9 loses at most the last second; FRESH_DEMO=1 starts afresh',
          ]
        : []),
      `  User app:  ${base}/`,
      `  Console:   ${base}/admin`,
      ...(credentials && !env.ADMIN_PASSWORD ? [`  Console sign-in: ${credentials.username} / ${credentials.password}`] : []),
      ...(credentials === DEMO_ADMIN
        ? [`  Second operator, for what waits for one: ${DEMO_APPROVER.username} / ${DEMO_APPROVER.password}`]
        : []),
      `  API:       ${base}/trpc  ${base}/api/admin  ${base}/healthz`,
      '',
    ].join('\n'),
  );
}

main().catch((error) => {
  console.error(error instanceof EnvError ? error.message : error);
  process.exit(1);
});
