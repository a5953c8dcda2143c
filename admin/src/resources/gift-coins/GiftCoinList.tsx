import {
  BooleanField,
  Datagrid,
  DateField,
  ImageField,
  List,
  NumberField,
  SearchInput,
  SelectField,
  SimpleList,
  TextField,
  useTranslate,
} from 'react-admin';
import { useIsSmall } from '../../layout/useIsSmall';
import { NETWORK_CHOICES } from './networks';

interface CoinRow {
  id: string;
  name: string;
  symbol: string;
  icon: string;
  network: string;
  usdPrice: string;
  minWithdraw: string;
  withdrawEnabled: boolean;
}

export function GiftCoinList() {
  const isSmall = useIsSmall();
  const translate = useTranslate();
  return (
    <List sort={{ field: 'order', order: 'ASC' }} filters={[<SearchInput key="q" source="q" alwaysOn />]}>
      {isSmall ? (
        <SimpleList<CoinRow>
          leftAvatar={(r) =>
            r.icon ? <img src={r.icon} alt="" style={{ width: 40, height: 40, borderRadius: '50%' }} /> : r.symbol.slice(0, 2)
          }
          primaryText={(r) => `${r.name} (${r.symbol})`}
          secondaryText={(r) => (r.usdPrice ? `$${r.usdPrice}` : translate('coins.noUsdPrice'))}
          tertiaryText={(r) =>
            r.withdrawEnabled ? translate('coins.minWithdraw', { amount: r.minWithdraw }) : translate('coins.noWithdrawals')
          }
          linkType="edit"
        />
      ) : (
        <Datagrid rowClick="edit" bulkActionButtons={false}>
          <ImageField source="icon" sx={{ '& img': { maxWidth: 32, maxHeight: 32, borderRadius: '50%' } }} sortable={false} />
          <TextField source="name" />
          <TextField source="symbol" />
          <SelectField source="network" choices={NETWORK_CHOICES} />
          <TextField source="usdPrice" sortable={false} emptyText="—" />
          <TextField source="minWithdraw" sortable={false} />
          <BooleanField source="withdrawEnabled" />
          <BooleanField source="enabled" />
          <NumberField source="order" />
          <DateField source="createdAt" showTime />
        </Datagrid>
      )}
    </List>
  );
}
