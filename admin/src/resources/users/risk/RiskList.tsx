import { FunctionField, List, TextField, useTranslate } from 'react-admin';
import { ConsoleDateField } from '../../../lists/ConsoleDateField';
import { ResponsiveList, searchFilter } from '../../../lists/ResponsiveList';
import { ListActions } from '../../../lists/ListActions';
import { BulkStatusButtons, StatusChip } from '../StatusButtons';
import { RiskChip, type RiskRecord } from './RiskViews';
import { riskLevelFilter, statusFilter } from '../playerFilters';

type Row = RiskRecord & { name: string; username: string; status?: 'active' | 'frozen' | 'banned'; createdAt: string };

/**
 * The Risk list: players by score, highest first, with the signals that scored as columns of words; filtered by level (review and high
 * by default) and status; a row opens the player, selected rows are frozen or banned at once.
 */
export function RiskList() {
  const translate = useTranslate();
  const filters = [searchFilter('players.search'), riskLevelFilter(true), statusFilter(true)];
  const signals = (r: Row) =>
    (r.risk?.signals ?? [])
      .slice(0, 3)
      .map((s) => translate(`risk.short.${s.signal}`, s.evidence))
      .join(translate('common.separator'));
  return (
    <List
      resource="users"
      title="risk.title"
      storeKey="users.risk"
      actions={<ListActions exportAs="users.risk" />}
      sort={{ field: 'risk.score', order: 'DESC' }}
      filterDefaultValues={{ risk: { level: 'high' } }}
      filters={filters}
      empty={false}
    >
      <ResponsiveList<Row>
        rowClick="show"
        bulkActionButtons={<BulkStatusButtons />}
        phone={{
          primaryText: (r) => `${r.name}${translate('common.separator')}${r.risk?.score ?? 0}`,
          secondaryText: signals,
          tertiaryText: (r) => translate(`players.status.${r.status ?? 'active'}`),
        }}
      >
        <TextField source="name" sortable={false} />
        <FunctionField<Row>
          source="risk.score"
          label="risk.scoreColumn"
          render={(r) => <RiskChip level={r.risk?.level} score={r.risk?.score} />}
        />
        <FunctionField<Row> label="risk.signalsTitle" render={signals} />
        <FunctionField<Row> source="status" sortable={false} render={(r) => <StatusChip status={r.status} />} />
        <ConsoleDateField source="createdAt" showTime />
      </ResponsiveList>
    </List>
  );
}
