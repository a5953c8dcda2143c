import { Link } from 'react-router';
import { useBasename, useRecordContext, useTranslate } from 'react-admin';

/** Where a ledger entry came from, as a link to that record's page. */
const RECORD_PAGES: Record<string, (id: string) => string> = {
  UserMission: (id) => `/user-missions/${id}`,
  Withdrawal: (id) => `/withdraws/${id}`,
  Stake: (id) => `/stakes/${id}/show`,
  MiningSession: (id) => `/mining-sessions/${id}/show`,
  User: (id) => `/users/${id}/show`,
};

export function LedgerRecordLink(_props: { label?: string }) {
  const record = useRecordContext<{ id: string; refType: string; refId: string }>();
  const basename = useBasename();
  const translate = useTranslate();
  if (!record?.refType) return <span>—</span>;
  const name = translate(`players.records.${record.refType}`, { _: record.refType });
  const page = RECORD_PAGES[record.refType];
  if (!page) return <span>{name}</span>;
  return (
    <Link to={`${basename}${page(record.refId)}`} onClick={(event) => event.stopPropagation()}>
      {name}
    </Link>
  );
}
