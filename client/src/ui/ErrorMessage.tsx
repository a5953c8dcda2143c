import { useTranslation } from 'react-i18next';
import { formatMessage } from '@gift/shared/errors';
import { appErrorOf } from '../lib/trpc';

/** A failed call in the player's language: by the product's error code, else a generic message. */
export function ErrorMessage({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const appError = appErrorOf(error);
  const key = `errors.${appError?.code ?? 'INTERNAL'}`;
  const text = formatMessage(t(key, { defaultValue: t('errors.INTERNAL') }), appError?.params);
  return (
    <p className="error-text" role="alert">
      {text}
    </p>
  );
}
