import { Children, isValidElement, useState, type ReactNode } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import {
  Confirm,
  FormDataConsumer,
  Labeled,
  SaveButton,
  SelectInput,
  SimpleForm,
  Toolbar,
  useRecordContext,
  useSaveContext,
  type RaRecord,
} from 'react-admin';
import { Stack } from '@mui/material';
import type { z } from 'zod';
import { schemaResolver } from '../forms/schemaResolver';
import { SaveOnlyToolbar } from './sharedInputs';

/** A record's fields shown above a decision, each labelled by its field's name. */
function Facts({ children }: { children: ReactNode }) {
  return <>{Children.map(children, (field) => isValidElement(field) && <Labeled>{field}</Labeled>)}</>;
}

/** The form's field holding the decision. */
const DECISION_FIELD = 'status';

/** What a decision that moves money asks before it is saved; null: it saves at once. */
export type DecisionConfirmation = { title: string; content: ReactNode } | null;

/** Save, asking first when the chosen decision moves money (`confirmFor`): the dialog's confirm submits the form. */
function ConfirmedSaveToolbar({ confirmFor }: { confirmFor: (status: string | undefined) => DecisionConfirmation }) {
  const status = useWatch({ name: DECISION_FIELD }) as string | undefined;
  const { handleSubmit } = useFormContext();
  const { save, saving } = useSaveContext();
  const [open, setOpen] = useState(false);
  const asked = confirmFor(status);
  if (!asked)
    return (
      <Toolbar>
        <SaveButton />
      </Toolbar>
    );
  return (
    <Toolbar>
      <SaveButton type="button" onClick={(event) => (event.preventDefault(), setOpen(true))} />
      <Confirm
        isOpen={open}
        loading={saving}
        title={asked.title}
        content={asked.content}
        onConfirm={() => void handleSubmit((values) => save?.(values))().then(() => setOpen(false))}
        onClose={() => setOpen(false)}
      />
    </Toolbar>
  );
}

/**
 * An operator's decision on a record (a review, a withdrawal): while `open`, a form whose `status` is one of `decisions`, with
 * the inputs that decision needs; once decided, the record as it was settled. `facts` show in both. `confirmFor` names the
 * decisions that move money: the operator confirms them first, single ones included.
 */
export function DecisionOrRecord<R extends RaRecord>({
  open,
  facts,
  settled,
  waiting,
  schema,
  label,
  decisions,
  inputsFor,
  confirmFor,
}: {
  open: (record: R) => boolean;
  facts: ReactNode;
  /** What a settled record adds to the facts. */
  settled: ReactNode;
  /** What an open record adds to the facts. */
  waiting?: ReactNode;
  schema: z.ZodType;
  label: string;
  decisions: { id: string; name: string }[];
  inputsFor: (status: string | undefined) => ReactNode;
  confirmFor?: (status: string | undefined, record: R) => DecisionConfirmation;
}) {
  const record = useRecordContext<R>();
  if (!record) return null;
  if (!open(record))
    return (
      <Stack sx={{ p: 2 }} spacing={1}>
        <Facts>{facts}</Facts>
        <Facts>{settled}</Facts>
      </Stack>
    );
  return (
    <SimpleForm
      toolbar={confirmFor ? <ConfirmedSaveToolbar confirmFor={(status) => confirmFor(status, record)} /> : <SaveOnlyToolbar />}
      resolver={schemaResolver(schema)}
      defaultValues={{ status: null }}
    >
      <Facts>{facts}</Facts>
      <Facts>{waiting}</Facts>
      <SelectInput source="status" label={label} choices={decisions} />
      <FormDataConsumer<{ status?: string }>>{({ formData }) => inputsFor(formData.status)}</FormDataConsumer>
    </SimpleForm>
  );
}
