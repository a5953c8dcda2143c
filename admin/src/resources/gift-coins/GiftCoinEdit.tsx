import { Edit, useTranslate } from 'react-admin';
import { ChangeWaiting } from '../ChangeWaiting';
import { EditActions } from '../sharedInputs';
import { GiftCoinForm } from './GiftCoinForm';

const LABELS: Record<string, string> = {
  operatorDailyLimit: 'brakes.operatorDailyLimit',
};
/** Amounts where 0 is the loosest: never, no limit, no cap. */
const LIMITS = new Set(['giftApprovalAbove', 'payoutApprovalAbove', 'operatorDailyLimit', 'payoutDailyCap']);

/** A coin's looser brakes, withdrawals turned on or another place on TON, waiting for a second operator, above the form. */
function BrakesWaiting() {
  const translate = useTranslate();
  const value = (field: string, wanted: unknown) => {
    if (LIMITS.has(field) && wanted === '0') return translate('brakes.never');
    if (typeof wanted === 'boolean') return translate(wanted ? 'ra.boolean.true' : 'ra.boolean.false');
    return typeof wanted === 'string' || typeof wanted === 'number' ? String(wanted) : '';
  };
  const describe = (set: Record<string, unknown>) =>
    Object.entries(set)
      .map(([field, wanted]) => `${translate(LABELS[field] ?? `resources.gift-coins.fields.${field}`)}: ${value(field, wanted)}`)
      .join('; ');
  return <ChangeWaiting resource="gift-coins" describe={describe} />;
}

export function GiftCoinEdit() {
  return (
    <Edit mutationMode="pessimistic" actions={<EditActions />}>
      <>
        {/* a looser brake, withdrawals turned on or another place on TON waits here for a second operator */}
        <BrakesWaiting />
        <GiftCoinForm />
      </>
    </Edit>
  );
}
