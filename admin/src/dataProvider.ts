import { fetchUtils, HttpError, useDataProvider, type DataProvider, type Identifier, type RaRecord } from 'react-admin';
import simpleRestProvider from 'ra-data-simple-rest';
import type { BalanceAdjustment, BroadcastFailure, BulkReviewAnswer, DashboardFigures } from '@gift/server';
import { ERROR_MESSAGES, formatMessage, PERSIAN_ERROR_MESSAGES, type ErrorCode } from '@gift/shared/errors';
import { persianFieldMessages } from './i18n/fa';
import { i18nProvider } from './i18n/i18nProvider';
import { adminToken } from './session';

export const API_URL = '/api/admin';

/** Singletons the server reads under a fixed id ('current') whatever their database id. */
const SINGLETONS = new Set(['app-config']);

/**
 * A refusal of the server in the console's language: in Persian, a message the server wrote from its code's template is
 * written from the Persian one with the same values, and a fixed field message from its translation; a message written
 * for the case (with values of its own) stays as the server wrote it.
 */
export function inConsoleLanguage(error: unknown, locale: string): unknown {
  if (locale !== 'fa' || !(error instanceof HttpError)) return error;
  const body = (error.body ?? {}) as { code?: string; params?: Record<string, string | number> };
  const code = body.code as ErrorCode | undefined;
  let message = Object.hasOwn(persianFieldMessages, error.message) ? persianFieldMessages[error.message] : undefined;
  if (code && Object.hasOwn(ERROR_MESSAGES, code) && error.message === formatMessage(ERROR_MESSAGES[code], body.params)) {
    message = formatMessage(PERSIAN_ERROR_MESSAGES[code], body.params);
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

/** The console's own calls beside react-admin's, answering the server's types. */
interface ConsoleCalls {
  getDashboard(): Promise<DashboardFigures>;
  bulkReview(body: { ids: string[]; status: string; rejectReason?: string }): Promise<BulkReviewAnswer>;
  adjustBalance(userId: string, body: Record<string, unknown>): Promise<BalanceAdjustment>;
  countSegment(segment: unknown): Promise<{ count: number }>;
  testBroadcast(id: string): Promise<{ languages: string[] }>;
  broadcastFailures(id: string): Promise<BroadcastFailure[]>;
  approveGift(id: string): Promise<unknown>;
  /** A decision on a reward change that waits (`missions/:id/reward/approve`, `app-config/current/rewards/referral/reject`). */
  decideReward(path: string, body: Record<string, unknown>): Promise<Record<string, unknown>>;
  clawBack(
    userId: string,
    body: { entryId: string; reason: string },
  ): Promise<{ status: string; taken: string; owed: string; symbol: string }>;
  rejectGift(id: string, rejectReason: string): Promise<unknown>;
  approveGrant(id: string): Promise<unknown>;
  rejectGrant(id: string, rejectReason: string): Promise<unknown>;
  setMissionsEnabled(ids: string[], enabled: boolean): Promise<{ changed: string[] }>;
  reorderMissions(category: string, ids: string[]): Promise<{ changed: string[] }>;
  /** A player's proof picture: an image, not JSON, read with the operator's token. */
  proofImage(imageId: string): Promise<Blob>;
  /** An operator lets a player's referral rewards go at their current risk score: what waited is paid. */
  clearRisk(userId: string): Promise<{ score: number; level: string; released: number }>;
  setPlayerStatus(body: {
    ids: string[];
    status: string;
    statusReason?: string;
    fa?: { statusReason?: string };
  }): Promise<{ changed: string[] }>;
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
  update: async (resource, params) => {
    const result = await rest.update(resource, params);
    // an update's record and id are typed `any` by react-admin
    return SINGLETONS.has(resource) ? { ...result, data: { ...(result.data as RaRecord), id: params.id as Identifier } } : result;
  },
  reorderMissions: async (category, ids) =>
    (await httpClient(`${API_URL}/missions/reorder`, { method: 'POST', body: JSON.stringify({ category, ids }) })).json as {
      changed: string[];
    },
  proofImage: async (imageId) => {
    const response = await fetch(`${API_URL}/proofs/${encodeURIComponent(imageId)}`, {
      headers: { Authorization: `Bearer ${adminToken() ?? ''}` },
    });
    if (!response.ok) throw new Error(String(response.status));
    return response.blob();
  },
  /** Every figure of the dashboard, in one call. */
  getDashboard: async () => (await httpClient(`${API_URL}/dashboard`)).json as DashboardFigures,
  /** One decision on several pending Manual missions: { reviewed, refused }. */
  bulkReview: async (body) =>
    (await httpClient(`${API_URL}/user-missions/bulk-review`, { method: 'POST', body: JSON.stringify(body) })).json as BulkReviewAnswer,
  /** A gift or correction of a player's balance through the ledger. */
  adjustBalance: async (userId, body) =>
    (await httpClient(`${API_URL}/users/${encodeURIComponent(userId)}/adjustments`, { method: 'POST', body: JSON.stringify(body) }))
      .json as BalanceAdjustment,
  /** How many players a broadcast's segment reaches now. */
  countSegment: async (segment) =>
    (await httpClient(`${API_URL}/broadcasts/count`, { method: 'POST', body: JSON.stringify({ segment }) })).json as { count: number },
  /** The broadcast sent now to the operator's own Telegram, in each of its languages. */
  testBroadcast: async (id) =>
    (await httpClient(`${API_URL}/broadcasts/${encodeURIComponent(id)}/test`, { method: 'POST', body: '{}' })).json as {
      languages: string[];
    },
  /** One credit taken back with the reason: what the balance covers now, the rest owed. */
  clawBack: async (userId, body) =>
    (await httpClient(`${API_URL}/users/${encodeURIComponent(userId)}/claw-backs`, { method: 'POST', body: JSON.stringify(body) }))
      .json as { status: string; taken: string; owed: string; symbol: string },
  /** A second operator's approval of a gift that waits: posted at once. */
  approveGift: async (id) =>
    (await httpClient(`${API_URL}/gifts/${encodeURIComponent(id)}/approve`, { method: 'POST', body: '{}' })).json as unknown,
  decideReward: async (path, body) =>
    (await httpClient(`${API_URL}/${path}`, { method: 'POST', body: JSON.stringify(body) })).json as Record<string, unknown>,
  /** A gift that waits, turned down with the reason. */
  rejectGift: async (id, rejectReason) =>
    (await httpClient(`${API_URL}/gifts/${encodeURIComponent(id)}/reject`, { method: 'POST', body: JSON.stringify({ rejectReason }) }))
      .json as unknown,
  /** A second operator's approval of access that moves money, asked for an account: it holds it at once. */
  approveGrant: async (id) =>
    (await httpClient(`${API_URL}/account-grants/${encodeURIComponent(id)}/approve`, { method: 'POST', body: '{}' })).json as unknown,
  /** Access asked for an account, turned down with the reason. */
  rejectGrant: async (id, rejectReason) =>
    (
      await httpClient(`${API_URL}/account-grants/${encodeURIComponent(id)}/reject`, {
        method: 'POST',
        body: JSON.stringify({ rejectReason }),
      })
    ).json as unknown,
  /** Several missions enabled or disabled at once. */
  setMissionsEnabled: async (ids, enabled) =>
    (await httpClient(`${API_URL}/missions/enabled`, { method: 'POST', body: JSON.stringify({ ids, enabled }) })).json as {
      changed: string[];
    },
  clearRisk: async (userId) =>
    (await httpClient(`${API_URL}/risk/${encodeURIComponent(userId)}/clear`, { method: 'POST', body: '{}' })).json as {
      score: number;
      level: string;
      released: number;
    },
  /** One status, with its reason, for several players at once. */
  setPlayerStatus: async (body) =>
    (await httpClient(`${API_URL}/users/status`, { method: 'POST', body: JSON.stringify(body) })).json as { changed: string[] },
  /** The players a broadcast did not reach, with the reasons. */
  broadcastFailures: async (id) =>
    (await httpClient(`${API_URL}/broadcasts/${encodeURIComponent(id)}/failures`)).json as BroadcastFailure[],
};

/** The console's own calls from the app's data provider (DataProvider's index signature would type them `any`). */
export const useConsoleCalls = (): ConsoleCalls => useDataProvider() as unknown as ConsoleCalls;
