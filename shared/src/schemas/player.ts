import { z } from 'zod';
import { HOME_SCREEN_STATUSES, LANGUAGES, REMINDER_KINDS, STAKING_DURATION_KEYS, THEMES } from '../constants';
import { blankable, httpUrl, idempotencyKey, objectId, pageInput, positiveAmount } from './common';
import { tonAddress } from './catalog';

export const telegramUsername = z
  .string()
  .trim()
  .transform((v) => v.replace(/^@/, ''))
  .pipe(z.string().regex(/^[A-Za-z0-9_]{5,32}$/, 'Enter your Telegram username'));

export const requestLoginCodeInput = z.object({ username: telegramUsername });
/** The id the code request answered: a code is tried only with the request that asked for it. */
export const loginCodeRequestId = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'Ask for a new code');
export const verifyLoginCodeInput = z.object({
  username: telegramUsername,
  requestId: loginCodeRequestId,
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Incorrect code'),
});

export const settingsInput = z.object({
  language: z.enum(LANGUAGES).optional(),
  theme: z.enum(THEMES).optional(),
});

/** A player switches one kind of reminder on or off. */
export const reminderSwitchInput = z.object({ kind: z.enum(REMINDER_KINDS), on: z.boolean() });

export const missionRef = z.object({ missionId: objectId });
export const claimMissionInput = z.object({
  missionId: objectId,
  /** The secret code of a YouTube mission. */
  code: z.string().trim().max(64).optional(),
  /** What a Manual mission asks for, for its review: a link (http or https), a text, a picture uploaded first. */
  proof: z
    .object({
      link: blankable(httpUrl.pipe(z.string().max(500, 'At most 500 characters'))),
      text: blankable(z.string().trim().max(1000, 'At most 1,000 characters')),
      imageId: blankable(objectId),
    })
    .partial()
    .optional(),
  /** A Home screen mission: what the player's Telegram answered (home_screen_checked's status, or `added` once it added it). */
  homeScreen: z.enum(HOME_SCREEN_STATUSES).optional(),
});
export const categoryRef = z.object({ categoryId: objectId });

export const stakeQuoteInput = z.object({
  stakingCoinId: objectId,
  amount: positiveAmount,
  duration: z.enum(STAKING_DURATION_KEYS as [string, ...string[]]),
});
export const stakeInput = stakeQuoteInput.extend({
  /** Client-chosen key so a double tap stakes once. */
  idempotencyKey,
});
export const stakeRef = z.object({ stakeId: objectId });

export const tonProofInput = z.object({
  address: tonAddress,
  network: z.enum(['-239', '-3']),
  publicKey: z
    .string()
    .regex(/^[a-fA-F0-9]{64}$/)
    .optional(),
  proof: z.object({
    timestamp: z.number().int().positive(),
    domain: z.object({ lengthBytes: z.number().int().min(0).max(253), value: z.string().max(253) }),
    signature: z.string().min(1).max(200),
    payload: z.string().min(1).max(128),
    stateInit: z.string().min(1).max(4096),
  }),
});
export type TonProofInput = z.infer<typeof tonProofInput>;

export const withdrawInput = z.object({
  coinId: objectId,
  amount: positiveAmount,
  /** Client-chosen key so a double tap withdraws once. */
  idempotencyKey,
});

export const walletRef = z.object({ address: tonAddress });

/** A page of a player's withdrawals. */
export const withdrawalHistoryInput = pageInput;

/** A page of the friends a player invited. */
export const friendsInput = pageInput;
