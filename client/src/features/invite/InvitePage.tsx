import { useFormat } from '../../lib/format';
import { useState } from 'react';
import { useTranslation } from '../../lib/translator';
import { copyText } from '../../lib/clipboard';
import { haptic } from '../../lib/telegram';
import { openLink } from '../../lib/telegramLinks';
import { canShareMessage, canShareToStory, shareMessage, shareToStory } from '../../lib/telegramShare';
import { useSession } from '../signIn/PlayerSession';
import { trpc } from '../../lib/trpc';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Figures } from '../../ui/Figures';
import { Avatar, PlayerName } from '../../ui/identity';
import { PageHeader } from '../../ui/PageHeader';
import { useBriefFlag } from '../../ui/useBriefFlag';
import { Skeleton } from '../../ui/Skeleton';
import './locales';

/** How long 'Link Copied' shows (docs/product.md). */
export const COPIED_MS = 1500;
const FRIENDS_PAGE_SIZE = 20;

function Friends() {
  const { t } = useTranslation();
  const format = useFormat();
  const [page, setPage] = useState(1);
  const friends = trpc.referrals.friends.useQuery({ page, pageSize: FRIENDS_PAGE_SIZE }, { placeholderData: (previous) => previous });
  const pages = friends.data ? Math.max(1, Math.ceil(friends.data.total / FRIENDS_PAGE_SIZE)) : 1;
  return (
    <>
      <h2 id="friends">
        {t('invite.friends')}
        {friends.data ? ` (${format.number(friends.data.total)})` : ''}
      </h2>
      {friends.isPending && <Skeleton rows={3} />}
      {friends.error && <ErrorMessage error={friends.error} />}
      {friends.data?.total === 0 && <p className="muted">{t('invite.noFriends')}</p>}
      {!!friends.data?.items.length && (
        <ul className="list">
          {friends.data.items.map((friend, index) => (
            <li key={`${friend.username}-${index}`} className="list-row friend">
              <Avatar name={friend.name || friend.username} small />
              <div className="grow">
                <PlayerName name={friend.name} username={friend.username} />
              </div>
              <span className="muted">{format.date(friend.joinedAt)}</span>
            </li>
          ))}
        </ul>
      )}
      {pages > 1 && (
        <div className="pager">
          <button type="button" className="button button-ghost button-small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t('invite.previous')}
          </button>
          <span className="muted">{t('invite.page', { page, pages })}</span>
          <button type="button" className="button button-ghost button-small" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            {t('invite.next')}
          </button>
        </div>
      )}
    </>
  );
}

/** What a friend must do before the referrer is rewarded, and a Premium friend's share, as App Config sets them. */
function QualificationRule({ rule }: { rule: { doneMissions: number; activeDays: number; premiumRewardPercent: number } }) {
  const { t } = useTranslation();
  const { doneMissions: missions, activeDays: days, premiumRewardPercent: percent } = rule;
  const when =
    missions && days
      ? t('invite.qualifyEither', { missions, days })
      : missions
        ? t('invite.qualifyMissions', { count: missions })
        : days
          ? t('invite.qualifyDays', { count: days })
          : '';
  const premium = percent !== 100 ? t('invite.premiumBonus', { percent }) : '';
  if (!when && !premium) return null;
  return <p className="muted">{[when, premium].filter(Boolean).join(' ')}</p>;
}

/** Invite a friend: the link, Telegram's share link, copy, the reward per friend and the limit used. */
export function InvitePage() {
  const { t } = useTranslation();
  const format = useFormat();
  const summary = trpc.referrals.summary.useQuery();
  const { player } = useSession();
  const [copied, setCopied] = useBriefFlag(COPIED_MS);
  const data = summary.data;
  const prepare = trpc.referrals.prepareShare.useMutation();
  /**
   * Inside Telegram 8.0+, the bot's prepared invite in Telegram's own chat picker; elsewhere, or when that cannot be
   * done, Telegram's share link. A player who closes the picker is left alone.
   */
  const share = async (shareUrl: string) => {
    if (canShareMessage()) {
      const prepared = await prepare.mutateAsync().catch(() => null);
      const outcome = prepared ? await shareMessage(prepared.id) : 'failed';
      if (outcome === 'sent') haptic('success');
      if (outcome !== 'failed') return;
    }
    openLink(shareUrl);
  };
  return (
    <section className="page">
      <PageHeader title={t('invite.title')} />
      {summary.isPending && <Skeleton shape="card" />}
      {summary.error && <ErrorMessage error={summary.error} />}
      {data && (
        <>
          <p>{data.reward ? t('invite.intro', { amount: data.reward.amount, symbol: data.reward.symbol }) : t('invite.introNoReward')}</p>
          {data.reward && <QualificationRule rule={data.qualification} />}
          <div className="card menu">
            <span className="muted" id="invite-link-label">
              {t('invite.link')}
            </span>
            <output className="invite-link" aria-labelledby="invite-link-label" dir="ltr">
              {data.inviteLink}
            </output>
            <div className="actions">
              <button type="button" className="button" disabled={prepare.isPending} onClick={() => void share(data.shareUrl)}>
                {t('invite.share')}
              </button>
              {canShareToStory() && (
                <button
                  type="button"
                  className="button button-ghost"
                  onClick={() =>
                    shareToStory(
                      new URL('/icon-512.png', window.location.origin).href,
                      // a story's caption holds 200 characters (2,048 for Premium): the link comes first so it always fits
                      `${data.inviteLink}\n${data.shareText}`.slice(0, player.isPremium ? 2048 : 200),
                      player.isPremium ? { url: data.inviteLink, name: t('invite.storyLink') } : undefined,
                    )
                  }
                >
                  {t('invite.shareToStory')}
                </button>
              )}
              <button
                type="button"
                className="button button-ghost"
                onClick={() => void copyText(data.inviteLink).then((ok) => setCopied(ok))}
              >
                {copied ? t('invite.copied') : t('invite.copy')}
              </button>
            </div>
          </div>
          <Figures
            figures={[
              { label: t('invite.reward'), value: data.reward ? `${format.amount(data.reward.amount)} ${data.reward.symbol}` : '—' },
              { label: t('invite.joined'), value: format.number(data.friendsCount), testId: 'invite-joined' },
              { label: t('invite.qualified'), value: format.number(data.qualifiedCount), testId: 'invite-qualified' },
              {
                label: t('invite.limit'),
                value: t('invite.limitValue', { used: data.invitedCount, limit: data.inviteLimit }),
                testId: 'invite-limit',
              },
            ]}
          />
          <Friends />
        </>
      )}
    </section>
  );
}
