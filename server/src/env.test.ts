import { EnvError, loadEnv } from './env';
import { DEMO_PAYOUT_MNEMONIC } from './lib/ton/hotWallet';

function problems(source: Record<string, string>): string[] {
  try {
    loadEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadEnv', () => {
  it('applies defaults for a bare development start', () => {
    const env = loadEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.NODE_ENV).toBe('development');
    expect(env.MONGO_URL).toBeUndefined();
    expect(env.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
  });

  it('names each bad value with its own message', () => {
    const found = problems({ PORT: 'eighty', MONGO_URL: 'postgres://x', TELEGRAM_BOT_TOKEN: 'nope', JWT_SECRET: 'short' });
    expect(found).toEqual(
      expect.arrayContaining([
        'PORT: PORT must be a number',
        'MONGO_URL: MONGO_URL must start with mongodb:// or mongodb+srv://',
        'TELEGRAM_BOT_TOKEN: TELEGRAM_BOT_TOKEN must look like 123456:ABC… (from BotFather)',
        'JWT_SECRET: JWT_SECRET must be at least 32 characters',
      ]),
    );
  });

  it('refuses to start production without a real secret and database', () => {
    const found = problems({ NODE_ENV: 'production' });
    expect(found).toContain('JWT_SECRET: JWT_SECRET is required in production');
    expect(found).toContain('MONGO_URL: MONGO_URL is required in production (the embedded database is for development)');
  });

  it('accepts a complete production configuration', () => {
    const env = loadEnv({
      NODE_ENV: 'production',
      PORT: '8080',
      MONGO_URL: 'mongodb://db:27017/gift?replicaSet=rs0',
      JWT_SECRET: 'x'.repeat(40),
      TELEGRAM_BOT_TOKEN: `123456:${'A'.repeat(35)}`,
    });
    expect(env.PORT).toBe(8080);
    expect(env.TELEGRAM_BOT_TOKEN).toMatch(/^123456:/);
  });

  it('reads the fault points a crash test arms as a list, and names a malformed one', () => {
    expect(
      loadEnv({
        GIFT_FAULT_POINTS:
          'ledger:after-apply,ledger:after-record:account-grant-ask,ledger:after-step:stake-open,ledger:after-apply:league_prize,ledger:after-step:payout-batch:send',
      }).GIFT_FAULT_POINTS,
    ).toEqual([
      'ledger:after-apply',
      // the engine's point, for one kind of operation alone
      'ledger:after-record:account-grant-ask',
      'ledger:after-step:stake-open',
      // a kind named after its ledger reason
      'ledger:after-apply:league_prize',
      // after one step of one kind
      'ledger:after-step:payout-batch:send',
    ]);
    expect(loadEnv({}).GIFT_FAULT_POINTS).toBeUndefined();
    expect(problems({ GIFT_FAULT_POINTS: 'stake after debit' })).toEqual([
      'GIFT_FAULT_POINTS: GIFT_FAULT_POINTS must be fault points separated by commas, e.g. ledger:after-apply',
    ]);
  });

  it('refuses the demo hot wallet in production, and a mnemonic that is not 24 words', () => {
    const production = { NODE_ENV: 'production', MONGO_URL: 'mongodb://db:27017/gift', JWT_SECRET: 'x'.repeat(40) };
    expect(problems({ ...production, PAYOUT_WALLET_MNEMONIC: DEMO_PAYOUT_MNEMONIC })).toEqual([
      'PAYOUT_WALLET_MNEMONIC: PAYOUT_WALLET_MNEMONIC is the demo wallet, whose words are public: use a wallet of your own',
    ]);
    expect(problems({ PAYOUT_WALLET_MNEMONIC: 'one two three' })).toEqual([
      'PAYOUT_WALLET_MNEMONIC: PAYOUT_WALLET_MNEMONIC must be the 24 words of the hot wallet',
    ]);
    expect(loadEnv({ PAYOUT_WALLET_MNEMONIC: DEMO_PAYOUT_MNEMONIC }).TON_NETWORK).toBe('mainnet');
    expect(problems({ TON_NETWORK: 'devnet' })).toEqual(['TON_NETWORK: TON_NETWORK must be mainnet or testnet']);
  });

  it('takes PUBLIC_URL as an http(s) address without a trailing slash', () => {
    expect(loadEnv({ PUBLIC_URL: 'https://rewards.example.com' }).PUBLIC_URL).toBe('https://rewards.example.com');
    expect(loadEnv({ PUBLIC_URL: 'https://example.com/gift' }).PUBLIC_URL).toBe('https://example.com/gift');
    expect(loadEnv({}).PUBLIC_URL).toBeUndefined();
    for (const bad of ['https://rewards.example.com/', 'rewards.example.com', 'ftp://example.com', 'https://example.com?x=1']) {
      expect(problems({ PUBLIC_URL: bad })).toEqual([
        'PUBLIC_URL: PUBLIC_URL must be an http(s) URL without a trailing slash, e.g. https://rewards.example.com',
      ]);
    }
  });

  it('rejects an out-of-range port', () => {
    expect(problems({ PORT: '70000' })).toEqual(['PORT: PORT must be between 0 and 65535']);
  });

  it('trusts no proxy by default, and takes a hop count or a list of addresses', () => {
    expect(loadEnv({}).TRUST_PROXY).toBeUndefined();
    expect(loadEnv({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadEnv({ TRUST_PROXY: '10.0.0.2, 172.16.0.0/12,loopback,::1' }).TRUST_PROXY).toEqual([
      '10.0.0.2',
      '172.16.0.0/12',
      'loopback',
      '::1',
    ]);
    expect(problems({ TRUST_PROXY: 'true' })).toEqual([expect.stringMatching(/^TRUST_PROXY: TRUST_PROXY must be a hop count/)]);
    expect(problems({ TRUST_PROXY: '10.0.0.0/40' })).toHaveLength(1);
  });

  it('takes PUBLIC_URL as an http(s) URL without a trailing slash, https in production', () => {
    expect(loadEnv({ PUBLIC_URL: 'http://localhost:3000' }).PUBLIC_URL).toBe('http://localhost:3000');
    expect(problems({ PUBLIC_URL: 'https://gift.example/' })).toEqual([
      'PUBLIC_URL: PUBLIC_URL must be an http(s) URL without a trailing slash, e.g. https://rewards.example.com',
    ]);
    expect(problems({ PUBLIC_URL: 'ftp://gift.example' })).toHaveLength(1);
    const production = { NODE_ENV: 'production', MONGO_URL: 'mongodb://db/gift', JWT_SECRET: 'x'.repeat(40) };
    expect(problems({ ...production, PUBLIC_URL: 'http://gift.example' })).toEqual([
      'PUBLIC_URL: PUBLIC_URL must be https:// in production (Telegram opens mini apps over HTTPS only)',
    ]);
    expect(loadEnv({ ...production, PUBLIC_URL: 'https://gift.example' }).PUBLIC_URL).toBe('https://gift.example');
  });
});
