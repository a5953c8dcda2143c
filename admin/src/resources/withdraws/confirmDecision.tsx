import { useTranslate } from 'react-admin';
import type { WithdrawRecord } from '@gift/server';
import type { DecisionConfirmation } from '../decisionForm';

function WithdrawConfirmText({ record }: { record: WithdrawRecord }) {
  const translate = useTranslate();
  return <>{translate('brakes.confirmWithdraw', { amount: record.amount, symbol: record.coinSymbol ?? '' })}</>;
}

/** A single withdrawal's approval, or its mark as paid by hand, moves money: the operator confirms the amount first. */
export function confirmWithdrawDecision(status: string | undefined, record: WithdrawRecord): DecisionConfirmation {
  if (status !== 'approved' && status !== 'done') return null;
  return { title: 'brakes.confirmWithdrawTitle', content: <WithdrawConfirmText record={record} /> };
}
