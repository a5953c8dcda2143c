import { useFormat } from '../../../lib/format';
import { useTranslation } from '../../../lib/translator';
import { trpc, type RouterOutputs } from '../../../lib/trpc';
import { ErrorMessage } from '../../../ui/ErrorMessage';

type Withdrawal = RouterOutputs['withdrawals']['history']['items'][number];

function WithdrawalRow({ withdrawal }: { withdrawal: Withdrawal }) {
  const { t } = useTranslation();
  const format = useFormat();
  const symbol = withdrawal.coin?.symbol ?? '';
  return (
    <li className="list-row withdrawal" data-testid="withdrawal" data-status={withdrawal.status}>
      <div className="grow">
        <div className="title">
          <bdi dir="ltr">
            {format.amount(withdrawal.amount)} {symbol}
          </bdi>
        </div>
        <div className="muted">{format.dateTime(withdrawal.createdAt)}</div>
        {withdrawal.status === 'done' && withdrawal.explorerUrl && (
          <a href={withdrawal.explorerUrl} target="_blank" rel="noreferrer">
            {t('withdraw.viewTransaction')}
          </a>
        )}
        {withdrawal.status === 'rejected' && (
          <>
            {withdrawal.rejectReason && <div>{t('withdraw.reason', { reason: withdrawal.rejectReason })}</div>}
            <div className="muted">{t('withdraw.refunded', { amount: withdrawal.amount, symbol })}</div>
          </>
        )}
      </div>
      <span className={`badge badge-${withdrawal.status}`}>{t(`withdraw.status.${withdrawal.status}`)}</span>
    </li>
  );
}

/** The player's withdrawals, newest first: pending, done with its transaction, or rejected with the refund. */
export function WithdrawalHistory() {
  const { t } = useTranslation();
  const history = trpc.withdrawals.history.useQuery({ page: 1, pageSize: 20 });
  return (
    <div className="stack">
      <h2 id="withdrawals">{t('withdraw.history')}</h2>
      {history.error && <ErrorMessage error={history.error} />}
      {history.data?.items.length === 0 && <p className="muted">{t('withdraw.noHistory')}</p>}
      {history.data && history.data.items.length > 0 && (
        <ul className="list">
          {history.data.items.map((withdrawal) => (
            <WithdrawalRow key={withdrawal.id} withdrawal={withdrawal} />
          ))}
        </ul>
      )}
    </div>
  );
}
