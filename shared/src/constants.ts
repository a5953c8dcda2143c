/**
 * How a mission is verified. The Telegram-native ones: `boost` (the bot asks getUserChatBoosts), `emojiStatus` (the bot asks
 * getChat for the player's emoji status), `homeScreen` (the player's Telegram says the shortcut is there: client-attested, and
 * time-gated) and `story` (nothing can check a story: time-gated).
 */
export const VERIFY_TYPES = [
  'auto',
  'time',
  'telegram',
  'youtube',
  'instagram',
  'manual',
  'boost',
  'homeScreen',
  'emojiStatus',
  'story',
] as const;
export type VerifyType = (typeof VERIFY_TYPES)[number];

/** What a player's Telegram answers about the app's home-screen shortcut (home_screen_checked), as a Home screen claim carries it. */
export const HOME_SCREEN_STATUSES = ['added', 'missed', 'unknown', 'unsupported'] as const;

/** What a Manual mission can ask the player to attach to the claim. */
export const PROOF_KINDS = ['link', 'text', 'image'] as const;
export type ProofKind = (typeof PROOF_KINDS)[number];

/** How often a mission can be done: once, or again each day. */
export const MISSION_REPEATS = ['none', 'daily'] as const;
export type MissionRepeat = (typeof MISSION_REPEATS)[number];

export const USER_MISSION_STATUSES = ['started', 'pending', 'done', 'rejected'] as const;
export type UserMissionStatus = (typeof USER_MISSION_STATUSES)[number];

