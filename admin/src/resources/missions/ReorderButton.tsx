import { useState, type DragEvent } from 'react';
import { Button as RaButton, useGetList, useListContext, useTranslate } from 'react-admin';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
} from '@mui/material';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import SwapVertIcon from '@mui/icons-material/SwapVert';
import type { MissionRecord } from '@gift/server';
import { useConsoleCalls } from '../../dataProvider';
import { useConsoleAction } from '../useConsoleAction';

/** Moves the item at `from` to `to`, the others keeping their order. */
function moved<T>(items: T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

/** The category's missions, dragged (or moved with the arrows, by keyboard or touch) into the order players see them in. */
function ReorderDialog({ category, onClose }: { category: string; onClose: () => void }) {
  const translate = useTranslate();
  const calls = useConsoleCalls();
  const { busy: saving, run } = useConsoleAction();
  const { data, isPending } = useGetList<MissionRecord>('missions', {
    filter: { category },
    sort: { field: 'order', order: 'ASC' },
    pagination: { page: 1, perPage: 500 },
  });
  const [order, setOrder] = useState<MissionRecord[] | null>(null);
  const [dragged, setDragged] = useState<number | null>(null);
  const items = order ?? data ?? [];
  const move = (from: number, to: number) => {
    if (to < 0 || to >= items.length || from === to) return;
    setOrder(moved(items, from, to));
  };
  const save = () =>
    run(
      () =>
        calls.reorderMissions(
          category,
          items.map((m) => String(m.id)),
        ),
      ({ changed }) => {
        onClose();
        return { message: 'missions.reorder.saved', args: { smart_count: changed.length } };
      },
    );
  const dropOn = (index: number) => (event: DragEvent) => {
    event.preventDefault();
    if (dragged !== null) move(dragged, index);
    setDragged(null);
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="reorder-title">
      <DialogTitle id="reorder-title">{translate('missions.reorder.title')}</DialogTitle>
      <DialogContent dividers>
        {isPending ? (
          translate('ra.page.loading')
        ) : (
          <List dense aria-label={translate('missions.reorder.title')}>
            {items.map((mission, index) => (
              <ListItem
                key={mission.id}
                draggable
                onDragStart={() => setDragged(index)}
                onDragOver={(event) => event.preventDefault()}
                onDrop={dropOn(index)}
                data-testid="reorder-item"
                sx={{ cursor: 'grab', opacity: dragged === index ? 0.5 : 1, borderBottom: 1, borderColor: 'divider' }}
                secondaryAction={
                  <>
                    <IconButton
                      aria-label={translate('missions.reorder.up', { title: mission.title })}
                      onClick={() => move(index, index - 1)}
                      disabled={index === 0}
                    >
                      <ArrowUpwardIcon />
                    </IconButton>
                    <IconButton
                      aria-label={translate('missions.reorder.down', { title: mission.title })}
                      onClick={() => move(index, index + 1)}
                      disabled={index === items.length - 1}
                    >
                      <ArrowDownwardIcon />
                    </IconButton>
                  </>
                }
              >
                <ListItemIcon>
                  <DragIndicatorIcon />
                </ListItemIcon>
                <ListItemText primary={`${mission.mustDone ? '⭐ ' : ''}${mission.title}`} />
              </ListItem>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving || !order}>
          {translate('ra.action.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The list's Reorder: the missions of the category it is filtered on, in their order. */
export function ReorderButton() {
  const list = useListContext();
  const translate = useTranslate();
  // react-admin types a list's filters as `any`
  const category = (list.filterValues as { category?: string }).category;
  const [open, setOpen] = useState(false);
  return (
    <>
      <RaButton
        label="missions.reorder.button"
        disabled={!category}
        onClick={() => setOpen(true)}
        title={category ? undefined : translate('missions.reorder.needsCategory')}
      >
        <SwapVertIcon />
      </RaButton>
      {open && category && <ReorderDialog category={category} onClose={() => setOpen(false)} />}
    </>
  );
}
