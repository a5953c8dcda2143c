import { Chip, Stack } from '@mui/material';
import { FunctionField, TextInput, useTranslate } from 'react-admin';

/**
 * A text players read, written in English and, beside it, in Persian (`fa.<source>`, right-to-left). A blank Persian text
 * falls back to the English for Persian players.
 */
export function BilingualInput({ source, multiline = false, helperText }: { source: string; multiline?: boolean; helperText?: string }) {
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ width: '100%' }}>
      <TextInput source={source} multiline={multiline} fullWidth helperText={helperText} />
      <TextInput
        source={`fa.${source}`}
        multiline={multiline}
        fullWidth
        helperText="content.persianHelp"
        slotProps={{ htmlInput: { dir: 'rtl', lang: 'fa' } }}
      />
    </Stack>
  );
}

/** The list's flag for a record whose English texts have no Persian yet (the fields named), or ✓. */
export function TranslationField({ fields, label = 'content.persian' }: { fields: string[]; label?: string }) {
  const translate = useTranslate();
  return (
    <FunctionField<Record<string, unknown> & { fa?: Record<string, string | undefined> }>
      label={label}
      sortable={false}
      render={(record) => {
        const missing = fields.filter((field) => {
          const english = record[field];
          return typeof english === 'string' && english.trim() !== '' && !record.fa?.[field]?.trim();
        });
        return missing.length ? (
          <Chip size="small" color="warning" label={translate('content.persianMissing')} />
        ) : (
          <Chip size="small" variant="outlined" label={translate('content.persianDone')} />
        );
      }}
    />
  );
}
