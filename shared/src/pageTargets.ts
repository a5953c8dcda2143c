/**
 * Where a link into the mini app opens it (issue 35): the button of a bot message carries a page target as the link's
 * `startapp` parameter, which Telegram hands the app as `tgWebAppStartParam` (and, signed, as `start_param` in initData).
 *
 * The same parameter carries a referral code on an invite link, so the two forms cannot overlap: a referral code is exactly
 * 8 characters (6 random bytes in base64url), and a page target is `go-` and 6 to 61 more of the characters Telegram allows
 * there (`A-Z a-z 0-9 _ -`), so 9 to 64 in all. The server never takes a page target for a referral code, and the app opens
 * a page only for a page target it knows (anything else opens home, as a launch without a parameter does).
 */
export const PAGE_TARGETS = ['mining', 'streak', 'stakes', 'leagues', 'withdrawals', 'friends', 'appeal', 'mission'] as const;
export type PageTarget = (typeof PAGE_TARGETS)[number];

const PAGE_TARGET_FORM = /^go-[A-Za-z0-9_-]{6,61}$/;
/** A record named on its page (a stake's or a mission's id): letters and digits, so the whole parameter stays within 64 characters. */
const RECORD_ID = /^[A-Za-z0-9]{1,40}$/;

/** Whether a start parameter has the form of a page target (known to this version or not): it is no referral code. */
export function isPageTarget(startParam: string | null | undefined): boolean {
  return !!startParam && PAGE_TARGET_FORM.test(startParam);
}

/** The start parameter that opens `page`, at the record `id` when given (and well formed). */
export function pageTargetParam(page: PageTarget, id?: string): string {
  return id && RECORD_ID.test(id) ? `go-${page}-${id}` : `go-${page}`;
}

/** The page (and record) a start parameter opens; null for a referral code, nothing, or a page target this app does not know. */
export function readPageTarget(startParam: string | null | undefined): { page: PageTarget; id?: string } | null {
  if (!startParam || !isPageTarget(startParam)) return null;
  const [page, ...rest] = startParam.slice(3).split('-');
  const id = rest.join('-');
  if (!(PAGE_TARGETS as readonly string[]).includes(page!) || (rest.length > 0 && !RECORD_ID.test(id))) return null;
  return id ? { page: page as PageTarget, id } : { page: page as PageTarget };
}
