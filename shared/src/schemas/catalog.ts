import { z } from 'zod';
import { MISSION_REPEATS, PROOF_KINDS, STAKING_DURATION_KEYS, VERIFY_TYPES } from '../constants';
import { toMicros } from '../money';
import { telegramBoostTarget, telegramMissionChat } from '../telegramLinks';
import {
  amount,
  blankable,
  imageUrl,
  nonEmpty,
  nullAsAbsent,
  objectId,
  optionalDate,
  optionalImage,
  optionalUrl,
  order,
  percent,
  positiveAmount,
} from './common';

/** A Persian text beside an English one: optional, and a blank one falls back to the English for Persian players. */
const persian = (max: number) => blankable(z.string().trim().max(max));

export const tonAddress = z
  .string()
  .trim()
  .regex(/^(?:-?\d+:[a-fA-F0-9]{64}|[A-Za-z0-9_-]{48})$/, 'Enter a TON address');

export const giftCoinInput = z
  .object({
    name: nonEmpty(60),
    fa: z
      .object({ name: persian(60) })
      .partial()
      .default({}),
    symbol: z
      .string()
      .trim()
      .min(1, 'This field is required')
      .max(12)
      .regex(/^[A-Za-z0-9$]+$/, 'Letters and digits only'),
    icon: optionalImage,
    decimals: z.coerce.number().int().min(0).max(18).default(9),
    usdPrice: blankable(amount),
    minWithdraw: amount.default('0'),
    withdrawEnabled: z.boolean().default(false),
    /**
     * Above this, a withdrawal needs two operators' approvals before the hot wallet pays it; 0: never (an explicit choice).
     * Absent on a new coin: the suggested amount (`suggestedCoinBrakes`); absent on an edit: kept as saved.
     */
    payoutApprovalAbove: nullAsAbsent(amount.optional()),
    /**
     * Above this, an operator's gift or correction, a mission's reward and an App Config reward wait for a second operator's
     * approval; 0: never (an explicit choice). Absent: as `payoutApprovalAbove`.
     */
    giftApprovalAbove: nullAsAbsent(amount.optional()),
    /**
     * The most value one operator creates alone in this coin in a rolling 24 hours (gifts they give, Manual claims they
     * approve); past it every further creation waits for a second operator. 0: no limit (an explicit choice). Absent: as above.
     */
    operatorDailyLimit: nullAsAbsent(amount.optional()),
    /** The most the hot wallet pays out of this coin per UTC day; 0: no cap. */
    payoutDailyCap: nullAsAbsent(amount.default('0')),
    network: z.enum(['ton', 'jetton']).default('jetton'),
    jettonMaster: blankable(tonAddress),
    enabled: z.boolean().default(true),
    order,
  })
  .refine((c) => c.network !== 'jetton' || !!c.jettonMaster || !c.withdrawEnabled, {
    message: 'A jetton needs its master address before withdrawals can be enabled',
    path: ['jettonMaster'],
  });
export type GiftCoinInput = z.infer<typeof giftCoinInput>;

/** The brakes of a coin, in whole coins: gifts and rewards above, payouts above, and one operator's value a day. */
export interface CoinBrakes {
  giftApprovalAbove: string;
  payoutApprovalAbove: string;
  operatorDailyLimit: string;
}

/** The brakes a coin gets unless an operator chooses others: worth these many US dollars when its price is known. */
const SUGGESTED_USD = { giftApprovalAbove: 250, payoutApprovalAbove: 500, operatorDailyLimit: 1000 } as const;
/** Without a price, in whole coins. */
const SUGGESTED_COINS: CoinBrakes = { giftApprovalAbove: '1000', payoutApprovalAbove: '1000', operatorDailyLimit: '5000' };

/** The largest 1, 2 or 5 × 10ⁿ at most `value`, as an amount (at least one micro-unit). */
function roundDown125(value: number): string {
  const exponent = Math.floor(Math.log10(value));
  if (exponent < -6) return '0.000001';
  const mantissa = value / 10 ** exponent;
  const digit = mantissa >= 5 ? 5 : mantissa >= 2 ? 2 : 1;
  return exponent >= 0 ? String(digit * 10 ** exponent) : (digit * 10 ** exponent).toFixed(-exponent);
}

