import { useTranslation } from '../lib/translator';
import { formatMessage } from '@gift/shared/formatMessage';
import { appErrorOf, isNetworkFailure } from '../lib/trpc';

type Translate = ReturnType<typeof useTranslation>['t'];

/** A failed call in the player's words: offline, the product's error code, else a generic message. */
export function errorText(t: Translate, error: unknown): string {
  if (isNetworkFailure(error) && typeof navigator !== 'undefined' && !navigator.onLine) return t('common.offline');
  const appError = appErrorOf(error);
  if (!appError && isNetworkFailure(error)) return t('common.unreachable');
  const key = `errors.${appError?.code ?? 'INTERNAL'}`;
  return formatMessage(t(key, { defaultValue: t('errors.INTERNAL') }), appError?.params);
}

export function ErrorMessage({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const text = errorText(t, error);
  return (
    <p className="error-text" role="alert">
      {text}
    </p>
  );
}
