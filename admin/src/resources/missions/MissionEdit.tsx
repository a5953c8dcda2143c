import { Edit } from 'react-admin';
import { CloneAsCopyButton } from '../../forms/CloneAsCopyButton';
import { EditActions } from '../sharedInputs';
import { MissionForm } from './MissionForm';
import { RewardWaiting } from './RewardWaiting';

export function MissionEdit() {
  return (
    // Clone opens a new mission filled with this one's fields, its titles marked as a copy (its YouTube secret code, never
    // sent back, is asked again)
    <Edit
      mutationMode="pessimistic"
      actions={
        <EditActions>
          <CloneAsCopyButton />
        </EditActions>
      }
    >
      <>
        {/* a reward above its coin's threshold waits here for a second operator */}
        <RewardWaiting />
        <MissionForm editing />
      </>
    </Edit>
  );
}
