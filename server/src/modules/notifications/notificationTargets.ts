import { pageTargetParam } from '@gift/shared';
import type { NotificationEvent, NotificationFacts } from './notificationTexts';

/**
 * The page each message's button opens (issue 35), as the `startapp` of its t.me link: the mining card, the streak,
 * the unlocked stake, the league, the withdrawals, the friends, the appeal, and a mission's verdict (approved or rejected)
 * that mission's page (home for a message queued without the mission's id, by a version before it was sent).
 */
const missionPage = (facts: { missionId?: string }) => (facts.missionId ? pageTargetParam('mission', facts.missionId) : undefined);

const TARGETS: { [E in NotificationEvent]: ((facts: NotificationFacts[E]) => string | undefined) | null } = {
  'mining-ready': () => pageTargetParam('mining'),
  'streak-ending': () => pageTargetParam('streak'),
  'stake-unlocked': (facts) => pageTargetParam('stakes', facts.stakeId),
  'prize-won': () => pageTargetParam('leagues'),
  'withdrawal-paid': () => pageTargetParam('withdrawals'),
  'withdrawal-rejected': () => pageTargetParam('withdrawals'),
  'friend-joined': () => pageTargetParam('friends'),
  'friend-qualified': () => pageTargetParam('friends'),
  'appeal-answered': () => pageTargetParam('appeal'),
  'mission-approved': missionPage,
  'mission-rejected': missionPage,
};

/** The start parameter of a message's button, or undefined for the app's home. */
export function notificationTarget<E extends NotificationEvent>(event: E, facts: NotificationFacts[E]): string | undefined {
  const target = TARGETS[event] as ((facts: NotificationFacts[E]) => string | undefined) | null | undefined;
  return target?.(facts) ?? undefined;
}
