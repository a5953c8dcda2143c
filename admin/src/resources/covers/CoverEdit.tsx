import { Edit } from 'react-admin';
import { CoverForm } from './CoverForm';

export function CoverEdit() {
  return (
    <Edit mutationMode="pessimistic">
      <CoverForm />
    </Edit>
  );
}
