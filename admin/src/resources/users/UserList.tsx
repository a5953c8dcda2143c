import type { PlayerRecord } from '@gift/server';
import { BooleanField, BooleanInput, DateField, List, NumberField, TextField, useTranslate } from 'react-admin';
import { ResponsiveList, searchFilter } from '../../lists/ResponsiveList';

export function UserList() {
  const translate = useTranslate();
  const filters = [searchFilter('players.search'), <BooleanInput key="blocked" source="blocked" />];
  return (
    <List filters={filters}>
      <ResponsiveList<PlayerRecord>
        rowClick="show"
        phone={{
          primaryText: (r) => (r.blocked ? `${r.name} · ${translate('players.blocked')}` : r.name),
          secondaryText: (r) => (r.username ? `@${r.username}` : String(r.telegramId)),
          tertiaryText: (r) => translate('players.doneAndFriends', { done: r.doneMissionsCount, friends: r.referrersCount }),
        }}
      >
        <NumberField source="telegramId" options={{ useGrouping: false }} />
        <TextField source="name" />
        <TextField source="username" />
        <NumberField source="referrersCount" />
        <NumberField source="missionsCount" />
        <NumberField source="doneMissionsCount" />
        <NumberField source="inviteLimit" sortable={false} />
        <BooleanField source="blocked" sortable={false} />
        <DateField source="createdAt" showTime />
      </ResponsiveList>
    </List>
  );
}
