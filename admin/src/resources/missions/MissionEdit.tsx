import { Edit } from 'react-admin';
import { EditActions } from '../sharedInputs';
import { MissionForm } from './MissionForm';

export function MissionEdit() {
  return (
    <Edit mutationMode="pessimistic" actions={<EditActions />}>
      <MissionForm editing />
    </Edit>
  );
}