/** pending: waiting for an operator; approved: for the hot wallet; sending: in a batch on its way; done: paid (confirmed on chain). */
export const WITHDRAWAL_STATUSES = ['pending', 'approved', 'sending', 'done', 'rejected'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

/** What an operator did, as the audit records it: a decision on a player's request is a review, from its page or in bulk. */
export const AUDIT_ACTIONS = ['create', 'update', 'delete', 'review', 'adjust'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const LEDGER_REASONS = [
  'mission',
  'referral',
  'mining',
  'stake',
  'unstake',
  'withdraw',
  'refund',
  'gift',
  'clawback',
  'streak',
  'league_prize',
] as const;
export type LedgerReason = (typeof LEDGER_REASONS)[number];

/**
 * The house's side of the books: every money operation posts to players' balances and to these accounts, and each
 * operation's postings add up to zero per coin. A source account (rewards, profit, gifts) goes negative by what it
 * created; `held` and `in flight` hold what left players and is still owed; `paid` is what left for the chain.
 */
export const HOUSE_ACCOUNTS = {
  'rewards:mission': { group: 'created' },
  'rewards:referral': { group: 'created' },
  'rewards:streak': { group: 'created' },
  'rewards:mining': { group: 'created' },
  'rewards:league': { group: 'created' },
  'staking:profit': { group: 'created' },
  gifts: { group: 'created' },
  clawbacks: { group: 'taken back' },
  'stakes:held': { group: 'held' },
  'withdrawals:in-flight': { group: 'in flight' },
  'paid:chain': { group: 'paid' },
} as const;
export type HouseAccount = keyof typeof HOUSE_ACCOUNTS;
export type HouseAccountGroup = (typeof HOUSE_ACCOUNTS)[HouseAccount]['group'];

/** Staking terms offered to players, with their length in days; each front end names them in its locale. */
export const STAKING_DURATIONS = {
  week: { days: 7 },
  month: { days: 30 },
  threeMonths: { days: 90 },
  sixMonths: { days: 180 },
  year: { days: 365 },
} as const;
export type StakingDuration = keyof typeof STAKING_DURATIONS;
export const STAKING_DURATION_KEYS = Object.keys(STAKING_DURATIONS) as StakingDuration[];

/** Console resources, as they appear in /api/admin/<resource> and in account permissions. */
export const ADMIN_RESOURCES = [
  'users',
  'user-missions',
  'missions',
  'categories',
  'covers',
  'partners',
  'gift-coins',
  'staking-coins',
  'withdraws',
  'accounts',
  'app-config',
  'audit',
  'broadcasts',
  'gifts',
  'faqs',
  'appeals',
  'star-offers',
  'star-purchases',
  'leagues',
] as const;
export type AdminResource = (typeof ADMIN_RESOURCES)[number];

/**
 * A player's standing: active plays; frozen may look but not claim, stake, move mining, link a wallet or withdraw (their
 * pending withdrawals are held); banned is signed out of everything. Frozen and banned always carry the reason the player reads.
 */
export const PLAYER_STATUSES = ['active', 'frozen', 'banned'] as const;
export type PlayerStatus = (typeof PLAYER_STATUSES)[number];

/** A risk score's level: low plays on, review asks an operator to look, high is frozen-worthy. */
export const RISK_LEVELS = ['low', 'review', 'high'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

/**
 * From which risk level a player's withdrawals wait for an operator to clear their risk (App Config `risk.holdPayoutsFrom`):
 * `review` (the default) holds review and high, `high` holds high only, `off` holds none.
 */
export const PAYOUT_RISK_HOLDS = ['review', 'high', 'off'] as const;
export type PayoutRiskHold = (typeof PAYOUT_RISK_HOLDS)[number];

/**
 * Whether a player's risk holds what waits on it: their level is `from` or above, and no operator cleared them at this score
 * or a higher one (a clearance holds while the score stays at or below it).
 */
export function riskHolds(
  risk: { score: number; level: RiskLevel } | null | undefined,
  cleared: { score?: number | null } | null | undefined,
  from: PayoutRiskHold = 'review',
): boolean {
  if (!risk || from === 'off' || RISK_LEVELS.indexOf(risk.level) < RISK_LEVELS.indexOf(from)) return false;
  return !(typeof cleared?.score === 'number' && cleared.score >= risk.score);
}

/** The signals a player's risk score is made of; each has a weight in App Config. */
export const RISK_SIGNALS = [
  'newAccount',
  'notPremium',
  'friendBurst',
  'sameSecondJoins',
  'idleFriends',
  'deepTree',
  'sharedWallet',
  'networkBurst',
  'fastClaims',
  'freshWalletWithdrawal',
  // a slow farm, seen over hours and days rather than minutes (issue 32, finding 12)
  'friendPace',
  'dormantFriends',
  'friendsShareNetwork',
  'friendsShareWallet',
] as const;
export type RiskSignal = (typeof RISK_SIGNALS)[number];

/** How much each risk signal weighs at full strength, out of a score whose review level starts at 30 and high at 60. */
export const DEFAULT_RISK_WEIGHTS: Record<RiskSignal, number> = {
  newAccount: 10,
  notPremium: 5,
  friendBurst: 30,
  sameSecondJoins: 25,
  idleFriends: 20,
  deepTree: 10,
  sharedWallet: 35,
  networkBurst: 25,
  fastClaims: 20,
  freshWalletWithdrawal: 20,
  friendPace: 25,
  dormantFriends: 25,
  friendsShareNetwork: 30,
  friendsShareWallet: 35,
};

/**
 * The reminders the bot sends a player, each of which the player can switch off in Settings: mining finished, a streak about to
 * break, a stake unlocked, a league prize won, a withdrawal paid.
 */
export const REMINDER_KINDS = ['mining-ready', 'streak-ending', 'stake-unlocked', 'prize-won', 'withdrawal-paid'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

export const LANGUAGES = ['en', 'fa'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Telegram initData older than this is refused. */
export const INIT_DATA_MAX_AGE_SECONDS = 24 * 60 * 60;
/** One-time login codes for the installed web app. */
export const LOGIN_CODE_TTL_SECONDS = 5 * 60;
export const LOGIN_CODE_MAX_ATTEMPTS = 5;
/** TON Connect ton_proof: payload life and accepted signature age. */
export const TON_PROOF_PAYLOAD_TTL_SECONDS = 15 * 60;
export const TON_PROOF_MAX_AGE_SECONDS = 15 * 60;

/** Calls one tRPC request may carry: the app batches a few at once; the client splits larger batches. */
export const TRPC_MAX_BATCH_SIZE = 10;

/** The user app's themes, in the order Settings offers them. */
export const THEMES = ['dark', 'light', 'system'] as const;
export type Theme = (typeof THEMES)[number];

/** A MongoDB ObjectId as text: 24 hex digits. */
export const OBJECT_ID_PATTERN = /^[a-f\d]{24}$/i;

/** How long a banned or frozen player's appeal may be (the player app checks it without loading the schemas). */
export const APPEAL_MIN = 10;
export const APPEAL_MAX = 1000;
