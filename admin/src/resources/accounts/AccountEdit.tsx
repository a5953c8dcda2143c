import { Edit } from 'react-admin';
import { AccountForm } from './AccountForm';

export function AccountEdit() {
  return (
    <Edit mutationMode="pessimistic">
      <AccountForm editing />
    </Edit>
  );
}
