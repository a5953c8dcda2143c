import { z } from 'zod';
import { LANGUAGES, PLAYER_STATUSES } from '../constants';
import { blankable, httpUrl, objectId, positiveAmount } from './common';

/** Telegram's own limits: a message's text, and a photo's caption. */
export const MESSAGE_MAX = 4096;
export const CAPTION_MAX = 1024;

export const BROADCAST_STATUSES = ['draft', 'scheduled', 'sending', 'paused', 'cancelled', 'done'] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];
/** What an operator may set a broadcast's status to; the sender sets `done`. */
export const BROADCAST_COMMANDS = ['sending', 'paused', 'cancelled'] as const;
/**
 * Where one player of a started broadcast stands. `unknown`: the sender died with the request to Telegram in flight,
 * so it may or may not have arrived; never sent again unless an operator chooses to resend to the unknown ones.
 */
export const RECIPIENT_STATUSES = ['queued', 'sending', 'sent', 'failed', 'blocked', 'unknown'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

/** The tags Telegram's HTML parse mode takes; anything else makes it refuse the whole message. */
const TAGS = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'code', 'pre', 'a', 'tg-spoiler', 'blockquote']);
const TOKEN = /<(\/?)([a-z-]+)((?:\s+[a-z]+="[^"<>]*")*)\s*>|&(?:lt|gt|amp|quot|#\d{1,7}|#x[0-9a-fA-F]{1,6});|[<>&]/gi;

export type FormattedPiece = { tag: string; href?: string; children: FormattedPiece[] } | string;

/**
 * Reads a text in Telegram's HTML formatting (`<b>`, `<i>`, `<a href="…">`, `&amp;`…) into pieces, as Telegram
 * reads it, or says what Telegram would refuse. The console previews the pieces; the server refuses the text.
 */
export function parseTelegramHtml(text: string): { pieces: FormattedPiece[] } | { problem: string } {
  const root: FormattedPiece[] = [];
  const open: Array<{ tag: string; href?: string; children: FormattedPiece[] }> = [];
  const here = () => open.at(-1)?.children ?? root;
  const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"' };
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    if (match.index > last) here().push(text.slice(last, match.index));
    last = match.index + match[0].length;
    const [whole, closing, name, attributes] = match;
    if (whole === '<' || whole === '>' || whole === '&')
      return { problem: `Write ${whole} as ${{ '<': '&lt;', '>': '&gt;', '&': '&amp;' }[whole]}` };
    if (whole.startsWith('&')) {
      const code = whole.startsWith('&#x') ? parseInt(whole.slice(3), 16) : whole.startsWith('&#') ? Number(whole.slice(2, -1)) : undefined;
      here().push(ENTITIES[whole.toLowerCase()] ?? (code !== undefined && code <= 0x10ffff ? String.fromCodePoint(code) : whole));
      continue;
    }
    const tag = name!.toLowerCase();
    if (!TAGS.has(tag)) return { problem: `Telegram does not know <${tag}>: use b, i, u, s, a, code, pre, blockquote or tg-spoiler` };
    if (closing) {
      if (open.at(-1)?.tag !== tag) return { problem: `</${tag}> closes nothing open` };
      open.pop();
      continue;
    }
    const href = /\shref="([^"]*)"/i.exec(attributes ?? '')?.[1];
    if (tag === 'a' && !(href && /^(https?:\/\/|tg:\/\/)/i.test(href))) return { problem: 'A link needs href="https://…"' };
    const element = { tag, ...(tag === 'a' ? { href } : {}), children: [] as FormattedPiece[] };
    here().push(element);
    open.push(element);
  }
  if (last < text.length) here().push(text.slice(last));
  if (open.length) return { problem: `<${open.at(-1)!.tag}> is never closed` };
  return { pieces: root };
}

/** The text a player reads, formatting removed: what Telegram counts against its limits. */
export function plainTextOf(pieces: FormattedPiece[]): string {
  return pieces.map((piece) => (typeof piece === 'string' ? piece : plainTextOf(piece.children))).join('');
}

const formatted = (max: number) =>
  z
    .string()
    .trim()
    .max(max * 4)
    .superRefine((text, context) => {
      const read = parseTelegramHtml(text);
      if ('problem' in read) context.addIssue({ code: 'custom', message: read.problem });
      else if (plainTextOf(read.pieces).length > max) context.addIssue({ code: 'custom', message: `At most ${max} characters` });
    });

const days = z.coerce.number().int('Whole days').min(1, 'At least 1 day').max(3650);
const date = z.coerce.date({ error: 'Enter a date' });

/**
 * Who a broadcast reaches, of the players who allow messages; `{}` is all of them. Every condition narrows it.
 */
