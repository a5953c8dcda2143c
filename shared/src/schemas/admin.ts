import { z } from 'zod';
import {
  ADMIN_RESOURCES,
  LANGUAGES,
  PAYOUT_RISK_HOLDS,
  USER_MISSION_STATUSES,
  LEDGER_REASONS,
  PLAYER_STATUSES,
  RISK_SIGNALS,
} from '../constants';
import { amount, blankable, idempotencyKey, nonEmpty, nullAsAbsent, objectId, optionalUrl, positiveAmount, txHash } from './common';
import { tonAddress } from './catalog';
import { asciiDigits } from '../numerals';

export const loginInput = z.object({
  username: z.string().trim().min(1, 'This field is required').max(64),
  password: z.string().min(1, 'This field is required').max(200),
  /** With two-step sign-in on: the 6-digit code of the operator's app, or one of their recovery codes. */
  totp: z.string().trim().max(32).optional(),
});

/** A two-step sign-in code (6 digits from the app) or a recovery code: confirms enrolment, turns it off. */
export const totpCodeInput = z.object({
  totp: z.string().trim().min(1, 'This field is required').max(32),
});

/** '*' grants everything; otherwise '<resource>:read' or '<resource>:write' (write implies read). */
export const permission = z.union([z.literal('*'), z.templateLiteral([z.enum(ADMIN_RESOURCES), ':', z.enum(['read', 'write'])])]);
export type Permission = z.infer<typeof permission>;

/**
 * Permissions that move money: giving one (creating an account with it, or adding it) waits for a second, independent
 * operator, and the account a second approval comes from must not have been given one by the operator who asked.
 */
export const MONEY_PERMISSIONS = [
  '*',
  'gifts:write',
  'withdraws:write',
  'user-missions:write',
  'missions:write',
  'app-config:write',
  'accounts:write',
] as const satisfies readonly Permission[];

/** Whether giving this permission waits for a second operator. */
export function isMoneyPermission(permission: string): boolean {
  return (MONEY_PERMISSIONS as readonly string[]).includes(permission);
}

const accountBase = {
  username: z
    .string()
    .trim()
    .min(3, 'At least 3 characters')
    .max(64)
    .regex(/^[a-zA-Z0-9_.-]+$/, 'Letters, digits, dot, dash and underscore only'),
  permissions: z
    .array(permission)
    .max(ADMIN_RESOURCES.length * 2 + 1)
    .default([]),
  enabled: z.boolean().default(true),
  /** The operator's own Telegram id (tests of broadcasts go there); empty for none. */
  telegramId: z
    .preprocess(
      (v) => (v === '' || v === undefined ? null : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v),
      z
        .number({ error: 'Digits only, as @userinfobot shows it' })
        .int('Digits only, as @userinfobot shows it')
        .min(1)
        .max(Number.MAX_SAFE_INTEGER)
        .nullable(),
    )
    .default(null),
};
/** The password policy's length; the server also refuses one containing the username or a common one. */
const strongPassword = z.string().min(12, 'At least 12 characters').max(200);

export const accountCreateInput = z.object({ ...accountBase, password: strongPassword });
/** On edit the password is optional: empty keeps the current one. */
export const accountUpdateInput = z.object({ ...accountBase, password: strongPassword.optional().or(z.literal('')) });

/** The weight of each risk signal (0 turns it off) and the scores where review and high begin. */
export const riskSettingsInput = z
  .object({
    weights: z
      .object(
        Object.fromEntries(RISK_SIGNALS.map((signal) => [signal, z.coerce.number().int().min(0).max(100)])) as Record<
          (typeof RISK_SIGNALS)[number],
          z.ZodCoercedNumber
        >,
      )
      .partial(),
    reviewAt: z.coerce.number().int().min(1).max(1000),
    highAt: z.coerce.number().int().min(1).max(1000),
    holdPayoutsFrom: z.enum(PAYOUT_RISK_HOLDS, { message: 'Choose review, high or off' }),
  })
  .partial()
  .refine((v) => v.reviewAt === undefined || v.highAt === undefined || v.highAt > v.reviewAt, {
    path: ['highAt'],
    message: 'High must start above review',
  });

