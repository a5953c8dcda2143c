import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/translator';
import { ChoiceField } from '../../../ui/fields';
import { canGoFullscreen, isFullscreen, onFullscreenChange, setFullscreen } from '../../../lib/telegramScreen';
import '../settingsLocales';

/**
 * Full screen or a window, inside a Telegram that can show the app fullscreen (8.0 and later). The choice is this device's:
 * the next launch opens the same way. What the buttons show is what Telegram answered, not what was asked.
 */
export function FullscreenField() {
  const { t } = useTranslation();
  const [on, setOn] = useState(isFullscreen);
  useEffect(() => onFullscreenChange(setOn), []);
  if (!canGoFullscreen()) return null;
  return (
    <div className="card menu">
      <ChoiceField
        id="display-label"
        label={t('settings.display')}
        choices={[
          { value: true, label: t('settings.fullscreen') },
          { value: false, label: t('settings.window') },
        ]}
        chosen={on}
        onChoose={(wanted) => void setFullscreen(wanted).then(setOn)}
      />
    </div>
  );
}
