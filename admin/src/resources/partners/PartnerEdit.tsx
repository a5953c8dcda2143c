import { Edit } from 'react-admin';
import { PartnerForm } from './PartnerForm';

export function PartnerEdit() {
  return (
    <Edit mutationMode="pessimistic">
      <PartnerForm />
    </Edit>
  );
}