/**
 * The thresholds a coin starts with, on by default: a gift or reward above about 250 USD and a payout above about 500 USD
 * wait for a second operator, and one operator creates at most about 1,000 USD a day alone (rounded down to 1, 2 or 5 × 10ⁿ
 * coins); a coin without a price: 1,000, 1,000 and 5,000 coins.
 */
export function suggestedCoinBrakes(coin: { usdPrice?: string | null }): CoinBrakes {
  const price = Number(coin.usdPrice ?? '');
  if (!(price > 0) || !Number.isFinite(price)) return { ...SUGGESTED_COINS };
  const worth = (usd: number) => {
    const coins = usd / price;
    return coins >= 1e9 ? '1000000000' : roundDown125(coins);
  };
  return {
    giftApprovalAbove: worth(SUGGESTED_USD.giftApprovalAbove),
    payoutApprovalAbove: worth(SUGGESTED_USD.payoutApprovalAbove),
    operatorDailyLimit: worth(SUGGESTED_USD.operatorDailyLimit),
  };
}

export const categoryInput = z.object({
  title: nonEmpty(80),
  description: blankable(z.string().trim().max(500)),
  fa: z
    .object({ title: persian(80), description: persian(500) })
    .partial()
    .default({}),
  image: optionalImage,
  order,
  enabled: z.boolean().default(true),
});
export type CategoryInput = z.infer<typeof categoryInput>;

/** The longest story caption every player can post (Premium players may write more). */
const STORY_TEXT_MAX = 200;
const CUSTOM_EMOJI_ID_PROBLEM = 'A custom emoji id is a number, for example 5368324170671202286';
/** Verify types whose Claim works a set number of minutes after Go. */
const TIME_GATED_TYPES: readonly string[] = ['time', 'instagram', 'homeScreen', 'story'];

const missionFields = z.object({
  category: objectId,
  title: nonEmpty(120),
  description: blankable(z.string().trim().max(1000)),
  link: optionalUrl,
  image: optionalImage,
  reward: positiveAmount,
  coin: objectId,
  verifyType: z.enum(VERIFY_TYPES),
  verifyDuration: nullAsAbsent(
    z.coerce
      .number()
      .int()
      .min(0)
      .max(60 * 24 * 30)
      .default(0),
  ),
  claimButton: nullAsAbsent(z.string().trim().max(30).default('Claim')),
  goButton: nullAsAbsent(z.string().trim().max(30).default('Go')),
  /** What Persian players read; each blank one falls back to the English. */
  fa: z
    .object({
      title: persian(120),
      description: persian(1000),
      claimButton: persian(30),
      goButton: persian(30),
      storyText: persian(STORY_TEXT_MAX),
    })
    .partial()
    .default({}),
  /** An emoji status mission's custom emoji: the status the player sets, and the bot checks with getChat. */
  emojiId: blankable(
    z
      .string()
      .trim()
      .regex(/^\d{1,24}$/, CUSTOM_EMOJI_ID_PROBLEM),
  ),
  /** A story mission's picture or video (Telegram takes https only; a path on this site is made whole by the app). */
  storyMedia: optionalImage,
  /** A story mission's caption (Telegram allows 200 characters to a player without Premium). */
  storyText: blankable(z.string().trim().max(STORY_TEXT_MAX)),
  /** Write-only: the console never gets it back, so an untouched field may come as empty, null or absent. */
  secretCode: z.string().trim().max(64).nullish(),
  /** A Telegram mission's chat by id: needed for an invite link (t.me/+…), which does not name the chat. */
  telegramChatId: blankable(z.string().trim().max(24)),
  order,
  enabled: z.boolean().default(true),
  mustDone: z.boolean().default(false),
  /** Players see the mission only from startsAt and before endsAt; null: no bound. */
  startsAt: optionalDate,
  endsAt: optionalDate,
  /** The most completions (a claim waiting for review holds its place); null: no limit. */
  cap: z
    .preprocess(
      (v) => (v === '' || v === undefined ? null : v),
      z.coerce.number().int('Must be a whole number').min(1, 'At least 1, or empty for no limit').max(100_000_000).nullable(),
    )
    .default(null),
  /** `daily`: done again each day, in the App Config's timezone, each day its own credit. */
  repeat: z.enum(MISSION_REPEATS).default('none'),
  /** What a Manual mission's claim must carry for its review: any of a link, a text and a picture (kept for Manual missions only). */
  proof: nullAsAbsent(
    z
      .array(z.enum(PROOF_KINDS))
      .max(PROOF_KINDS.length)
      .default([])
      .transform((kinds) => [...new Set(kinds)]),
  ),
});
const missionRules = (schema: typeof missionFields) =>
  schema
    .refine((m) => !m.startsAt || !m.endsAt || m.endsAt > m.startsAt, {
      message: 'The end must come after the start',
      path: ['endsAt'],
    })
    .superRefine((m, context) => {
      if (m.verifyType !== 'telegram' && m.verifyType !== 'boost') return;
      const chat = m.verifyType === 'boost' ? telegramBoostTarget(m.link, m.telegramChatId) : telegramMissionChat(m.link, m.telegramChatId);
      if ('problem' in chat) context.addIssue({ code: 'custom', message: chat.problem, path: [chat.field] });
    })
    .refine((m) => !TIME_GATED_TYPES.includes(m.verifyType) || m.verifyDuration > 0, {
      message: 'Set how many minutes to wait before claiming',
      path: ['verifyDuration'],
    })
    .refine((m) => m.verifyType !== 'emojiStatus' || !!m.emojiId, {
      message: 'An emoji status mission needs its custom emoji id',
      path: ['emojiId'],
    })
    .refine((m) => m.verifyType !== 'story' || !!m.storyMedia, {
      message: 'A story mission needs the picture or video to share',
      path: ['storyMedia'],
    });
