import { useRecordContext, useTranslate, type RaRecord } from 'react-admin';

/**
 * A record's name in the console's language, for a resource's recordRepresentation (react-admin renders the
 * element inside the record's context).
 */
export function RecordLabel({ message, args }: { message: string; args?: (record: RaRecord) => Record<string, unknown> }) {
  const translate = useTranslate();
  const record = useRecordContext();
  return <>{translate(message, record && args ? args(record) : {})}</>;
}

/** The last six characters of an id, enough to tell records apart in a list. */
export const shortId = (record: RaRecord) => ({ id: String(record.id).slice(-6) });
