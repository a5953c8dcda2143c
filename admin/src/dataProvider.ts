import { fetchUtils, HttpError, useDataProvider, type DataProvider, type RaRecord, type UpdateParams } from 'react-admin';
import simpleRestProvider from 'ra-data-simple-rest';
import type { z } from 'zod';
import type {
  BalanceAdjustment,
  BroadcastFailure,
  BroadcastTest,
  BulkReviewAnswer,
  ChangedRecords,
  ClawBackAnswer,
  CleanUpPreview,
  CleanUpResult,
  PlayerWallets,
  AnalyticsFigures,
  Books,
  DashboardFigures,
  GiftCoinRecord,
  GiftDecision,
  GrantDecision,
  MissionRecord,
  ProgressRecord,
  RiskClearance,
  SegmentCount,
  StakingOfferRecord,
  StarOfferRecord,
  StarPurchaseRecord,
  StarsRevenue,
  TimelineEntry,
  TimelinePage,
} from '@gift/server';
import type {
  brakeStateInput,
  balanceAdjustmentInput,
  changeApprovalInput,
  changeRejectionInput,
  clawBackInput,
  clusterCleanUpInput,
  clusterCleanUpPreviewInput,
  analyticsInput,
  dashboardRangeInput,
  missionsEnabledInput,
  missionsReorderInput,
  rejectionInput,
  segmentCountInput,
  userMissionBulkReviewInput,
  userStatusBulkInput,
  playerNoteInput,
  TimelineKind,
} from '@gift/shared';
import { ERROR_MESSAGES, type ErrorCode } from '@gift/shared/errors';
import { PERSIAN_ERROR_MESSAGES } from '@gift/shared/errorsFa';
import { formatMessage } from '@gift/shared/formatMessage';
import { persianFieldMessages } from './i18n/fa';
import { i18nProvider } from './i18n/i18nProvider';
import { adminToken } from './session';

export const API_URL = '/api/admin';

type BrakeState = z.input<typeof brakeStateInput>;

