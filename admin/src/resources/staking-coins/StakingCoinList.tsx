import type { StakingOfferRecord } from '@gift/server';
import { BooleanField, List, NumberField, ReferenceField, TextField, useTranslate, type TranslateFunction } from 'react-admin';
import { ConsoleDateField } from '../../lists/ConsoleDateField';
import { STAKING_DURATION_KEYS } from '@gift/shared';
import { BY_ORDER, ResponsiveList } from '../../lists/ResponsiveList';
import { ListActions } from '../../lists/ListActions';

const offered = (translate: TranslateFunction) => (r: StakingOfferRecord) =>
  STAKING_DURATION_KEYS.filter((k) => r.profits?.[k])
    .map((k) => `${translate(`staking.durations.${k}`)} ${r.profits?.[k]}%`)
    .join(translate('common.separator')) || '—';

export function StakingCoinList() {
  const translate = useTranslate();
  return (
    <List sort={BY_ORDER} actions={<ListActions />}>
      <ResponsiveList<StakingOfferRecord>
        phone={{
          primaryText: () => <ReferenceField source="coin" reference="gift-coins" link={false} />,
          secondaryText: offered(translate),
          tertiaryText: (r) =>
            [`${r.minAmount}–${r.maxAmount}`, r.enabled ? '' : translate('common.disabled')]
              .filter(Boolean)
              .join(translate('common.separator')),
        }}
      >
        <ReferenceField source="coin" reference="gift-coins" sortable={false} />
        <TextField source="minAmount" sortable={false} />
        <TextField source="maxAmount" sortable={false} />
        {STAKING_DURATION_KEYS.map((k) => (
          <TextField key={k} source={`profits.${k}`} sortable={false} emptyText="—" />
        ))}
        <BooleanField source="enabled" />
        <NumberField source="order" />
        <ConsoleDateField source="createdAt" showTime />
      </ResponsiveList>
    </List>
  );
}
