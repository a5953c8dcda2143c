import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { haptic } from '../../../lib/telegram';
import { canGoFullscreen, isFullscreen, onFullscreenChange, setFullscreen } from '../../../lib/telegramScreen';

/**
 * Full screen or a window, inside a Telegram that can show the app fullscreen (8.0 and later). The choice is this device's:
 * the next launch opens the same way. What the buttons show is what Telegram answered, not what was asked.
 */
export function FullscreenField() {
  const { t } = useTranslation();
  const [on, setOn] = useState(isFullscreen);
  useEffect(() => onFullscreenChange(setOn), []);
  if (!canGoFullscreen()) return null;
  const choose = (wanted: boolean) => {
    haptic('selection');
    void setFullscreen(wanted).then(setOn);
  };
  return (
    <div className="card menu">
      <div className="field">
        <span id="display-label">{t('settings.display')}</span>
        <div className="segmented" role="group" aria-labelledby="display-label">
          <button type="button" aria-pressed={on} onClick={() => choose(true)}>
            {t('settings.fullscreen')}
          </button>
          <button type="button" aria-pressed={!on} onClick={() => choose(false)}>
            {t('settings.window')}
          </button>
        </div>
      </div>
    </div>
  );
}
