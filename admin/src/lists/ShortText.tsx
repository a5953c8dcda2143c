import { Link, Typography } from '@mui/material';
import { useFieldValue } from 'react-admin';

/**
 * A long value (an address, a transaction hash) shortened to its ends in a table cell; the whole value on hover. With `href`,
 * the field of the record holding a link (a transaction's page in the explorer), it opens there in a new tab.
 */
export function ShortText({ source, href }: { source: string; href?: string; label?: string; sortable?: boolean }) {
  const value = String(useFieldValue({ source }) ?? '');
  const url = String(useFieldValue({ source: href ?? source }) ?? '');
  if (!value) return <Typography variant="body2">—</Typography>;
  const short = value.length > 16 ? `${value.slice(0, 6)}…${value.slice(-6)}` : value;
  const text = (
    <Typography component="span" variant="body2" title={value} sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
      {short}
    </Typography>
  );
  if (!href || !/^https:\/\//.test(url)) return text;
  // a click on the link opens the explorer, not the row
  return (
    <Link href={url} target="_blank" rel="noreferrer" onClick={(event) => event.stopPropagation()}>
      {text}
    </Link>
  );
}
