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
  type HttpError,
} from 'react-admin';
import { useConsoleCalls } from '../../dataProvider';
import { balanceAdjustmentInput } from '@gift/shared';
import { schemaResolver } from '../../forms/schemaResolver';
import type { TabContentProps } from './show/PlayerRecords';
import { newIdempotencyKey } from '@gift/shared/idempotency';

const DIRECTIONS = [
  { id: 'credit', name: 'adjust.credit' },
  { id: 'debit', name: 'adjust.debit' },
];

/** A new key per form: pressing Save twice on the same form adjusts once. */
const freshValues = () => ({ direction: 'credit', amount: '', note: '', coin: null, idempotencyKey: newIdempotencyKey() });

/** A gift or a correction of the player's balance through the ledger, always with a reason; the audit names the operator. */
export function AdjustBalanceForm(_props: TabContentProps) {
  const translate = useTranslate();
  const player = useRecordContext<{ id: string }>();
  const dataProvider = useConsoleCalls();
  const notify = useNotify();
  const refresh = useRefresh();
  const [defaults, setDefaults] = useState(freshValues);
  if (!player) return null;
  const submit = async (values: Record<string, unknown>) => {
    try {
      const result = await dataProvider.adjustBalance(player.id, values);
      notify(result.applied ? 'adjust.saved' : 'adjust.alreadySaved', { type: 'info', messageArgs: { balance: result.balance } });
      setDefaults(freshValues());
      refresh();
    } catch (error) {
      const fieldErrors = ((error as HttpError).body as { errors?: Record<string, string> } | undefined)?.errors;
      if (fieldErrors) return fieldErrors;
      const message = (error as Error).message;
      notify(message || 'common.saveFailed', { type: 'error', messageArgs: { _: message } });
    }
    return undefined;
  };
  return (
    <Card variant="outlined" sx={{ maxWidth: 560 }}>
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate('adjust.title')}
        </Typography>
        <Form key={defaults.idempotencyKey} defaultValues={defaults} onSubmit={submit} resolver={schemaResolver(balanceAdjustmentInput)}>
          <RadioButtonGroupInput source="direction" choices={DIRECTIONS} label="adjust.kind" />
          <ReferenceInput source="coin" reference="gift-coins" sort={{ field: 'order', order: 'ASC' }}>
            <SelectInput optionText="symbol" label="adjust.coin" />
          </ReferenceInput>
          <TextInput source="amount" label="adjust.amount" helperText="common.amountHelp" />
          <TextInput source="note" label="adjust.reason" multiline fullWidth helperText="adjust.reasonHelp" />
          <SaveButton label="common.save" alwaysEnable />
        </Form>
      </CardContent>
    </Card>
  );
}
