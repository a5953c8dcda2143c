import { useState } from 'react';
import { TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { z } from 'zod';

/** A reason an operator writes in a confirmation (a player or the audit reads it), checked with the server's schema first. */
export function useReason() {
  const translate = useTranslate();
  const [value, setValue] = useState('');
  const [error, setError] = useState('');
  return {
    value,
    error,
    /** A new reason: the problem shown for the last one goes. */
    change: (next: string) => {
      setValue(next);
      setError('');
    },
    /** The body as the server's schema reads it; or nothing, the schema's first problem shown under the field. */
    check: <S extends z.ZodType>(schema: S, body: unknown): z.output<S> | undefined => {
      const checked = schema.safeParse(body);
      if (!checked.success) setError(checked.error.issues[0]?.message ?? translate('ra.message.invalid_form'));
      return checked.data;
    },
  };
}

interface ReasonFieldProps {
  reason: ReturnType<typeof useReason>;
  /** Message keys: the field's label, and what it says under it while the reason has no problem. */
  label: string;
  help: string;
  name: string;
}

/** The field a reason is written in, its problem (else its help) under it. */
export function ReasonField({ reason, label, help, name }: ReasonFieldProps) {
  const translate = useTranslate();
  return (
    <TextField
      label={translate(label)}
      helperText={reason.error || translate(help)}
      error={!!reason.error}
      value={reason.value}
      onChange={(event) => reason.change(event.target.value)}
      name={name}
      multiline
      fullWidth
      autoFocus
    />
  );
}
