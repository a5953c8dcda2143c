import { Typography } from '@mui/material';
import { useFieldValue } from 'react-admin';

/** A long value (an address, a transaction hash) shortened to its ends in a table cell; the whole value on hover. */
export function ShortText({ source }: { source: string; label?: string; sortable?: boolean }) {
  const value = String(useFieldValue({ source }) ?? '');
  if (!value) return <Typography variant="body2">—</Typography>;
  const short = value.length > 16 ? `${value.slice(0, 6)}…${value.slice(-6)}` : value;
  return (
    <Typography variant="body2" title={value} sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
      {short}
    </Typography>
  );
}
