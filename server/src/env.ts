// The only place that reads process.env. Validated once at start; each bad value gets its own message.
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { DEMO_PAYOUT_MNEMONIC } from './lib/ton/hotWallet';
import { MUTATIONS } from './lib/mutations';

/** Signs tokens on the embedded demo database only: it is in the source, so a server on a real database never uses it. */
export const DEV_JWT_SECRET = 'development-only-secret-change-me-0123456789';

/** An address, a subnet (address/bits) or one of Express's names for the private ranges. */
function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
}

const envSchema = z
  .object({
    NODE_ENV: z
      .enum(['development', 'test', 'production'], { message: 'NODE_ENV must be development, test or production' })
      .default('development'),
    PORT: z.coerce
      .number({ message: 'PORT must be a number' })
      .int('PORT must be a whole number')
      .min(0, 'PORT must be between 0 and 65535')
      .max(65535, 'PORT must be between 0 and 65535')
      .default(3000),
    MONGO_URL: z
      .string()
      .regex(/^mongodb(\+srv)?:\/\/.+/, 'MONGO_URL must start with mongodb:// or mongodb+srv://')
      .optional(),
    TELEGRAM_BOT_TOKEN: z
      .string()
      .regex(/^\d+:[A-Za-z0-9_-]{30,}$/, 'TELEGRAM_BOT_TOKEN must look like 123456:ABC… (from BotFather)')
      .optional(),
    TELEGRAM_API_ROOT: z.string().url('TELEGRAM_API_ROOT must be a URL').default('https://api.telegram.org'),
    /** The public address of the site (https in production): the webhook, the menu button, the ton_proof domain. */
    PUBLIC_URL: z
      .string()
      .regex(
        /^https?:\/\/[^\s/?#]+(\/[^\s?#]*[^\s/?#])?$/,
        'PUBLIC_URL must be an http(s) URL without a trailing slash, e.g. https://rewards.example.com',
      )
      .optional(),
    JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
    ADMIN_USERNAME: z.string().min(3, 'ADMIN_USERNAME must be at least 3 characters').optional(),
    ADMIN_PASSWORD: z.string().min(10, 'ADMIN_PASSWORD must be at least 10 characters').optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /**
     * How often each background job runs (server/src/jobs.ts; on the one instance holding its lease) unless it names its
     * own interval, and how old an unfinished operation must be before the money recovery finishes it: longer than a live
     * request can take between two writes (a database call gives up after 5 s). A dead instance's half-done work is
     * finished within about grace + interval.
     */
    SWEEP_INTERVAL_MS: z.coerce
      .number({ message: 'SWEEP_INTERVAL_MS must be a number' })
      .int()
      .min(100, 'SWEEP_INTERVAL_MS must be at least 100')
      .default(2_000),
    SWEEP_GRACE_MS: z.coerce
      .number({ message: 'SWEEP_GRACE_MS must be a number' })
      .int()
      .min(0, 'SWEEP_GRACE_MS must be 0 or more')
      .default(6_000),
    /**
     * How long the instance-wide leases (start-up, each background job, the hot wallet's sender among them, Telegram's long
     * poll, the notification sender) last unless renewed; renewed and asked for every third of it. A dead holder is replaced
     * within it plus a third; a live one stops acting as holder when two thirds pass without a renewal.
     */
    LEASE_TTL_MS: z.coerce
      .number({ message: 'LEASE_TTL_MS must be a number' })
      .int()
      .min(1_000, 'LEASE_TTL_MS must be at least 1000')
      .max(600_000, 'LEASE_TTL_MS must be at most 600000')
      .default(3_000),
    /** Broadcast messages a second, across every instance: below Telegram's 30, leaving room for the transactional ones. */
    BROADCAST_RATE: z.coerce
      .number({ message: 'BROADCAST_RATE must be a number' })
      .min(0.1, 'BROADCAST_RATE must be at least 0.1')
      .max(1000, 'BROADCAST_RATE must be at most 1000')
      .default(20),
    /**
     * At most how long a broadcast sender holds its work unless it renews it (every third, while it runs): a sender that died
     * has its in-flight sends counted unknown, and its broadcast taken over, after it. The sender caps it at 4 s.
     */
    BROADCAST_LEASE_MS: z.coerce
      .number({ message: 'BROADCAST_LEASE_MS must be a number' })
      .int()
      .min(500, 'BROADCAST_LEASE_MS must be at least 500')
      .default(4_000),
    /** Where the embedded database (no MONGO_URL) keeps its data between runs: the project's `.data/` folder unless set. */
    EMBEDDED_DATA_FILE: z.string().default(path.resolve(__dirname, '../../.data/embedded-database.json')),
    /** `FRESH_DEMO=1`: the embedded database forgets its data file and starts a fresh demo. */
    FRESH_DEMO: z
      .enum(['0', '1', 'true', 'false'], { message: 'FRESH_DEMO must be 1 or 0' })
      .default('0')
      .transform((value) => value === '1' || value === 'true'),
    /** The interface to listen on (`127.0.0.1` behind a proxy on the same machine); unset: every interface. */
    HOST: z
      .string()
      .refine((host) => isIP(host) !== 0 || /^[a-z0-9.-]+$/i.test(host), 'HOST must be an address such as 127.0.0.1 or 0.0.0.0')
      .optional(),
    /** In production `GET /metrics` answers only with `Authorization: Bearer <METRICS_TOKEN>` (404 when unset). */
    METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
    /** A TON Center-compatible API (v2). Unset: toncenter.com for TON_NETWORK in production; the local stand-in in development. */
    TON_API_ROOT: z
      .string()
      .regex(/^https?:\/\/[^\s]+$/, 'TON_API_ROOT must be an http(s) URL, e.g. https://toncenter.com')
      .optional(),
    TON_API_KEY: z.string().min(1).optional(),
    TON_NETWORK: z.enum(['mainnet', 'testnet'], { message: 'TON_NETWORK must be mainnet or testnet' }).default('mainnet'),
    /** The hot wallet's 24 words: automated payouts. Never stored or logged. */
    PAYOUT_WALLET_MNEMONIC: z
      .string()
      .trim()
      .refine((words) => words.split(/\s+/).length === 24, 'PAYOUT_WALLET_MNEMONIC must be the 24 words of the hot wallet')
      .optional(),
    /**
     * Tests only: `GIFT_FAULT_POINTS=ledger:after-apply,…` kills the process at the first listed fault point it reaches
     * (lib/faults.ts); ignored in production. An engine point may name a kind, which may be a ledger reason
     * (`ledger:after-step:league_prize`), and after a step the step too (`ledger:after-step:payout-batch:send`).
     */
    GIFT_FAULT_POINTS: z
      .string()
      .regex(
        /^[a-z-]+:[a-z-]+(:[a-z_-]+){0,2}(,[a-z-]+:[a-z-]+(:[a-z_-]+){0,2})*$/,
        'GIFT_FAULT_POINTS must be fault points separated by commas, e.g. ledger:after-apply',
      )
      .transform((list) => list.split(','))
      .optional(),
    /**
     * Tests only: `GIFT_MUTATION=refund-twice` plants one known bug (lib/mutations.ts) for a mutation run of the crash
     * test; ignored in production.
     */
    GIFT_MUTATION: z.enum(MUTATIONS, { message: `GIFT_MUTATION must be one of ${MUTATIONS.join(', ')}` }).optional(),
    /** Which reverse proxies may name the client's address in X-Forwarded-For: none unless configured. */
    TRUST_PROXY: z
      .string()
      .transform((value, ctx) => {
        if (/^\d+$/.test(value)) return Number(value);
        const entries = value.split(',').map((entry) => entry.trim());
        if (entries.every(isProxyAddress)) return entries;
        ctx.addIssue({
          code: 'custom',
          message:
            'TRUST_PROXY must be a hop count (1) or a comma-separated list of addresses or subnets (10.0.0.2, 172.16.0.0/12, loopback)',
        });
        return z.NEVER;
      })
      .optional(),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== 'production') return;
    if (!env.JWT_SECRET) ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: 'JWT_SECRET is required in production' });
    if (!env.MONGO_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['MONGO_URL'],
        message: 'MONGO_URL is required in production (the embedded database is for development)',
      });
    if (env.PUBLIC_URL && !env.PUBLIC_URL.startsWith('https://'))
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message: 'PUBLIC_URL must be https:// in production (Telegram opens mini apps over HTTPS only)',
      });
    if (env.PAYOUT_WALLET_MNEMONIC && env.PAYOUT_WALLET_MNEMONIC.split(/\s+/).join(' ') === DEMO_PAYOUT_MNEMONIC)
      ctx.addIssue({
        code: 'custom',
        path: ['PAYOUT_WALLET_MNEMONIC'],
        message: 'PAYOUT_WALLET_MNEMONIC is the demo wallet, whose words are public: use a wallet of your own',
      });
    if (!!env.ADMIN_USERNAME !== !!env.ADMIN_PASSWORD)
      ctx.addIssue({ code: 'custom', path: ['ADMIN_PASSWORD'], message: 'Set ADMIN_USERNAME and ADMIN_PASSWORD together' });
  });

export type Env = z.infer<typeof envSchema> & { JWT_SECRET: string };

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'EnvError';
  }
}

/** Parses an environment (process.env by default); throws EnvError listing every bad value. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((i) => `${i.path.join('.') || 'env'}: ${i.message}`));
  }
  return { ...result.data, JWT_SECRET: result.data.JWT_SECRET ?? DEV_JWT_SECRET };
}
