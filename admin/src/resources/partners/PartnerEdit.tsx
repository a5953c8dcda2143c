import { Edit } from 'react-admin';
import { EditActions } from '../sharedInputs';
import { PartnerForm } from './PartnerForm';

export function PartnerEdit() {
  return (
    <Edit mutationMode="pessimistic" actions={<EditActions />}>
      <PartnerForm />
    </Edit>
  );
}
