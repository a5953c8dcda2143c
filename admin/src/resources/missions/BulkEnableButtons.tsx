import { useState } from 'react';
import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import { Button, useListContext, useNotify, useRefresh, useUnselectAll } from 'react-admin';
import { useConsoleCalls } from '../../dataProvider';

/** Enable or disable the selected missions at once (a campaign's start or end); each change is audited. */
export function BulkEnableButtons() {
  const { selectedIds } = useListContext();
  const calls = useConsoleCalls();
  const notify = useNotify();
  const refresh = useRefresh();
  const unselectAll = useUnselectAll('missions');
  const [busy, setBusy] = useState(false);
  const set = async (enabled: boolean) => {
    setBusy(true);
    try {
      const { changed } = await calls.setMissionsEnabled(selectedIds.map(String), enabled);
      notify(enabled ? 'missions.bulk.enabled' : 'missions.bulk.disabled', { type: 'info', messageArgs: { smart_count: changed.length } });
      unselectAll();
      refresh();
    } catch (failure) {
      notify((failure as Error).message || 'common.saveFailed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
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
