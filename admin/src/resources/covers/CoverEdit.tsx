import { Edit } from 'react-admin';
import { EditActions } from '../sharedInputs';
import { CoverForm } from './CoverForm';

export function CoverEdit() {
  return (
    <Edit mutationMode="pessimistic" actions={<EditActions />}>
      <CoverForm />
    </Edit>
  );
}
