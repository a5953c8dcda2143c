import { Create } from 'react-admin';
import { StakingCoinForm } from './StakingCoinForm';

export function StakingCoinCreate() {
  return (
    <Create redirect="list">
      <StakingCoinForm />
    </Create>
  );
}
