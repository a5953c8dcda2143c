import { Link } from 'react-router';
import { useBasename, useRecordContext } from 'react-admin';

/** Where a ledger entry came from, as a link to that record's page. */
const RECORD_PAGES: Record<string, { label: string; path: (id: string) => string }> = {
  UserMission: { label: 'Mission', path: (id) => `/user-missions/${id}` },
  Withdrawal: { label: 'Withdrawal', path: (id) => `/withdraws/${id}` },
  Stake: { label: 'Stake', path: (id) => `/stakes/${id}/show` },
  MiningSession: { label: 'Mining session', path: (id) => `/mining-sessions/${id}/show` },
  User: { label: 'Friend', path: (id) => `/users/${id}/show` },
};

export function LedgerRecordLink(_props: { label?: string }) {
  const record = useRecordContext<{ id: string; refType: string; refId: string }>();
  const basename = useBasename();
  if (!record?.refType) return <span>—</span>;
  const page = RECORD_PAGES[record.refType];
  if (!page) return <span>{record.refType === 'Account' ? 'Operator' : record.refType}</span>;
  return (
    <Link to={`${basename}${page.path(record.refId)}`} onClick={(event) => event.stopPropagation()}>
      {page.label}
    </Link>
  );
}
