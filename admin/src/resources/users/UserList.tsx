import { BooleanField, BooleanInput, Datagrid, DateField, List, NumberField, SearchInput, SimpleList, TextField } from 'react-admin';
import { useIsSmall } from '../../layout/useIsSmall';

interface UserRow {
  id: string;
  name: string;
  username: string;
  telegramId: number;
  referrersCount: number;
  doneMissionsCount: number;
  blocked: boolean;
}

const filters = [<SearchInput key="q" source="q" alwaysOn placeholder="Name, username or Telegram id" />, <BooleanInput key="blocked" source="blocked" />];

export function UserList() {
  const isSmall = useIsSmall();
  return (
    <List filters={filters}>
      {isSmall ? (
        <SimpleList<UserRow>
          primaryText={(r) => `${r.name}${r.blocked ? ' · blocked' : ''}`}
          secondaryText={(r) => (r.username ? `@${r.username}` : String(r.telegramId))}
          tertiaryText={(r) => `${r.doneMissionsCount} done · ${r.referrersCount} friends`}
          linkType="show"
        />
      ) : (
        <Datagrid rowClick="show" bulkActionButtons={false}>
          <NumberField source="telegramId" options={{ useGrouping: false }} />
          <TextField source="name" />
          <TextField source="username" />
          <NumberField source="referrersCount" />
          <NumberField source="missionsCount" />
          <NumberField source="doneMissionsCount" />
          <NumberField source="inviteLimit" sortable={false} />
          <BooleanField source="blocked" sortable={false} />
          <DateField source="createdAt" showTime />
        </Datagrid>
      )}
    </List>
  );
}
