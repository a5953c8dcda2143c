import type { TranslateFunction } from 'react-admin';
import type { CsvColumn } from './csvExport';

/** A player as the lists name them: their name and @username. */
const playerName = (name: unknown, username: unknown) =>
  typeof username === 'string' && username
    ? `${typeof name === 'string' ? name : ''} (@${username})`.trim()
    : typeof name === 'string'
      ? name
      : '';

const CREATED: CsvColumn = { source: 'createdAt' };
const ORDERED: CsvColumn[] = [{ source: 'order' }, { source: 'enabled' }, CREATED];
const ID: CsvColumn = { source: 'id', label: 'exports.id' };
const PLAYER: CsvColumn = { source: 'user', reference: ['users', 'name'] };
const OPERATOR = (source: string): CsvColumn => ({ source, reference: ['accounts', 'username'] });
const COIN: CsvColumn = { source: 'coin', reference: ['gift-coins', 'symbol'] };
const RISK: CsvColumn[] = [
  { source: 'risk.score', label: 'risk.scoreColumn' },
  { source: 'risk.level', label: 'risk.level', words: 'risk.levels' },
];
const PLAYERS: CsvColumn[] = [
  ID,
  { source: 'telegramId' },
  { source: 'name' },
  { source: 'username' },
  { source: 'referrersCount' },
  { source: 'doneMissionsCount' },
  ...RISK,
  { source: 'status', words: 'players.status' },
  { source: 'lastSeenAt' },
  CREATED,
];

/**
 * The columns of each list's CSV (its Export button), by the list's resource or own name: what the list shows, in words a person
 * reads (names rather than ids, statuses as words, amounts as exact decimal strings, dates in ISO 8601), with each record's id.
 */
export const EXPORT_COLUMNS: Record<string, CsvColumn[]> = {
  users: PLAYERS,
  'users.risk': [
    ...PLAYERS,
    { source: 'risk.signals', label: 'risk.signalsTitle', value: (r, { translate }) => riskSignals(r.risk, translate) },
  ],
  balances: [
    { source: 'user', label: 'holders.player', reference: ['users', 'name'] },
    { ...COIN, label: 'holders.coin' },
    { source: 'amount', label: 'holders.amount' },
  ],
  withdraws: [
    ID,
    { source: 'user', value: (r) => playerName(r.userName, r.username) },
    ...RISK.map((column) => ({ ...column, source: column.source.replace('risk', 'playerRisk') })),
    { source: 'amount' },
    { source: 'coin', value: (r) => r.coinSymbol as string },
    { source: 'address' },
    { source: 'status', words: 'statuses.withdrawal' },
    { source: 'chainState', words: 'withdraws.chainStates' },
    { source: 'txHash' },
    { source: 'processedAt' },
    CREATED,
  ],
  'user-missions': [
    ID,
    PLAYER,
    { source: 'mission', reference: ['missions', 'title'] },
    { source: 'status', words: 'statuses.progress' },
    { source: 'reward' },
    { source: 'coin', value: (r) => r.coinSymbol as string },
    { source: 'claimedAt' },
    { source: 'rejectReason' },
    CREATED,
  ],
  missions: [
    ID,
    { source: 'title' },
    { source: 'fa.title' },
    { source: 'category', reference: ['categories', 'title'] },
    { source: 'verifyType', words: 'verifyTypes' },
    { source: 'reward' },
    COIN,
    { source: 'mustDone' },
    { source: 'completions' },
    { source: 'cap' },
    ...ORDERED,
  ],
  categories: [ID, { source: 'title' }, { source: 'fa.title' }, ...ORDERED],
  covers: [ID, { source: 'title' }, { source: 'fa.title' }, { source: 'link' }, ...ORDERED],
  partners: [ID, { source: 'name' }, { source: 'fa.name' }, { source: 'link' }, ...ORDERED],
  'gift-coins': [
    ID,
    { source: 'name' },
    { source: 'fa.name' },
    { source: 'symbol' },
    { source: 'network', words: 'coins.networks' },
    { source: 'usdPrice' },
    { source: 'minWithdraw' },
    { source: 'withdrawEnabled' },
    ...ORDERED,
  ],
  'staking-coins': [
    ID,
    COIN,
    { source: 'minAmount' },
    { source: 'maxAmount' },
    ...['week', 'month', 'threeMonths', 'sixMonths', 'year'].map((key) => ({ source: `profits.${key}` })),
    ...ORDERED,
  ],
  accounts: [
    ID,
    { source: 'username' },
    { source: 'permissions' },
    { source: 'enabled' },
    OPERATOR('createdBy'),
    { source: 'lastLoginAt' },
    CREATED,
  ],
  'account-grants': [
    ID,
    { source: 'username' },
    { source: 'permissions' },
    OPERATOR('requestedBy'),
    { source: 'status', words: 'accountGrants.statuses' },
    OPERATOR('decidedBy'),
    { source: 'rejectReason' },
    CREATED,
  ],
  gifts: [
    ID,
    PLAYER,
    { source: 'amount' },
    COIN,
    { source: 'note' },
    OPERATOR('requestedBy'),
    { source: 'status', words: 'gifts.statuses' },
    { source: 'reason', label: 'brakes.reason', words: 'brakes.reasons' },
    { source: 'rejectReason' },
    CREATED,
  ],
  broadcasts: [
    ID,
    { source: 'text' },
    { source: 'status', words: 'broadcasts.statuses' },
    { source: 'audience', label: 'exports.audience' },
    { source: 'sent' },
    { source: 'failed' },
    { source: 'blocked' },
    { source: 'scheduledAt' },
    CREATED,
  ],
};

/** The signals that scored a player, as the Risk list words them. */
function riskSignals(risk: unknown, translate: TranslateFunction): string {
  const signals = (risk as { signals?: Array<{ signal: string; evidence?: Record<string, unknown> }> } | undefined)?.signals ?? [];
  return signals.map((s) => translate(`risk.short.${s.signal}`, s.evidence)).join('; ');
}