/** Whether the runtime knows a timezone name (IANA, such as Asia/Tehran or UTC). */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** A time of day, HH:MM on a 24-hour clock. */
const clockTime = z
  .string()
  .trim()
  // Persian and Arabic-Indic digits are read as the times they are
  .transform(asciiDigits)
  .pipe(z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'A time such as 22:00'));

/** A reward for reaching a streak of this many days of daily missions. */
const streakMilestone = z.object({
  days: z.coerce.number().int('Whole days').min(2, 'At least 2 days').max(3650),
  coin: objectId,
  amount: positiveAmount,
});

/** A canned reason for rejecting a Manual claim, in both languages; `id` names a saved one (absent: a new one). */
const cannedRejectReason = z.object({
  id: objectId.optional(),
  en: nonEmpty(300),
  fa: nonEmpty(300),
});

/** A league week's share moved up or down: a whole percent, at most half the league. */
const leagueShare = z.coerce.number().int('A whole number').min(0, 'At least 0%').max(50, 'At most 50%');

/** A host name as TON Connect's proof names the app (app.example.com, or localhost:5173 in development). */
const DOMAIN = /^(?=.{1,253}(?::|$))(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?::\d{1,5})?$/i;

export const appConfigInput = z.object({
  botToken: z
    .string()
    .trim()
    .regex(/^(\d+:[A-Za-z0-9_-]{30,})?$/, 'A bot token looks like 123456:ABC…')
    .nullish(),
  /** Removes the saved token (the bot stops, unless the environment sets one). */
  clearBotToken: z.boolean().optional(),
  botUsername: blankable(
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_]{5,32}$/, 'A bot username has 5 to 32 letters, digits or _'),
  ),
  miniAppName: blankable(
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_]{3,64}$/, 'The short name of the mini app in BotFather'),
  ),
  /** The Help page's contact: a t.me or https link. */
  supportContact: optionalUrl,
  referrerMessage: blankable(z.string().trim().max(500)),
  /** What Persian players share; blank: the English. */
  fa: z
    .object({ referrerMessage: blankable(z.string().trim().max(500)) })
    .partial()
    .optional(),
  /** Empty or null: none (the console sends back the null it was given). */
  referrerCoin: objectId.nullish().or(z.literal('')),
  referrerCoinAmount: nullAsAbsent(amount.default('0')),
  defaultInviteLimit: z.coerce.number().int().min(0).max(1_000_000).default(100),
  miningCoin: objectId.nullish().or(z.literal('')),
  earnDurationHours: z.coerce
    .number()
    .int('Whole hours')
    .min(1)
    .max(24 * 30)
    .default(8),
  earnAmount: nullAsAbsent(amount.default('0')),
  tonProofDomains: z
    .array(z.string().trim().min(1).max(253))
    .max(10)
    .default([])
    .superRefine((domains, context) => {
      const bad = domains.find((domain) => !DOMAIN.test(domain));
      if (bad !== undefined)
        context.addIssue({
          code: 'custom',
          message: `“${bad}” is not a domain: write it like app.example.com, without https:// or a path`,
        });
    }),
  /** The day daily missions and streaks count in (an IANA name such as Asia/Tehran). */
  timezone: nullAsAbsent(z.string().trim().refine(isTimeZone, 'A timezone name such as UTC or Asia/Tehran').default('UTC')),
  /** Rewards for streaks of daily missions: each paid once per streak, when it reaches its days. */
  streakMilestones: nullAsAbsent(
    z
      .array(streakMilestone)
      .max(20)
      .default([])
      .superRefine((milestones, context) => {
        const seen = new Set<number>();
        milestones.forEach((milestone, index) => {
          if (seen.has(milestone.days))
            context.addIssue({ code: 'custom', message: 'Each milestone needs its own number of days', path: [index, 'days'] });
          seen.add(milestone.days);
        });
      }),
  ),
  /** Off: wallets on TON testnet cannot be linked, since mainnet payouts cannot reach them. */
  allowTestnetWallets: z.boolean().default(false),
  /** The wallets withdrawals are paid from by hand; a typed transaction hash must be one of theirs. */
  payoutWallets: z.array(tonAddress).max(20).default([]),
  /** On: automated payouts send nothing until it is turned off. */
  payoutsPaused: z.boolean().default(false),
  /** The reasons a reviewer picks from to reject a Manual claim (or writes their own). */
  rejectReasons: nullAsAbsent(
    z
      .array(cannedRejectReason)
      .max(30, 'At most 30 reasons')
      .default([])
      .superRefine((reasons, context) => {
        const seen = new Set<string>();
        reasons.forEach((reason, index) => {
          if (reason.id && seen.has(reason.id)) context.addIssue({ code: 'custom', message: 'Each reason once', path: [index, 'id'] });
          if (reason.id) seen.add(reason.id);
        });
      }),
  ),
  risk: riskSettingsInput.optional(),
  /**
   * The reminders the bot sends players: quiet hours (HH:MM to HH:MM in the App Config timezone; equal times: none), how many
   * reminders a player gets a day at most, and how many hours before the day ends a streak about to break is reminded (0: never).
   */
  reminders: z
    .object({
      quietStart: clockTime.default('22:00'),
      quietEnd: clockTime.default('08:00'),
      dailyCap: z.coerce.number().int('A whole number').min(0).max(20).default(3),
      streakHoursBefore: z.coerce.number().int('Whole hours').min(0).max(23).default(4),
    })
    .optional(),
  /** The leagues' week end: the percent of each league moved up one league, and the percent moved down one (0 to 50 each). */
  leagues: z
    .object({
      promotePercent: leagueShare.default(20),
      relegatePercent: leagueShare.default(20),
    })
    .optional(),
  /**
   * When a friend earns their referrer the reward: after this many missions done, or this many days after joining while still
   * playing (0 and 0: at the join); a Premium friend's reward is this percent of the amount (100: the same).
   */
  referralQualification: z
    .object({
      doneMissions: z.coerce.number().int().min(0).max(1000),
      activeDays: z.coerce.number().int().min(0).max(365),
      premiumRewardPercent: z.coerce.number().int().min(100, 'At least 100 (the same as others)').max(1000),
    })
    .partial()
    .optional(),
});
export type AppConfigInput = z.infer<typeof appConfigInput>;

