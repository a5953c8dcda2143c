import { Create } from 'react-admin';
import { MissionForm } from './MissionForm';

export function MissionCreate() {
  return (
    <Create redirect="list">
      <MissionForm />
    </Create>
  );
}
