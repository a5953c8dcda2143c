import { Edit } from 'react-admin';
import { EditActions } from '../sharedInputs';
import { AccountForm } from './AccountForm';

export function AccountEdit() {
  return (
    <Edit mutationMode="pessimistic" actions={<EditActions />}>
      <AccountForm editing />
    </Edit>
  );
}