const statusReason = z.string().trim().max(300, 'At most 300 characters');

/** A frozen or banned player is told why, in English and (when written) in Persian; back to active clears the reason. */
const playerStanding = {
  status: z.enum(PLAYER_STATUSES).optional(),
  statusReason: statusReason.optional(),
  fa: z.object({ statusReason: statusReason.optional() }).optional(),
};
function requireReason(standing: { status?: string; statusReason?: string }, ctx: z.RefinementCtx) {
  if (standing.status && standing.status !== 'active' && !standing.statusReason)
    ctx.addIssue({ code: 'custom', path: ['statusReason'], message: 'Say why: the player reads this reason' });
}

/**
 * What an operator may change on a player (each field optional: a PUT of `{ status, statusReason }` alone sets the
 * status); the rest follows from Telegram and the ledger.
 */
export const userUpdateInput = z
  .object({
    inviteLimit: z.coerce.number().int().min(0).max(1_000_000).optional(),
    language: z.enum(LANGUAGES).optional(),
    ...playerStanding,
  })
  .superRefine(requireReason);

/** One status, with its reason, for many players at once (the console's bulk freeze and ban). */
export const userStatusBulkInput = z
  .object({
    ids: z.array(objectId).min(1, 'Choose players').max(500, 'At most 500 players at once'),
    ...playerStanding,
    status: z.enum(PLAYER_STATUSES),
  })
  .superRefine(requireReason);

/** A risk cluster as the Risk tab links it: the friends of one referrer, one network, one wallet, or a referrer's friends on one network. */
const riskCluster = z
  .object({
    referrer: objectId.optional(),
    joinNetwork: z.string().trim().min(1).max(100).optional(),
    walletAddresses: z.string().trim().min(1).max(100).optional(),
  })
  .strict()
  .refine((cluster) => Object.keys(cluster).length > 0, 'Choose a cluster');

/** What banning a cluster and taking back what it earned would do: asked before the operator confirms. */
export const clusterCleanUpPreviewInput = z.object({ cluster: riskCluster });

/** The clean-up the operator saw in the preview (its key), confirmed with the reason the banned players read. */
export const clusterCleanUpInput = z
  .object({
    cluster: riskCluster,
    key: z.string().regex(/^[0-9a-f]{64}$/, 'Preview the clean-up first'),
    ...playerStanding,
    status: z.literal('banned').default('banned'),
  })
  .superRefine(requireReason);