export const broadcastSegment = z
  .object({
    language: nullAsUndefined(z.enum(LANGUAGES)),
    /** Opened the app in the last N days. */
    activeWithinDays: nullAsUndefined(days),
    /** Has not opened the app for N days. */
    inactiveForDays: nullAsUndefined(days),
    /** Holds at least this amount of this coin. */
    holds: z.preprocess(
      (v) => (isBlank(v) || (isObject(v) && isBlank(v.coin) && isBlank(v.atLeast)) ? undefined : v),
      z.object({ coin: objectId, atLeast: positiveAmount }).strict().optional(),
    ),
    /** Did (or did not) finish this mission. */
    mission: z.preprocess(
      (v) => (isBlank(v) || (isObject(v) && isBlank(v.id)) ? undefined : v),
      z
        .object({ id: objectId, done: z.boolean().default(true) })
        .strict()
        .optional(),
    ),
    joinedFrom: nullAsUndefined(date),
    joinedTo: nullAsUndefined(date),
    /** Active players only: banned and frozen players receive no broadcast (kept as a choice for the segments saved with it). */
    status: nullAsUndefined(z.enum(PLAYER_STATUSES)),
  })
  .strict()
  .refine((s) => !s.status || s.status === 'active', {
    message: 'Banned and frozen players receive no broadcasts',
    path: ['status'],
  })
  .refine((s) => !(s.joinedFrom && s.joinedTo) || s.joinedFrom <= s.joinedTo, {
    message: 'The first date comes first',
    path: ['joinedTo'],
  });
export type BroadcastSegment = z.infer<typeof broadcastSegment>;

const isBlank = (v: unknown) => v === null || v === undefined || v === '';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** A condition left empty in the console's form (null, '', or a group with nothing chosen) is no condition. */
function nullAsUndefined<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (isBlank(v) ? undefined : v), schema.optional());
}

/** A path of the mini app a button opens (`/missions`, `/category/…`). */
const appPath = z
  .string()
  .trim()
  .regex(/^\/[A-Za-z0-9._~\-/?=&]*$/, 'A page of the app, like /missions');

const button = z
  .object({
    text: z.string().trim().min(1, 'This field is required').max(64),
    fa: z.object({ text: blankable(z.string().trim().max(64)) }).default({ text: '' }),
    path: appPath.default('/'),
  })
  .strict();

const content = {
  text: formatted(MESSAGE_MAX).refine((v) => v.length > 0, 'This field is required'),
  fa: z
    .object({ text: blankable(formatted(MESSAGE_MAX)) })
    .strict()
    .default({ text: '' }),
  /** A photo sent with the text as its caption: Telegram fetches it, so an address on the internet, not a path of this site. */
  imageUrl: blankable(httpUrl),
  // a button without a label is no button (the console's empty fields)
  button: z.preprocess((v) => (isObject(v) && isBlank(v.text) ? undefined : v), nullAsUndefined(button)).transform((v) => v ?? null),
  segment: broadcastSegment.default({}),
  /** Sent at this time once started; none sends at once. */
  scheduledAt: nullAsUndefined(date).transform((v) => v ?? null),
};

const captionFits = (input: { imageUrl?: string; text?: string; fa?: { text: string } }) => {
  if (!input.imageUrl) return true;
  return [input.text ?? '', input.fa?.text ?? ''].every((text) => {
    const read = parseTelegramHtml(text);
    return 'problem' in read || plainTextOf(read.pieces).length <= CAPTION_MAX;
  });
};
const CAPTION_PROBLEM = { message: `With an image the text is its caption: at most ${CAPTION_MAX} characters`, path: ['text'] };

/** POST /api/admin/broadcasts: a draft. */
export const broadcastInput = z.object(content).refine(captionFits, CAPTION_PROBLEM);
export type BroadcastInput = z.infer<typeof broadcastInput>;

/**
 * PUT /api/admin/broadcasts/:id: `{ status }` starts (`sending`), pauses or cancels it; a draft's content may
 * be edited too. Fields left out stay as they are.
 */
export const broadcastUpdate = z
  .object({
    status: z.enum(BROADCAST_COMMANDS).optional(),
    text: content.text.optional(),
    fa: content.fa.optional(),
    imageUrl: content.imageUrl.optional(),
    button: content.button.optional(),
    segment: broadcastSegment.optional(),
    scheduledAt: content.scheduledAt.optional(),
  })
  .refine(captionFits, CAPTION_PROBLEM);
export type BroadcastUpdate = z.infer<typeof broadcastUpdate>;

/** POST /api/admin/broadcasts/count: how many players a segment reaches now. */
export const segmentCountInput = z.object({ segment: broadcastSegment.default({}) }).strict();
