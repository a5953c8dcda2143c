import { useState } from 'react';
import { Card, CardContent, Typography } from '@mui/material';
import {
  Form,
  RadioButtonGroupInput,
  ReferenceInput,
  SaveButton,
  SelectInput,
  TextInput,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  Confirm,
  useGetOne,
  type HttpError,
} from 'react-admin';
import { NumeralInput } from '../../forms/NumeralInput';
import { useConsoleCalls } from '../../dataProvider';
import { balanceAdjustmentInput } from '@gift/shared';
import type { z } from 'zod';
import type { FieldValues } from 'react-hook-form';
import { schemaResolver } from '../../forms/schemaResolver';
import type { TabContentProps } from './show/PlayerRecords';
import { newIdempotencyKey } from '@gift/shared/idempotency';

/** The form's values as the schema reads them (the resolver checked them): what the confirmation names and the server gets. */
type Adjustment = z.output<typeof balanceAdjustmentInput>;

const DIRECTIONS = [
  { id: 'credit', name: 'adjust.credit' },
  { id: 'debit', name: 'adjust.debit' },
];

/** A new key per form: pressing Save twice on the same form adjusts once. */
const freshValues = () => ({ direction: 'credit', amount: '', note: '', coin: null, idempotencyKey: newIdempotencyKey() });

/** A gift or a correction of the player's balance through the ledger, always with a reason; the audit names the operator. */
export function AdjustBalanceForm(_props: TabContentProps) {
  const translate = useTranslate();
  const player = useRecordContext<{ id: string; name?: string; username?: string }>();
  const dataProvider = useConsoleCalls();
  const notify = useNotify();
  const refresh = useRefresh();
  const [defaults, setDefaults] = useState(freshValues);
  // the form's values wait here while the operator reads the confirmation naming the amount and the player
  const [asking, setAsking] = useState<Adjustment | null>(null);
  const coin = useGetOne<{ id: string; symbol: string }>('gift-coins', { id: asking?.coin ?? '' }, { enabled: !!asking?.coin });
  if (!player) return null;
  const send = async (values: Adjustment) => {
    setAsking(null);
    try {
      const result = await dataProvider.adjustBalance(player.id, values);
      if (result.pending) notify('adjust.pending', { type: 'info' });
      else notify(result.applied ? 'adjust.saved' : 'adjust.alreadySaved', { type: 'info', messageArgs: { balance: result.balance } });
      setDefaults(freshValues());
      refresh();
    } catch (error) {
      // a field the server refused (more decimals than the coin has) is named in the message
      const fieldErrors = ((error as HttpError).body as { errors?: Record<string, string> } | undefined)?.errors;
      const message = (fieldErrors && Object.values(fieldErrors)[0]) || (error as Error).message;
      notify(message || 'common.saveFailed', { type: 'error', messageArgs: { _: message } });
    }
  };
  const playerName = player.username ? `${player.name ?? ''} (@${player.username})` : (player.name ?? player.id);
  return (
    <Card variant="outlined" sx={{ maxWidth: 560 }}>
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate('adjust.title')}
        </Typography>
        <Form
          key={defaults.idempotencyKey}
          defaultValues={defaults}
          onSubmit={(values: FieldValues) => setAsking(balanceAdjustmentInput.safeParse(values).data ?? null)}
          resolver={schemaResolver(balanceAdjustmentInput)}
        >
          <RadioButtonGroupInput source="direction" choices={DIRECTIONS} label="adjust.kind" />
          <ReferenceInput source="coin" reference="gift-coins" sort={{ field: 'order', order: 'ASC' }}>
            <SelectInput optionText="symbol" label="adjust.coin" />
          </ReferenceInput>
          <NumeralInput source="amount" label="adjust.amount" helperText="common.amountHelp" />
          <TextInput source="note" label="adjust.reason" multiline fullWidth helperText="adjust.reasonHelp" />
          <SaveButton label="common.save" alwaysEnable />
        </Form>
        <Confirm
          isOpen={!!asking}
          title="adjust.confirmTitle"
          content={translate(asking?.direction === 'debit' ? 'adjust.confirmDebit' : 'adjust.confirmCredit', {
            amount: asking?.amount ?? '',
            symbol: coin.data?.symbol ?? '',
            player: playerName,
          })}
          onConfirm={() => void (asking && send(asking))}
          onClose={() => setAsking(null)}
        />
      </CardContent>
    </Card>
  );
}
