import { Edit } from 'react-admin';
import { StakingCoinForm } from './StakingCoinForm';

export function StakingCoinEdit() {
  return (
    <Edit mutationMode="pessimistic">
      <StakingCoinForm />
    </Edit>
  );
}