/** Singletons the server reads under a fixed id ('current') whatever their database id (the league week being played). */
const SINGLETONS = new Set(['app-config', 'league-weeks']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && Object.hasOwn(ERROR_MESSAGES, code);
const isParams = (params: unknown): params is Record<string, string | number> =>
  isObject(params) && Object.values(params).every((value) => typeof value === 'string' || typeof value === 'number');

/**
 * A refusal of the server in the console's language: in Persian, a message the server wrote from its code's template is
 * written from the Persian one with the same values, and a fixed field message from its translation; a message written
 * for the case (with values of its own) stays the server's own.
 */
export function inConsoleLanguage(error: unknown, locale: string): unknown {
  if (locale !== 'fa' || !(error instanceof HttpError)) return error;
  const body: unknown = error.body;
  const code = isObject(body) ? body.code : undefined;
  const params = isObject(body) && isParams(body.params) ? body.params : undefined;
  let message = Object.hasOwn(persianFieldMessages, error.message) ? persianFieldMessages[error.message] : undefined;
  if (isErrorCode(code) && error.message === formatMessage(ERROR_MESSAGES[code], params)) {
    message = formatMessage(PERSIAN_ERROR_MESSAGES[code], params);
  }
  return message ? new HttpError(message, error.status, error.body) : error;
}

/** Every console call carries the operator's token; its refusals come in the console's language. */
async function httpClient(url: string, options: fetchUtils.Options = {}) {
  const headers = new Headers(options.headers ?? { Accept: 'application/json' });
  const token = adminToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  try {
    return await fetchUtils.fetchJson(url, { ...options, headers });
  } catch (error) {
    throw inConsoleLanguage(error, i18nProvider.getLocale());
  }
}

const rest = simpleRestProvider(API_URL, httpClient);

/** A path under /api/admin, each part (an id, a name) encoded. */
const pathOf = (...parts: string[]) => [API_URL, ...parts.map(encodeURIComponent)].join('/');

/** The server's answer to a GET of the console's own (with its query, if any); its type is the route's, exported by `@gift/server`. */
async function get<Answer>(parts: string[], query: Record<string, string | undefined> = {}): Promise<Answer> {
  const search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const answer: { json: Answer } = await httpClient(search.size ? `${pathOf(...parts)}?${search.toString()}` : pathOf(...parts));
  return answer.json;
}

/** The server's answer to a POST of the console's own, with the body its shared schema parses. */
async function post<Answer>(parts: string[], body: object = {}): Promise<Answer> {
  const answer: { json: Answer } = await httpClient(pathOf(...parts), { method: 'POST', body: JSON.stringify(body) });
  return answer.json;
}

/** A second operator's decision on what waits for them: approved the way they saw it (`id`), or turned down with the reason. */
export type Decision = z.input<typeof changeApprovalInput> | z.input<typeof changeRejectionInput>;
/** A decision's route: `…/approve` with the change's id, `…/reject` with the reason too. */
const verdict = (decision: Decision) => ('rejectReason' in decision ? 'reject' : 'approve');

/** The records whose changes wait for a second operator under `/:id/change/…`, and what a decision answers. */
interface ChangeRecords {
  'gift-coins': GiftCoinRecord;
  'staking-coins': StakingOfferRecord;
  /** A league week: its prize table (`prizes`) and the table waiting for a second operator. */
  'league-weeks': { id: string; week: string; waitingChange: unknown };
  'star-offers': StarOfferRecord;
}
/** App Config's rewards that wait for a second operator under `/app-config/current/rewards/:kind/…`. */
export type ConfigReward = 'referral' | 'streakMilestones' | 'mining';

/** A reviewer's hold on a claim: who and until when, nulls when no one holds it. */
type ClaimLock = Pick<ProgressRecord, 'lockedBy' | 'lockedByName' | 'lockedUntil'>;

/** The console's own calls beside react-admin's: each takes the body the server's shared schema parses and answers its type. */
interface ConsoleCalls {
  /** Every figure of the dashboard for a range of days (by default the 30 ending today), in one call. */
  getDashboard(range?: z.input<typeof dashboardRangeInput>): Promise<DashboardFigures>;
  /** Missions' funnels, retention by join cohort and referral quality over a range, from the rolled-up days. */
  getAnalytics(range?: z.input<typeof dashboardRangeInput>, query?: z.input<typeof analyticsInput>): Promise<AnalyticsFigures>;
  /** The books per coin: what players hold, the house accounts, the trial balance and the hot wallet beside what is owed. */
  getBooks(): Promise<Books>;
  /** One decision on several pending Manual missions: { reviewed, refused }. */
  bulkReview(body: z.input<typeof userMissionBulkReviewInput>): Promise<BulkReviewAnswer>;
  /** A gift or correction of a player's balance through the ledger. */
  adjustBalance(userId: string, body: z.input<typeof balanceAdjustmentInput>): Promise<BalanceAdjustment>;
  /** How many players a broadcast's segment reaches now. */
  countSegment(segment: z.input<typeof segmentCountInput>['segment']): Promise<SegmentCount>;
  /** The broadcast sent now to the operator's own Telegram, in each of its languages. */
  testBroadcast(id: string): Promise<BroadcastTest>;
  /** Whether the server has a public https address (PUBLIC_URL): without one a button cannot open the page it names. */
  broadcastButtonTarget(): Promise<{ hasPublicUrl: boolean }>;
  /** The players a broadcast did not reach, with the reasons. */
  broadcastFailures(id: string): Promise<BroadcastFailure[]>;
  /** One credit taken back with the reason: what the balance covers now, the rest owed. */
  clawBack(userId: string, body: z.input<typeof clawBackInput>): Promise<ClawBackAnswer>;
  /** A second operator's approval of a gift that waits: posted at once. */
  approveGift(id: string): Promise<GiftDecision>;
  /** A gift that waits, turned down with the reason. */
  rejectGift(id: string, rejectReason: z.input<typeof rejectionInput>['rejectReason']): Promise<GiftDecision>;
  /** A second operator's approval of access that moves money, asked for an account: it holds it at once. */
  approveGrant(id: string): Promise<GrantDecision>;
  /** Access asked for an account, turned down with the reason. */
  rejectGrant(id: string, rejectReason: z.input<typeof rejectionInput>['rejectReason']): Promise<GrantDecision>;
  /** A mission's reward change that waits (`missions/:id/reward/approve|reject`). */
  decideMissionReward(missionId: string, decision: Decision): Promise<MissionRecord>;
  /** An App Config reward that waits (`app-config/current/rewards/:kind/approve|reject`): App Config the way the console reads it. */
  decideConfigReward(kind: ConfigReward, decision: Decision): Promise<Record<string, unknown>>;
  /** A looser brake or a richer offer that waits (`gift-coins/:id/change/approve|reject`): the record once decided. */
  decideChange<R extends keyof ChangeRecords>(resource: R, id: string, decision: Decision): Promise<ChangeRecords[R]>;
  /** Several missions enabled or disabled at once. */
  setMissionsEnabled(ids: string[], enabled: z.input<typeof missionsEnabledInput>['enabled']): Promise<ChangedRecords>;
  /** A category's missions in the order dragged. */
  reorderMissions(category: string, ids: z.input<typeof missionsReorderInput>['ids']): Promise<ChangedRecords>;
  /** A player's proof picture: an image, not JSON, read with the operator's token. */
  proofImage(imageId: string): Promise<Blob>;
  /** Takes (or renews) the reviewer's hold on a pending claim they opened; 409 names another reviewer holding it. */
  lockClaim(id: string): Promise<ClaimLock>;
  /** Lets the reviewer's own hold on a claim go (they left it undecided). */
  releaseClaim(id: string): Promise<ClaimLock>;
  /** App Config's canned reasons to reject a claim, readable by any reviewer. */
  rejectReasons(): Promise<Array<{ id: string; en: string; fa: string }>>;
  /** An operator lets a player's referral rewards go at their current risk score: what waited is paid. */
  clearRisk(userId: string): Promise<RiskClearance>;
  /** What banning a risk cluster and taking back what it earned would do now. */
  previewCleanUp(body: z.input<typeof clusterCleanUpPreviewInput>): Promise<CleanUpPreview>;
  /** The clean-up the preview showed (its key), confirmed with the reason the players read: what was done. */
  cleanUpCluster(body: z.input<typeof clusterCleanUpInput>): Promise<CleanUpResult>;
  /** A player's wallets as wallets show them, beside the raw form. */
  playerWallets(userId: string): Promise<PlayerWallets>;
  /** One status, with its reason, for several players at once. */
  setPlayerStatus(body: z.input<typeof userStatusBulkInput>): Promise<ChangedRecords>;
  /** A page of a player's timeline, newest first, of one kind or all, from where the last page ended (`before`). */
  playerTimeline(userId: string, query: { kind?: TimelineKind; before?: string; limit?: string }): Promise<TimelinePage>;
  /** An operator's internal note on a player, answered as its timeline entry. */
  addPlayerNote(userId: string, body: z.input<typeof playerNoteInput>): Promise<TimelineEntry>;
  /** Stars received, less refunds, in total and per day of the last 30. */
  starsRevenue(): Promise<StarsRevenue>;
  /** A Stars payment refunded: Telegram returns the Stars, the boost is taken back; the purchase as it is then. */
  refundStarPurchase(id: string): Promise<StarPurchaseRecord>;
}

/**
 * A save of a record with a money brake (a mission, a staking offer, a coin, a Stars offer, App Config) carries the brake state
 * of the record the form was opened on (`previousData`, as its read or its list row gave it), whatever the form's values say:
 * the server refuses it (409 RECORD_CHANGED) when a change was held or decided since, so the operator reloads and sees it.
 * A body field, not an If-Match header: a list's rows carry one each, and ra-data-simple-rest's update sends no header of its
 * own (server/src/modules/accounts/waitingChanges.service.ts `brakeStateOf`). A record without brakes carries none.
 */
function withBrakeState(params: UpdateParams): UpdateParams {
  const { brakeState: _typed, ...data } = params.data as Partial<BrakeState>;
  const { brakeState } = (params.previousData ?? {}) as Partial<BrakeState>;
  return { ...params, data: brakeState === undefined ? data : { ...data, brakeState } };
}

/**
 * ra-data-simple-rest conventions (sort/range/filter, Content-Range) against /api/admin/<resource>.
 * A singleton keeps the id it was asked for, since react-admin's Edit requires the record's id to match it.
 */
export const dataProvider: DataProvider & ConsoleCalls = {
  ...rest,
  getOne: async (resource, params) => {
    const result = await rest.getOne(resource, params);
    return SINGLETONS.has(resource) ? { ...result, data: { ...result.data, id: params.id } } : result;
  },
  update: async <RecordType extends RaRecord>(resource: string, params: UpdateParams) => {
    const result = await rest.update<RecordType>(resource, withBrakeState(params));
    return SINGLETONS.has(resource) ? { ...result, data: { ...result.data, id: String(params.id) } } : result;
  },
  getDashboard: (range = {}) => get(['dashboard'], range),
  getAnalytics: (range = {}, query = {}) => get(['dashboard', 'analytics'], { ...range, ...query }),
  getBooks: () => get(['books']),
  bulkReview: (body) => post(['user-missions', 'bulk-review'], body),
  adjustBalance: (userId, body) => post(['users', userId, 'adjustments'], body),
  countSegment: (segment) => post(['broadcasts', 'count'], { segment }),
  testBroadcast: (id) => post(['broadcasts', id, 'test']),
  broadcastButtonTarget: () => get(['broadcasts', 'button-target']),
  broadcastFailures: (id) => get(['broadcasts', id, 'failures']),
  clawBack: (userId, body) => post(['users', userId, 'claw-backs'], body),
  approveGift: (id) => post(['gifts', id, 'approve']),
  rejectGift: (id, rejectReason) => post(['gifts', id, 'reject'], { rejectReason }),
  approveGrant: (id) => post(['account-grants', id, 'approve']),
  rejectGrant: (id, rejectReason) => post(['account-grants', id, 'reject'], { rejectReason }),
  decideMissionReward: (missionId, decision) => post(['missions', missionId, 'reward', verdict(decision)], decision),
  decideConfigReward: (kind, decision) => post(['app-config', 'current', 'rewards', kind, verdict(decision)], decision),
  decideChange: (resource, id, decision) => post([resource, id, 'change', verdict(decision)], decision),
  setMissionsEnabled: (ids, enabled) => post(['missions', 'enabled'], { ids, enabled }),
  reorderMissions: (category, ids) => post(['missions', 'reorder'], { category, ids }),
  proofImage: async (imageId) => {
    const response = await fetch(pathOf('proofs', imageId), { headers: { Authorization: `Bearer ${adminToken() ?? ''}` } });
    if (!response.ok) throw new Error(String(response.status));
    return response.blob();
  },
  lockClaim: (id) => post(['user-missions', id, 'lock']),
  rejectReasons: () => get(['user-missions', 'reject-reasons']),
  releaseClaim: async (id) => ((await httpClient(pathOf('user-missions', id, 'lock'), { method: 'DELETE' })) as { json: ClaimLock }).json,
  clearRisk: (userId) => post(['risk', userId, 'clear']),
  previewCleanUp: (body) => post(['risk', 'clean-up', 'preview'], body),
  cleanUpCluster: (body) => post(['risk', 'clean-up'], body),
  playerWallets: (userId) => get(['risk', userId, 'wallets']),
  setPlayerStatus: (body) => post(['users', 'status'], body),
  playerTimeline: (userId, query) => get(['timeline', userId], query),
  addPlayerNote: (userId, body) => post(['timeline', userId, 'notes'], body),
  starsRevenue: () => get(['star-purchases', 'revenue']),
  refundStarPurchase: (id) => post(['star-purchases', id, 'refund']),
};

type ConsoleDataProvider = typeof dataProvider;

/** The console's own calls from the app's data provider, typed like this one (react-admin's hook takes its type). */
export const useConsoleCalls = (): ConsoleCalls => useDataProvider<ConsoleDataProvider>();
