import { Edit } from 'react-admin';
import { EditActions } from '../sharedInputs';
import { StakingCoinForm } from './StakingCoinForm';

export function StakingCoinEdit() {
  return (
    <Edit mutationMode="pessimistic" actions={<EditActions />}>
      <StakingCoinForm />
    </Edit>
  );
}
