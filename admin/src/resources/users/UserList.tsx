import type { PlayerRecord } from '@gift/server';
import { Button, FunctionField, List, NumberField, TextField, TextInput, useBasename, useTranslate } from 'react-admin';
import { ConsoleDateField } from '../../lists/ConsoleDateField';
import { Link } from 'react-router';
import SortIcon from '@mui/icons-material/Sort';
import { ResponsiveList, searchFilter } from '../../lists/ResponsiveList';
import { ListActions } from '../../lists/ListActions';
import { BulkStatusButtons, StatusChip } from './StatusButtons';
import { RiskChip } from './risk/RiskViews';
import { riskLevelFilter, statusFilter } from './playerFilters';

/** The list's own actions, and a way to the players ordered by their balance of a coin. */
function UserListActions() {
  const basename = useBasename();
  return (
    <ListActions columns="users.datagrid">
      <Button component={Link} to={`${basename}/holders`} label="holders.open">
        <SortIcon />
      </Button>
    </ListActions>
  );
}

/**
 * Players: searched by name, @username, Telegram id (or its first digits), referral code or wallet; filtered by status, risk level and
 * the clusters the risk signals link to (a referrer's friends, a network, a wallet's players); frozen or banned in bulk.
 */
export function UserList() {
  const translate = useTranslate();
  const filters = [
    searchFilter('players.search'),
    statusFilter(),
    riskLevelFilter(),
    <TextInput key="referrer" source="referrer" />,
    <TextInput key="joinNetwork" source="joinNetwork" />,
    <TextInput key="walletAddresses" source="walletAddresses" />,
  ];
  return (
    <List filters={filters} actions={<UserListActions />}>
      <ResponsiveList<PlayerRecord>
        columns="users.datagrid"
        rowClick="show"
        bulkActionButtons={<BulkStatusButtons />}
        phone={{
          primaryText: (r) =>
            r.status !== 'active' ? `${r.name}${translate('common.separator')}${translate(`players.status.${r.status}`)}` : r.name,
          secondaryText: (r) => (r.username ? `@${r.username}` : String(r.telegramId)),
          tertiaryText: (r) => translate('players.doneAndFriends', { done: r.doneMissionsCount, friends: r.referrersCount }),
        }}
      >
        <NumberField source="telegramId" options={{ useGrouping: false }} />
        <TextField source="name" />
        <TextField source="username" />
        <NumberField source="referrersCount" />
        <NumberField source="doneMissionsCount" />
        <FunctionField<PlayerRecord>
          source="risk.score"
          label="risk.scoreColumn"
          render={(r) => <RiskChip level={r.risk?.level} score={r.risk?.score} />}
        />
        <FunctionField<PlayerRecord> source="status" sortable={false} render={(r) => <StatusChip status={r.status} />} />
        <ConsoleDateField source="createdAt" showTime />
      </ResponsiveList>
    </List>
  );
}
