import { useState } from 'react';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import UndoIcon from '@mui/icons-material/Undo';
import { Card, CardContent, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { StarPurchaseRecord } from '@gift/server';
import {
  Button,
  Confirm,
  FunctionField,
  List,
  NumberField,
  SelectField,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  ListButton,
  useCanAccess,
  useLocale,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { Link } from 'react-router';
import { useConsoleCalls } from '../../dataProvider';
import { ConsoleDateField, dayWriter } from '../../lists/ConsoleDateField';
import { ListActions } from '../../lists/ListActions';
import { ResponsiveList, searchFilter } from '../../lists/ResponsiveList';
import { useConsoleAction } from '../useConsoleAction';
import { KIND_CHOICES, useStarsLabel } from './starOffers';

const STATUS_CHOICES = ['pending', 'paid', 'refunded'].map((status) => ({ id: status, name: `starsShop.statuses.${status}` }));
const BOOST_CHOICES = ['none', 'ready', 'used', 'revoked'].map((boost) => ({ id: boost, name: `starsShop.boosts.${boost}` }));
const player = (r: StarPurchaseRecord) => (r.username ? `${r.userName} (@${r.username})` : r.userName || r.user);
const filters = [searchFilter('starsShop.searchHelp'), <SelectInput key="status" source="status" choices={STATUS_CHOICES} alwaysOn />];

/** Refund: Telegram returns the Stars, then the boost is taken back. Asks first, naming the Stars; write access only. */
function RefundButton() {
  const purchase = useRecordContext<StarPurchaseRecord>();
  const { canAccess } = useCanAccess({ resource: 'star-purchases', action: 'edit' });
  const calls = useConsoleCalls();
  const { busy, run } = useConsoleAction();
  const [open, setOpen] = useState(false);
  const locale = useLocale();
  const stars = (n: number) => n.toLocaleString(locale === 'fa' ? 'fa-IR' : 'en-US');
  if (!purchase || !canAccess || purchase.status !== 'paid') return null;
  const refund = () =>
    run(
      () => calls.refundStarPurchase(purchase.id),
      (result) => {
        setOpen(false);
        return { message: `starsShop.refundedAs.${result.boost}`, args: { stars: stars(result.stars) } };
      },
    );
  return (
    <span onClick={(event) => event.stopPropagation()}>
      <Button label="starsShop.refund" color="error" onClick={() => setOpen(true)}>
        <UndoIcon />
      </Button>
      <Confirm
        isOpen={open}
        loading={busy}
        title="starsShop.refundTitle"
        content="starsShop.refundContent"
        translateOptions={{ stars: stars(purchase.stars), player: player(purchase) }}
        confirm="starsShop.refund"
        onConfirm={() => void refund()}
        onClose={() => setOpen(false)}
      />
    </span>
  );
}

/** Stars received, less refunds, in total and over the last 30 days, above the list. */
function StarsRevenueCard() {
  const calls = useConsoleCalls();
  const translate = useTranslate();
  const locale = useLocale();
  const { data } = useQuery({ queryKey: ['star-purchases', 'revenue'], queryFn: () => calls.starsRevenue() });
  if (!data) return null;
  const number = (n: number) => n.toLocaleString(locale === 'fa' ? 'fa-IR' : 'en-US');
  const writeDay = dayWriter(locale === 'fa' ? 'fa-IR' : 'en-US');
  const lastMonth = data.days.reduce((sum, day) => sum + day.stars, 0);
  const figures = [
    ['starsShop.revenue.total', data.stars],
    ['starsShop.revenue.last30', lastMonth],
    ['starsShop.revenue.purchases', data.purchases],
    ['starsShop.revenue.refunded', data.refundedStars],
  ] as const;
  return (
    <Card sx={{ mb: 1 }}>
      <CardContent>
        <Typography variant="subtitle2">{translate('starsShop.revenue.title')}</Typography>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 3, mt: 1 }}>
          {figures.map(([label, value]) => (
            <div key={label}>
              <Typography variant="h6">{number(value)}</Typography>
              <Typography variant="caption" color="text.secondary">
                {translate(label)}
              </Typography>
            </div>
          ))}
        </Stack>
        {data.days.length > 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
            {data.days.map((day) => `${writeDay(day.day)}: ${number(day.stars)}`).join(translate('common.separator'))}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}

function StarPurchaseList() {
  const translate = useTranslate();
  const starsLabel = useStarsLabel();
  return (
    <>
      <StarsRevenueCard />
      <List filters={filters} filterDefaultValues={{ status: 'paid' }} actions={<ListActions />}>
        <ResponsiveList<StarPurchaseRecord>
          rowClick="show"
          phone={{
            primaryText: (r) => `${r.title}${translate('common.separator')}${starsLabel(r.stars)}`,
            secondaryText: player,
            tertiaryText: (r) => translate(`starsShop.statuses.${r.status}`),
          }}
        >
          <ConsoleDateField source="createdAt" showTime />
          <FunctionField<StarPurchaseRecord> source="user" render={player} sortable={false} />
          <TextField source="title" sortable={false} />
          <SelectField source="kind" choices={KIND_CHOICES} sortable={false} />
          <NumberField source="stars" />
          <TextField source="chargeId" sortable={false} />
          <SelectField source="status" choices={STATUS_CHOICES} sortable={false} />
          <SelectField source="boost" choices={BOOST_CHOICES} sortable={false} />
          <ConsoleDateField source="refundedAt" showTime />
          <RefundButton />
        </ResponsiveList>
      </List>
    </>
  );
}

function StarPurchaseShow() {
  return (
    <Show
      actions={
        <TopToolbar>
          <ListButton />
          <RefundButton />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <FunctionField<StarPurchaseRecord> source="user" render={(r) => <Link to={`/users/${r.user}/show`}>{player(r)}</Link>} />
        <TextField source="title" />
        <SelectField source="kind" choices={KIND_CHOICES} />
        <NumberField source="stars" />
        <TextField source="chargeId" />
        <SelectField source="status" choices={STATUS_CHOICES} />
        <SelectField source="boost" choices={BOOST_CHOICES} />
        <ConsoleDateField source="paidAt" showTime />
        <ConsoleDateField source="refundedAt" showTime />
      </SimpleShowLayout>
    </Show>
  );
}

/** Stars payments: who bought what, for how many Stars, under which charge; the revenue; Refund. */
export default { list: StarPurchaseList, show: StarPurchaseShow, icon: ReceiptLongIcon, recordRepresentation: 'title' };
