import { Children, isValidElement, type ReactNode } from 'react';
import { FormDataConsumer, Labeled, SelectInput, SimpleForm, useRecordContext, type RaRecord } from 'react-admin';
import { Stack } from '@mui/material';
import type { z } from 'zod';
import { schemaResolver } from '../forms/schemaResolver';
import { SaveOnlyToolbar } from './sharedInputs';

/** A record's fields shown above a decision, each labelled by its field's name. */
function Facts({ children }: { children: ReactNode }) {
  return <>{Children.map(children, (field) => isValidElement(field) && <Labeled>{field}</Labeled>)}</>;
}

/**
 * An operator's decision on a record (a review, a withdrawal): while `open`, a form whose `status` is one of `decisions`, with
 * the inputs that decision needs; once decided, the record as it was settled. `facts` show in both.
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
    <SimpleForm toolbar={<SaveOnlyToolbar />} resolver={schemaResolver(schema)} defaultValues={{ status: null }}>
      <Facts>{facts}</Facts>
      <Facts>{waiting}</Facts>
      <SelectInput source="status" label={label} choices={decisions} />
      <FormDataConsumer<{ status?: string }>>{({ formData }) => inputsFor(formData.status)}</FormDataConsumer>
    </SimpleForm>
  );
}
