import { useTranslation } from '../../../lib/translator';
import type { ReminderKind } from '@gift/shared/constants';
import '../settingsLocales';

/**
 * The bot's reminders, one switch per kind (on unless the player switched it off). When the bot may not write to the player at
 * all, the switches stay usable and a line says why nothing arrives.
 */
export function RemindersField({
  kinds,
  messagePermission,
  onSwitch,
}: {
  kinds: ReadonlyArray<{ kind: ReminderKind; on: boolean }>;
  messagePermission: boolean;
  onSwitch: (kind: ReminderKind, on: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="card menu" role="group" aria-labelledby="reminders-label">
      <span id="reminders-label" className="reminders-title">
        {t('settings.reminders.title')}
      </span>
      {!messagePermission && <p className="muted reminders-hint">{t('settings.reminders.noPermission')}</p>}
      {kinds.map(({ kind, on }) => (
        <label key={kind} className="reminder-switch">
          <span>{t(`settings.reminders.kinds.${kind}`)}</span>
          <input type="checkbox" role="switch" checked={on} onChange={(event) => onSwitch(kind, event.target.checked)} />
        </label>
      ))}
    </div>
  );
}
