/** The front ends' contract, the package's only export: types alone, so no server code reaches a front end's bundle. */
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { dashboardFigures } from './modules/dashboard/dashboard.service';
import type { analyticsFigures } from './modules/dashboard/analytics.service';
import type { treasury } from './modules/withdrawals/payouts.service';
import type { booksFigures } from './modules/ledger/books.service';
import type { alertCounts, alertSettings, startAlertLink } from './modules/alerts/alerts.service';
import type { besideDecision, presentForConsole as presentWithdrawal } from './modules/withdrawals/withdrawals.service';
import type { PlayerRecord, presentCoinFigures } from './modules/users/users.service';
import type { presentLedgerEntry } from './modules/ledger/ledger.service';
import type { BulkReviewAnswer, presentProgress } from './modules/missions/userMissions.service';
import type { adjustBalance } from './modules/gifts/balanceAdjustment.service';
import type { AccountRecord, login } from './modules/accounts/accounts.service';
import type { AuditEntryRecord } from './modules/audit/audit.service';
import type { confirmTotpEnrolment, startTotpEnrolment, totpStatus } from './modules/accounts/totp.service';
import type { liveSessions, signInHistory } from './modules/accounts/operatorSecurity.service';
import type { CategoryRecord, CoverRecord, PartnerRecord } from './modules/content/homeContent.service';
import type { AppealRecord, FaqRecord } from './modules/help/help.service';
import type { GiftCoinRecord } from './modules/coins/giftCoins.service';
import type { StakingOfferRecord } from './modules/staking/staking.service';
import type { MissionRecord } from './modules/missions/missions.service';
import type { BroadcastRecord, failuresOf, sendTestBroadcast } from './modules/broadcasts/broadcasts.service';
import type { clawBack, ClawBackRecord } from './modules/clawbacks/clawBack.service';
import type { approveGift, rejectGift } from './modules/gifts/balanceAdjustment.service';
import type { approveGrant, rejectGrant } from './modules/accounts/accountGrants.service';
import type { clearPlayerRisk } from './modules/risk/risk.service';
import type { cleanUpCluster, previewCleanUp } from './modules/users/clusterCleanUp.service';
import type { walletsOf } from './modules/risk/risk.service';
import type { addPlayerNote, playerTimeline } from './modules/timeline/timeline.service';
import type { AppRouter } from './trpc/root';
import type { StarOfferRecord, StarPurchaseRecord, starsRevenue } from './modules/shop/shop.service';
import type { Json } from './db/schemaKit';

export type { AppRouter };
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

/** The console's contract: what its REST calls answer, as the server shapes it (imported by admin with `import type`). */
export type DashboardFigures = Awaited<ReturnType<typeof dashboardFigures>>;
/** An amount of one coin in the dashboard's figures. */
export type CoinAmount = NonNullable<DashboardFigures['coinsIssued']>[number];
/** GET /api/admin/dashboard/analytics: missions' funnels, retention by join cohort, referral quality. */
export type AnalyticsFigures = Awaited<ReturnType<typeof analyticsFigures>>;
/** GET /api/admin/treasury: the hot wallet, per-coin balances and caps, what is owed and the batches in flight. */
export type Treasury = Awaited<ReturnType<typeof treasury>>;
/** GET /api/admin/books: per coin, what players hold, the house accounts, the trial balance and the hot wallet's solvency. */
export type Books = Awaited<ReturnType<typeof booksFigures>>;
/** GET /api/admin/alerts/counts: the menu's badges, each only where the operator's permissions reach. */
export type AlertCounts = Awaited<ReturnType<typeof alertCounts>>;
/** GET and PUT /api/admin/alerts/me: what the bot tells the operator, and whether their chat is linked. */
export type AlertSettingsRecord = Awaited<ReturnType<typeof alertSettings>>;
/** POST /api/admin/alerts/me/link: the one-time link to the bot. */
export type AlertLink = Awaited<ReturnType<typeof startAlertLink>>;

/** POST /api/admin/login: the console's token and the account it signs in (GET /api/admin/me answers the account). */
export type ConsoleSession = Exclude<Awaited<ReturnType<typeof login>>, { totpRequired: true }>;
export type ConsoleAccount = ConsoleSession['account'];
/** GET /api/admin/accounts/me/totp: the operator's own two-step sign-in. */
export type TotpStatus = Awaited<ReturnType<typeof totpStatus>>;
/** POST /api/admin/accounts/me/totp: the secret to enrol, shown this once, its otpauth address and QR code. */
export type TotpEnrolment = Awaited<ReturnType<typeof startTotpEnrolment>>;
/** PUT /api/admin/accounts/me/totp: two-step sign-in on, and its recovery codes, shown this once. */
export type TotpConfirmation = Awaited<ReturnType<typeof confirmTotpEnrolment>>;
/** GET /api/admin/accounts/me/sessions and /accounts/:id/sessions: one live console session (`current`: the one asking). */
export type OperatorSession = Json<Awaited<ReturnType<typeof liveSessions>>[number]>;
/** GET /api/admin/accounts/me/sign-ins and /accounts/:id/sign-ins: one sign-in attempt, newest first. */
export type SignInAttempt = Json<Awaited<ReturnType<typeof signInHistory>>[number]>;

