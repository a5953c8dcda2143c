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
  type HttpError,
} from 'react-admin';
import { useConsoleCalls } from '../../dataProvider';
import { balanceAdjustmentInput } from '@gift/shared';
import { schemaResolver } from '../../forms/schemaResolver';
import { AMOUNT_HELP } from '../sharedInputs';
import { newIdempotencyKey } from '@gift/shared/idempotency';

const DIRECTIONS = [
  { id: 'credit', name: 'Gift (add to the balance)' },
  { id: 'debit', name: 'Correction (take from the balance)' },
];

/** A new key per form: pressing Save twice on the same form adjusts once. */
const freshValues = () => ({ direction: 'credit', amount: '', note: '', coin: null, idempotencyKey: newIdempotencyKey() });

/** A gift or a correction of the player's balance through the ledger, always with a reason; the audit names the operator. */
export function AdjustBalanceForm() {
  const player = useRecordContext<{ id: string }>();
  const dataProvider = useConsoleCalls();
  const notify = useNotify();
  const refresh = useRefresh();
  const [defaults, setDefaults] = useState(freshValues);
  if (!player) return null;
  const submit = async (values: Record<string, unknown>) => {
    try {
      const result = await dataProvider.adjustBalance(player.id, values);
      notify(result.applied ? `Saved: the balance is now ${result.balance}` : 'Already saved', { type: 'info' });
      setDefaults(freshValues());
      refresh();
    } catch (error) {
      const fieldErrors = ((error as HttpError).body as { errors?: Record<string, string> } | undefined)?.errors;
      if (fieldErrors) return fieldErrors;
      notify((error as Error).message || 'Save failed', { type: 'error' });
    }
    return undefined;
  };
  return (
    <Card variant="outlined" sx={{ maxWidth: 560 }}>
      <CardContent>
        <Typography variant="h6" gutterBottom>
          Gift or correction
        </Typography>
        <Form key={defaults.idempotencyKey} defaultValues={defaults} onSubmit={submit} resolver={schemaResolver(balanceAdjustmentInput)}>
          <RadioButtonGroupInput source="direction" choices={DIRECTIONS} label="Kind" />
          <ReferenceInput source="coin" reference="gift-coins" sort={{ field: 'order', order: 'ASC' }}>
            <SelectInput optionText="symbol" label="Coin" />
          </ReferenceInput>
          <TextInput source="amount" label="Amount" helperText={AMOUNT_HELP} />
          <TextInput source="note" label="Reason" multiline fullWidth helperText="Required: the player's ledger and the audit keep it" />
          <SaveButton label="Save" alwaysEnable />
        </Form>
      </CardContent>
    </Card>
  );
}
