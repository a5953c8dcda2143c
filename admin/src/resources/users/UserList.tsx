import {
  BooleanField,
  BooleanInput,
  Datagrid,
  DateField,
  List,
  NumberField,
  SearchInput,
  SimpleList,
  TextField,
  useTranslate,
} from 'react-admin';
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

export function UserList() {
  const isSmall = useIsSmall();
  const translate = useTranslate();
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('players.search')} />,
    <BooleanInput key="blocked" source="blocked" />,
  ];
  return (
    <List filters={filters}>
      {isSmall ? (
        <SimpleList<UserRow>
          primaryText={(r) => (r.blocked ? `${r.name} · ${translate('players.blocked')}` : r.name)}
          secondaryText={(r) => (r.username ? `@${r.username}` : String(r.telegramId))}
          tertiaryText={(r) => translate('players.doneAndFriends', { done: r.doneMissionsCount, friends: r.referrersCount })}
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