/** GET /api/admin/withdraws and /withdraws/:id: one withdrawal as the console lists and shows it. */
export type WithdrawRecord = Json<ReturnType<typeof presentWithdrawal>>;
/** GET /api/admin/withdraws/:id: one withdrawal's page, with what an operator reads beside the decision. */
export type WithdrawPage = WithdrawRecord & Partial<Json<Awaited<ReturnType<typeof besideDecision>>> & { riskHeld: boolean }>;
/** One coin's figures on a player's page (GET /api/admin/users/:id, `coins`). */
export type CoinFigures = Json<ReturnType<typeof presentCoinFigures>>;
/** GET /api/admin/ledger-entries: one posted entry on a player's page. */
export type LedgerRow = Json<ReturnType<typeof presentLedgerEntry>>;
/** GET /api/admin/user-missions and /user-missions/:id: a player's progress on one mission, as reviews show it. */
export type ProgressRecord = Json<ReturnType<typeof presentProgress>>;
export type { BulkReviewAnswer };
/** The records of the console's resources that answer their model's own JSON (see ConsoleRecord). */
export type { CategoryRecord, CoverRecord, PartnerRecord, GiftCoinRecord, StakingOfferRecord, MissionRecord, FaqRecord, AppealRecord };
export type { PlayerRecord, AccountRecord, AuditEntryRecord };
/** GET /api/admin/star-offers and /star-purchases (a purchase with its player's name); POST /star-purchases/:id/refund answers one. */
export type { StarOfferRecord, StarPurchaseRecord };
/** GET /api/admin/star-purchases/revenue: Stars received (less refunds) in total and per day of the last 30. */
export type StarsRevenue = Awaited<ReturnType<typeof starsRevenue>>;
/** POST /api/admin/users/:id/adjustments: the entry, whether this call applied it (false: the key was used) and the new balance. */
export type BalanceAdjustment = Awaited<ReturnType<typeof adjustBalance>>;

/** GET /api/admin/broadcasts and /broadcasts/:id: a broadcast with its progress (sent, failed, blocked, remaining) and expected finish. */
export type { BroadcastRecord };
/** GET /api/admin/broadcasts/:id/failures: the players it did not reach, with Telegram's reason. */
export type BroadcastFailure = Awaited<ReturnType<typeof failuresOf>>[number];
/** POST /api/admin/broadcasts/:id/test: the languages the broadcast was sent in to the operator's own Telegram. */
export type BroadcastTest = Awaited<ReturnType<typeof sendTestBroadcast>>;
/** POST /api/admin/broadcasts/count: how many players a segment reaches now. */
export interface SegmentCount {
  count: number;
}

/** POST /api/admin/users/:id/claw-backs: what the balance covered now (`taken`) and what the player still owes. */
export type ClawBackAnswer = ClawBackRecord & Json<Awaited<ReturnType<typeof clawBack>>>;
/** POST /api/admin/gifts/:id/approve and /reject: the gift as decided (an approved one with the player's new balance). */
export type GiftDecision = Json<Awaited<ReturnType<typeof approveGift | typeof rejectGift>>>;
/** POST /api/admin/account-grants/:id/approve and /reject: the request for access as decided. */
export type GrantDecision = Json<Awaited<ReturnType<typeof approveGrant | typeof rejectGrant>>>;
/** POST /api/admin/risk/:id/clear: the score the rewards were let go at, and how many waiting rewards were paid. */
export type RiskClearance = Json<Awaited<ReturnType<typeof clearPlayerRisk>>>;
/** POST /api/admin/risk/clean-up/preview: what banning a cluster and taking back what it earned would do now (its `key` confirms it). */
export type CleanUpPreview = Json<Awaited<ReturnType<typeof previewCleanUp>>>;
/** POST /api/admin/risk/clean-up: what the clean-up did (the claw-backs as they stand: taken now, the rest owed). */
export type CleanUpResult = Json<Awaited<ReturnType<typeof cleanUpCluster>>>;
/** GET /api/admin/risk/:id/wallets: the player's wallets as wallets show them (`address`), beside the raw form (`raw`). */
export type PlayerWallets = Awaited<ReturnType<typeof walletsOf>>;
/**
 * The bulk actions' answer (POST /api/admin/missions/reorder, /missions/enabled, /users/status): the records changed, and
 * the missions whose enabling waits for a second operator (`waiting`, present when any).
 */
export interface ChangedRecords {
  changed: string[];
  waiting?: string[];
}

/** GET /api/admin/timeline/:id: a page of a player's timeline, newest first, and where the next one starts (null: the end). */
export type TimelinePage = Json<Awaited<ReturnType<typeof playerTimeline>>>;
/** One line of a player's timeline; POST /api/admin/timeline/:id/notes answers the note added as one. */
export type TimelineEntry = Json<Awaited<ReturnType<typeof addPlayerNote>>>;