export const missionInput = missionRules(missionFields).refine((m) => m.verifyType !== 'youtube' || !!m.secretCode, {
  message: 'A YouTube mission needs its secret code',
  path: ['secretCode'],
});
/** On edit a blank secret code keeps the saved one, so the server checks the YouTube rule against what is saved. */
export const missionUpdateInput = missionRules(missionFields);
export type MissionInput = z.infer<typeof missionInput>;

/** A category's missions in their new order (the console's drag to reorder): every one of them, each once. */
export const missionsReorderInput = z.object({
  category: objectId,
  ids: z
    .array(objectId)
    .min(1, 'Choose missions')
    .max(500, 'At most 500 missions at once')
    .refine((ids) => new Set(ids).size === ids.length, 'Each mission once'),
});

/** Several missions enabled or disabled at once (the console's bulk action). */
export const missionsEnabledInput = z.object({
  ids: z.array(objectId).min(1, 'Choose missions').max(500, 'At most 500 missions at once'),
  enabled: z.boolean(),
});

/** What a home cover and a partner share: a picture, the link it opens, its place in the row, and whether it shows. */
const imageLinkFields = { image: imageUrl, link: optionalUrl, order, enabled: z.boolean().default(true) };

export const coverInput = z.object({
  title: blankable(z.string().trim().max(120)),
  // a banner's picture usually carries words: Persian players see the Persian one where it is set
  fa: z
    .object({ title: persian(120), image: optionalImage })
    .partial()
    .default({}),
  ...imageLinkFields,
});
export type CoverInput = z.infer<typeof coverInput>;

export const partnerInput = z.object({
  name: nonEmpty(80),
  fa: z
    .object({ name: persian(80) })
    .partial()
    .default({}),
  ...imageLinkFields,
});
export type PartnerInput = z.infer<typeof partnerInput>;

const profitPercent = blankable(percent);
/** Profit percent per staking term; an empty one is not offered. */
export const stakingProfits = z.object({
  week: profitPercent,
  month: profitPercent,
  threeMonths: profitPercent,
  sixMonths: profitPercent,
  year: profitPercent,
});

/** min <= max; a malformed amount is left to its own field's message (zod runs object rules even then). */
function inOrder(min: string, max: string): boolean {
  try {
    return toMicros(min) <= toMicros(max);
  } catch {
    return true;
  }
}

export const stakingCoinInput = z
  .object({
    coin: objectId,
    enabled: z.boolean().default(true),
    minAmount: positiveAmount,
    maxAmount: positiveAmount,
    profits: stakingProfits,
    order,
  })
  .refine((s) => inOrder(s.minAmount, s.maxAmount), {
    message: 'The maximum must be at least the minimum',
    path: ['maxAmount'],
  })
  .refine((s) => STAKING_DURATION_KEYS.some((k) => !!s.profits[k]), {
    message: 'Offer at least one duration',
    // shown under the first duration: the form has no input for the group itself
    path: ['profits', 'week'],
  });
export type StakingCoinInput = z.infer<typeof stakingCoinInput>;
