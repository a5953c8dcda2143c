import { Edit, useTranslate } from 'react-admin';
import { ChangeWaiting } from '../ChangeWaiting';
import { EditActions } from '../sharedInputs';
import { StakingCoinForm } from './StakingCoinForm';

const TERMS = ['week', 'month', 'threeMonths', 'sixMonths', 'year'] as const;

/** An offer's richer terms waiting for a second operator, on its page above the form. */
function TermsWaiting() {
  const translate = useTranslate();
  return (
    <ChangeWaiting
      resource="staking-coins"
      describe={(set) => {
        const profits = (set.profits ?? {}) as Record<string, string>;
        const percents = TERMS.filter((term) => profits[term]).map(
          (term) => `${translate(`resources.staking-coins.fields.profits.${term}`)}: ${profits[term]}`,
        );
        return [`${translate('resources.staking-coins.fields.maxAmount')}: ${String(set.maxAmount)}`, ...percents].join('; ');
      }}
    />
  );
}
export function StakingCoinEdit() {
  return (
    <Edit mutationMode="pessimistic" actions={<EditActions />}>
      <>
        {/* terms that let one stake earn above the coin's threshold wait here for a second operator */}
        <TermsWaiting />
        <StakingCoinForm />
      </>
    </Edit>
  );
}
