import { CloneButton, Edit } from 'react-admin';
import { EditActions } from '../sharedInputs';
import { MissionForm } from './MissionForm';

export function MissionEdit() {
  return (
    // Clone opens a new mission filled with this one's fields (its YouTube secret code, never sent back, is asked again)
    <Edit
      mutationMode="pessimistic"
      actions={
        <EditActions>
          <CloneButton />
        </EditActions>
      }
    >
      <MissionForm editing />
    </Edit>
  );
}
