import { Create } from 'react-admin';
import { AccountForm } from './AccountForm';

export function AccountCreate() {
  return (
    <Create redirect="list">
      <AccountForm />
    </Create>
  );
}
