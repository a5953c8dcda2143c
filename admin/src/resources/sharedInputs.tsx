import type { ReactNode } from 'react';
import { Link } from 'react-router';
import {
  BooleanInput,
  Button,
  SaveButton,
  Toolbar,
  TopToolbar,
  useBasename,
  useCanAccess,
  useRecordContext,
  useResourceContext,
  ListButton,
  ShowButton,
} from 'react-admin';
import { NumeralInput } from '../forms/NumeralInput';
import HistoryIcon from '@mui/icons-material/History';

/** Display order and visibility, shared by every content record; no native min/step, the schema says what fits. */
export function OrderAndEnabledInputs() {
  return (
    <>
      <NumeralInput source="order" defaultValue={0} inputMode="numeric" />
      <BooleanInput source="enabled" defaultValue />
    </>
  );
}

/** For records the console may change but never delete (players, reviews, withdraws, App Config). */
export function SaveOnlyToolbar() {
  return (
    <Toolbar>
      <SaveButton />
    </Toolbar>
  );
}

/** Opens the audit list filtered to this record: who changed it, when, and what. */
export function HistoryButton() {
  const record = useRecordContext();
  const resource = useResourceContext();
  const basename = useBasename();
  const { canAccess } = useCanAccess({ resource: 'audit', action: 'list' });
  if (!record || !canAccess) return null;
  const filter = encodeURIComponent(JSON.stringify({ resource, record: String(record.id) }));
  return (
    <Button component={Link} to={`${basename}/audit?filter=${filter}`} label="common.history">
      <HistoryIcon />
    </Button>
  );
}

/** The actions of an edit page: back to the list, the record's history, and whatever else it offers. */
export function EditActions({ children, list = true, show = false }: { children?: ReactNode; list?: boolean; show?: boolean }) {
  return (
    <TopToolbar>
      {list && <ListButton />}
      {show && <ShowButton />}
      <HistoryButton />
      {children}
    </TopToolbar>
  );
}
