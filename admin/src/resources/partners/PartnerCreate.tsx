import { Create } from 'react-admin';
import { PartnerForm } from './PartnerForm';

export function PartnerCreate() {
  return (
    <Create redirect="list">
      <PartnerForm />
    </Create>
  );
}
