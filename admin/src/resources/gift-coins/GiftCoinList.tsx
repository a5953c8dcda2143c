import { TranslationField } from '../../forms/BilingualInput';
import type { GiftCoinRecord } from '@gift/server';
import { BooleanField, ImageField, List, SelectField, TextField, useTranslate } from 'react-admin';
import { ConsoleDateField } from '../../lists/ConsoleDateField';
import { BY_ORDER, ResponsiveList, searchFilter } from '../../lists/ResponsiveList';
import { Thumbnail } from '../../lists/Thumbnail';
import { ListActions } from '../../lists/ListActions';
import { NETWORK_CHOICES } from './networks';

export function GiftCoinList() {
  const translate = useTranslate();
  return (
    <List sort={BY_ORDER} filters={[searchFilter()]} actions={<ListActions />}>
      <ResponsiveList<GiftCoinRecord>
        phone={{
          leftAvatar: (r) => (r.icon ? <Thumbnail src={r.icon} round /> : r.symbol.slice(0, 2)),
          primaryText: (r) => `${r.name} (${r.symbol})`,
          secondaryText: (r) => (r.usdPrice ? `$${r.usdPrice}` : translate('coins.noUsdPrice')),
          tertiaryText: (r) =>
            r.withdrawEnabled ? translate('coins.minWithdraw', { amount: r.minWithdraw }) : translate('coins.noWithdrawals'),
        }}
      >
        <ImageField source="icon" sx={{ '& img': { maxWidth: 32, maxHeight: 32, borderRadius: '50%' } }} sortable={false} />
        <TextField source="name" />
        <TranslationField fields={['name']} />
        <TextField source="symbol" />
        <SelectField source="network" choices={NETWORK_CHOICES} />
        <TextField source="usdPrice" sortable={false} emptyText="—" />
        <TextField source="minWithdraw" sortable={false} />
        <BooleanField source="withdrawEnabled" />
        <BooleanField source="enabled" />
        <ConsoleDateField source="createdAt" showTime />
      </ResponsiveList>
    </List>
  );
}
