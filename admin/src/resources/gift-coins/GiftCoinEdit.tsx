import { Edit, useTranslate } from 'react-admin';
import { ChangeWaiting } from '../ChangeWaiting';
import { EditActions } from '../sharedInputs';
import { GiftCoinForm } from './GiftCoinForm';

const BRAKE_LABELS: Record<string, string> = {
  giftApprovalAbove: 'resources.gift-coins.fields.giftApprovalAbove',
  payoutApprovalAbove: 'resources.gift-coins.fields.payoutApprovalAbove',
  operatorDailyLimit: 'brakes.operatorDailyLimit',
};

/** A coin's looser brakes waiting for a second operator, on its page above the form. */
function BrakesWaiting() {
  const translate = useTranslate();
  const describe = (set: Record<string, unknown>) =>
    Object.entries(set)
      .map(
        ([field, amount]) => `${translate(BRAKE_LABELS[field] ?? field)}: ${amount === '0' ? translate('brakes.never') : String(amount)}`,
      )
      .join('; ');
  return <ChangeWaiting resource="gift-coins" describe={describe} />;
}

export function GiftCoinEdit() {
  return (
    <Edit mutationMode="pessimistic" actions={<EditActions />}>
      <>
        {/* loosening a brake (never, or a higher amount) waits here for a second operator */}
        <BrakesWaiting />
        <GiftCoinForm />
      </>
    </Edit>
  );
}
