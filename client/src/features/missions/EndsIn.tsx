import { useTranslation } from '../../lib/translator';
import { useFormat } from '../../lib/format';
import { useNow } from '../../ui/countdown';

/** A limited-time mission's countdown to its end, ticking each second; nothing once it is over. */
export function EndsIn({ endsAt }: { endsAt: Date | string | null }) {
  const { t } = useTranslation();
  const format = useFormat();
  const end = endsAt ? new Date(endsAt).getTime() : null;
  const now = useNow(end !== null);
  if (end === null || end <= now) return null;
  return (
    <span className="muted ends-in" role="timer">
      {t('mission.endsIn', { time: format.countdown(end - now) })}
    </span>
  );
}
