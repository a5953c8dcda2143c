import { Edit } from 'react-admin';
import { EditActions } from '../sharedInputs';
import { CategoryForm } from './CategoryForm';

export function CategoryEdit() {
  return (
    <Edit mutationMode="pessimistic" actions={<EditActions />}>
      <CategoryForm />
    </Edit>
  );
}
