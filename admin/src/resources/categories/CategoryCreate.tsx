import { Create } from 'react-admin';
import { CategoryForm } from './CategoryForm';

export function CategoryCreate() {
  return (
    <Create redirect="list">
      <CategoryForm />
    </Create>
  );
}
