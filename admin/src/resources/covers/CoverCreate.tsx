import { Create } from 'react-admin';
import { CoverForm } from './CoverForm';

export function CoverCreate() {
  return (
    <Create redirect="list">
      <CoverForm />
    </Create>
  );
}