/** A gift or a correction of a player's balance, always with a reason. */
export const balanceAdjustmentInput = z.object({
  coin: objectId,
  amount: positiveAmount,
  direction: z.enum(['credit', 'debit']),
  note: nonEmpty(300),
  /** Client-chosen key so a double-submitted form adjusts once. */
  idempotencyKey,
});

/** A credit taken back by an operator, always with the reason (the ledger and the audit keep it). */
export const clawBackInput = z.object({ entryId: objectId, reason: nonEmpty(300) });

/** What waits for a second operator (a gift, access asked for an account) turned down, always with the reason. */
export const rejectionInput = z.object({ rejectReason: nonEmpty(300) });
/** A second operator's decision on a change that waits for them: the change they saw (its id), and a reason to turn it down. */
export const changeApprovalInput = z.object({ id: objectId });
export const changeRejectionInput = changeApprovalInput.extend(rejectionInput.shape);

/**
 * A console save of a record with a money brake (a mission, a staking offer, a coin, a Stars offer, App Config): the brake state
 * of the record as the form was opened on it (`brakeState`, as the record read carries it, opaque). Absent: the save's own read
 * stands for it (an API client, an older console).
 */
export const brakeStateInput = z.object({
  brakeState: z
    .string()
    .regex(/^[A-Za-z0-9_-]{22}$/, 'Reload the record and save again')
    .optional(),
});

/** Approve, or reject with the reason the player is shown. */
export const userMissionReviewInput = z.discriminatedUnion('status', [
  z.object({ status: z.literal('done') }),
  z
    .object({
      status: z.literal('rejected'),
      rejectReason: nonEmpty(300).optional(),
      /** One of App Config's canned reasons: the player reads it in their language (its text replaces `rejectReason`). */
      reasonId: objectId.optional(),
    })
    .refine((review) => review.rejectReason !== undefined || review.reasonId !== undefined, {
      path: ['rejectReason'],
      message: 'This field is required',
    }),
]);
/** The same decision on several pending Manual missions at once. */
export const userMissionBulkReviewInput = z.intersection(
  z.object({ ids: z.array(objectId).min(1, 'Choose at least one').max(100) }),
  userMissionReviewInput,
);
export const userMissionStatus = z.enum(USER_MISSION_STATUSES);

export const withdrawalReviewInput = z.discriminatedUnion('status', [
  /** Paid by hand: the hash of the transaction that paid it, checked on chain. */
  z.object({ status: z.literal('done'), txHash: txHash }),
  /** For the hot wallet to pay. */
  z.object({ status: z.literal('approved') }),
  z.object({ status: z.literal('rejected'), rejectReason: nonEmpty(300) }),
]);

export const ledgerReason = z.enum(LEDGER_REASONS);

/** The longest range the dashboard answers for: a year and a day (a leap year's comparison included). */
export const DASHBOARD_MAX_DAYS = 366;
const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date as YYYY-MM-DD')
  .refine((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day), {
    message: 'Use a date as YYYY-MM-DD',
  });
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * The dashboard's range (GET /api/admin/dashboard?from&to): whole UTC days, both included; either may be left out
 * (the range then ends today, and spans 30 days).
 */
export const dashboardRangeInput = z
  .object({ from: isoDay.optional(), to: isoDay.optional() })
  .refine(({ from, to }) => !from || !to || from <= to, { message: 'The start comes after the end', path: ['from'] })
  .refine(({ from, to }) => !from || !to || (Date.parse(to) - Date.parse(from)) / DAY_MS < DASHBOARD_MAX_DAYS, {
    message: `At most ${DASHBOARD_MAX_DAYS} days`,
    path: ['from'],
  });
export type DashboardRange = z.infer<typeof dashboardRangeInput>;
/** The orders of the referral quality list (GET /api/admin/dashboard/analytics?sort): the top referrers first. */
export const REFERRER_ORDERS = ['qualified', 'joined', 'rate'] as const;
/** What the analytics page asks besides its range: the referrers' order, and one mission's funnel alone (its own page). */
export const analyticsInput = z.object({ sort: z.enum(REFERRER_ORDERS).optional(), mission: objectId.optional() });
export type AnalyticsQuery = z.infer<typeof analyticsInput>;
/** What GET /api/admin/books asks: one coin's books alone (by default every coin's). */
export const booksInput = z.object({ coin: objectId.optional() });
