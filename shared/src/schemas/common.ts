import { z } from 'zod';
import { OBJECT_ID_PATTERN } from '../constants';
import { AMOUNT_PATTERN, toMicros } from '../money';

/** False only for a well-formed amount too large to store exactly (zod runs this even after the pattern fails). */
function fitsStorage(value: string): boolean {
  try {
    toMicros(value);
    return true;
  } catch {
    return !AMOUNT_PATTERN.test(value);
  }
}

const REQUIRED = 'This field is required';
/** A string whose absence (null from a cleared console input, or nothing) reads 'This field is required'. */
const requiredString = () => z.string({ error: (issue) => (issue.input === undefined || issue.input === null ? REQUIRED : undefined) });

export const objectId = requiredString().min(1, REQUIRED).regex(OBJECT_ID_PATTERN, 'Invalid id');
/** A non-negative coin amount as a decimal string, at most 6 decimals. */
export const amount = requiredString()
  .trim()
  .min(1, REQUIRED)
  .regex(AMOUNT_PATTERN, 'Enter an amount like 12 or 12.5 (at most 6 decimals)')
  .refine(fitsStorage, 'Amount too large');
export const positiveAmount = amount.refine((v) => /[1-9]/.test(v), 'Must be more than 0');
/** A percent as a decimal string, 0 to 1000. */
export const percent = z
  .string()
  .trim()
  .regex(/^\d{1,4}(\.\d{1,6})?$/, 'Enter a percent like 5 or 12.5')
  .refine((v) => Number(v) <= 1000, 'At most 1000');
export const httpUrl = z
  .string()
  .trim()
  .url('Enter a valid URL')
  .refine((v) => /^https?:\/\//i.test(v), 'Use an http or https URL');
/**
 * An optional text field: empty, blank, null (what a console form sends for a cleared input) or absent all mean
 * none, stored as ''; anything else must pass the field's own schema, whose message names the problem.
 */
export const blankable = <T extends z.ZodType<string, string>>(schema: T) =>
  z
    .preprocess((v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v), schema.optional())
    .transform((v) => v ?? '');
export const optionalUrl = blankable(httpUrl);
/** A field with a default: a cleared console input (null) takes the default, like an absent one. */
export const nullAsAbsent = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === null ? undefined : v), schema);
const SITE_PATH = /^\/(?!\/)[A-Za-z0-9._~\-/]+$/;
/** An image: an http(s) URL, or a path on this site such as /demo/cover.svg (shipped with the app). */
export const imageUrl = z
  .string()
  .trim()
  .refine((v) => SITE_PATH.test(v) || httpUrl.safeParse(v).success, 'Enter an http(s) URL or a path on this site like /images/banner.png');
export const optionalImage = blankable(imageUrl);
/** An optional moment: a date string or Date from a console form, stored as a Date; empty, null or absent: none. */
export const optionalDate = z
  .preprocess((v) => (v === '' || v === undefined ? null : v), z.coerce.date({ error: 'Enter a date and time' }).nullable())
  .default(null);
export const order = z.coerce.number().int('Must be a whole number').min(0).max(1_000_000).default(0);
export const nonEmpty = (max = 200) => requiredString().trim().min(1, REQUIRED).max(max);

/** A transaction hash as explorers show it: 64 hex digits, or 44 base64 characters. */
export const txHash = requiredString()
  .trim()
  .regex(/^[0-9a-fA-F]{64}$|^[A-Za-z0-9_+/-]{43}=?$/, 'A transaction hash: 64 hex digits (or 44 base64 characters), as tonviewer shows it');

/** The key a client sends with a money request, the same for every retry of it (see newIdempotencyKey). */
export const idempotencyKey = z.string().trim().min(8).max(100);

/** One page of a list a player pages through. */
export const pageInput = z.object({
  page: z.number().int().min(1).max(10_000).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
});
