import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import { Button, useListContext, useUnselectAll } from 'react-admin';
import { useConsoleCalls } from '../../dataProvider';
import { useConsoleAction } from '../useConsoleAction';

/** Enable or disable the selected missions at once (a campaign's start or end); each change is audited; a reward above its coin's threshold waits. */
export function BulkEnableButtons() {
  const { selectedIds } = useListContext();
  const calls = useConsoleCalls();
  const unselectAll = useUnselectAll('missions');
  const { busy, run } = useConsoleAction();
  const set = (enabled: boolean) =>
    run(
      () => calls.setMissionsEnabled(selectedIds.map(String), enabled),
      (answer) => {
        unselectAll();
        // a mission whose reward is above its coin's threshold is not enabled: its enabling waits for a second operator
        const waiting = (answer as { waiting?: string[] }).waiting ?? [];
        if (waiting.length)
          return { message: 'brakes.enableWaiting', args: { smart_count: answer.changed.length, waiting: waiting.length } };
        return { message: enabled ? 'missions.bulk.enabled' : 'missions.bulk.disabled', args: { smart_count: answer.changed.length } };
      },
    );
  return (
    <>
      <Button label="missions.bulk.enable" disabled={busy} onClick={() => void set(true)}>
        <VisibilityIcon />
      </Button>
      <Button label="missions.bulk.disable" disabled={busy} onClick={() => void set(false)}>
        <VisibilityOffIcon />
      </Button>
    </>
  );
}
