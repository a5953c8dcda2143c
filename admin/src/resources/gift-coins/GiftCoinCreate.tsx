import { Create } from 'react-admin';
import { GiftCoinForm } from './GiftCoinForm';

export function GiftCoinCreate() {
  return (
    <Create redirect="list">
      <GiftCoinForm />
    </Create>
  );
}
