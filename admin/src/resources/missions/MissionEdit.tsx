import { Edit } from 'react-admin';
import { MissionForm } from './MissionForm';

export function MissionEdit() {
  return (
    <Edit mutationMode="pessimistic">
      <MissionForm editing />
    </Edit>
  );
}
