import { Edit } from 'react-admin';
import { EditActions } from '../sharedInputs';
import { AccountAccess } from './AccountAccess';
import { AccountForm } from './AccountForm';

export function AccountEdit() {
  return (
    <Edit mutationMode="pessimistic" actions={<EditActions />} aside={<AccountAccess />}>
      <AccountForm editing />
    </Edit>
  );
}
