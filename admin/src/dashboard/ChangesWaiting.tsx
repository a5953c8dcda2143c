import { List, ListItemButton, ListItemText } from '@mui/material';
import { Link } from 'react-router';
import { useCreatePath, useTranslate } from 'react-admin';
import type { DashboardFigures } from '@gift/server';
import { formatWhen, useDateLocales } from '../lists/ConsoleDateField';

type Change = NonNullable<DashboardFigures['changesWaiting']>['newest'][number];

/**
 * Where each resource's waiting brake change is decided in the console: the record's edit page (App Config's one form; the
 * league week's own page, which a week over keeps until its change is turned down).
 */
const PAGE_OF: Record<string, (record: string) => { resource: string; type: 'edit' | 'list'; id?: string }> = {
  missions: (id) => ({ resource: 'missions', type: 'edit', id }),
  'app-config': () => ({ resource: 'app-config', type: 'list' }),
  'gift-coins': (id) => ({ resource: 'gift-coins', type: 'edit', id }),
  'staking-coins': (id) => ({ resource: 'staking-coins', type: 'edit', id }),
  'star-offers': (id) => ({ resource: 'star-offers', type: 'edit', id }),
  leagues: (id) => ({ resource: 'league-weeks', type: 'edit', id }),
};

/**
 * The newest brake changes waiting for a second operator, under their count: what (the resource in the operator's words and
 * the record's name), who asked and when, each a link to the record's page, where it is approved or rejected.
 */
export function ChangesWaitingList({ changes }: { changes: Change[] }) {
  const translate = useTranslate();
  const createPath = useCreatePath();
  const locales = useDateLocales();
  if (!changes.length) return null;
  return (
    <List dense disablePadding data-testid="dashboard-changes-waiting">
      {changes.map((change) => {
        const page = PAGE_OF[change.resource];
        // App Config's record is the reward waiting: named in the operator's words
        const name =
          change.resource === 'app-config' ? translate(`dashboard.configReward.${change.name}`, { _: change.name }) : change.name;
        return (
          <ListItemButton
            key={change.id}
            component={Link}
            to={page ? createPath(page(change.record)) : ''}
            data-testid={`dashboard-change-${change.id}`}
            sx={{ px: 2 }}
          >
            <ListItemText
              primary={translate(`dashboard.changeOf.${change.resource}`, { name })}
              secondary={translate('dashboard.changeAsked', { by: change.by, when: formatWhen(change.at, locales) })}
            />
          </ListItemButton>
        );
      })}
    </List>
  );
}
