import { z } from 'zod';
import { APPEAL_MAX, APPEAL_MIN } from '../constants';
import { blankable, nonEmpty, order } from './common';

/** A question of the Help page, written by operators; a blank Persian text shows the English to Persian players. */
export const faqInput = z.object({
  question: nonEmpty(200),
  answer: nonEmpty(2000),
  fa: z
    .object({ question: blankable(z.string().trim().max(200)), answer: blankable(z.string().trim().max(2000)) })
    .partial()
    .default({}),
  order,
  enabled: z.boolean().default(true),
});

/** What a banned or frozen player writes to ask for a review of their standing: one appeal per ban or freeze. */
export const appealInput = z.object({
  text: z
    .string()
    .trim()
    .min(APPEAL_MIN, `Write at least ${APPEAL_MIN} characters: what happened, and why the decision should change`)
    .max(APPEAL_MAX, `At most ${APPEAL_MAX} characters`),
});

/** An operator's answer to an appeal: sent to the player by the bot and shown in the app, as written. */
export const appealAnswerInput = z.object({ answer: nonEmpty(1000) });
