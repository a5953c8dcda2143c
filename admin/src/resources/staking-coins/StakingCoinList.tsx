import {
  BooleanField,
  Datagrid,
  DateField,
  List,
  NumberField,
  ReferenceField,
  SimpleList,
  TextField,
  useTranslate,
  type TranslateFunction,
} from 'react-admin';
import { STAKING_DURATION_KEYS } from '@gift/shared';
import { useIsSmall } from '../../layout/useIsSmall';

interface StakingRow {
  id: string;
  minAmount: string;
  maxAmount: string;
  enabled: boolean;
  profits: Record<string, string>;
}

const offered = (translate: TranslateFunction) => (r: StakingRow) =>
  STAKING_DURATION_KEYS.filter((k) => r.profits?.[k])
    .map((k) => `${translate(`staking.durations.${k}`)} ${r.profits[k]}%`)
    .join(' · ') || '—';

export function StakingCoinList() {
  const isSmall = useIsSmall();
  const translate = useTranslate();
  return (
    <List sort={{ field: 'order', order: 'ASC' }}>
      {isSmall ? (
        <SimpleList<StakingRow>
          primaryText={() => <ReferenceField source="coin" reference="gift-coins" link={false} />}
          secondaryText={offered(translate)}
          tertiaryText={(r) => `${r.minAmount}–${r.maxAmount}${r.enabled ? '' : ' · disabled'}`}
          linkType="edit"
        />
      ) : (
        <Datagrid rowClick="edit" bulkActionButtons={false}>
          <ReferenceField source="coin" reference="gift-coins" sortable={false} />
          <TextField source="minAmount" sortable={false} />
          <TextField source="maxAmount" sortable={false} />
          {STAKING_DURATION_KEYS.map((k) => (
            <TextField key={k} source={`profits.${k}`} sortable={false} emptyText="—" />
          ))}
          <BooleanField source="enabled" />
          <NumberField source="order" />
          <DateField source="createdAt" showTime />
        </Datagrid>
      )}
    </List>
  );
}
