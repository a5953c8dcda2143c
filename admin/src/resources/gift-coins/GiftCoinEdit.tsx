import { Edit } from 'react-admin';
import { EditActions } from '../sharedInputs';
import { GiftCoinForm } from './GiftCoinForm';

export function GiftCoinEdit() {
  return (
    <Edit mutationMode="pessimistic" actions={<EditActions />}>
      <GiftCoinForm />
    </Edit>
  );
}
