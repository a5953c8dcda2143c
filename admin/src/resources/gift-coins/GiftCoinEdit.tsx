import { Edit } from 'react-admin';
import { GiftCoinForm } from './GiftCoinForm';

export function GiftCoinEdit() {
  return (
    <Edit mutationMode="pessimistic">
      <GiftCoinForm />
    </Edit>
  );
}
