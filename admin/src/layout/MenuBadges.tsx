import type { ReactNode } from 'react';
import { Box, Chip } from '@mui/material';
import { useGetOne, useLocaleState, useTranslate } from 'react-admin';
import type { AlertCounts } from '@gift/server';

/** How often the menu asks for its counts: one cheap call of indexed counts. */
const COUNTS_POLL_MS = 30_000;

/** What waits, as the menu shows it (GET /api/admin/alerts/counts): only the counts the operator's permissions allow come back. */
export function useMenuCounts(): Partial<AlertCounts> {
  const { data } = useGetOne<AlertCounts>('alerts', { id: 'counts' }, { refetchInterval: COUNTS_POLL_MS, retry: false });
  return data ?? {};
}

/** A menu item's label with its badges after it: a long label gives way (ellipsis), the badges always show. */
export function MenuLabel({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', maxWidth: '100%', verticalAlign: 'middle' }}>
      <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 }}>
        {label}
      </Box>
      {children}
    </Box>
  );
}

/** What waits: a count (in the console's digits), or a word for a state; nothing when there is nothing. */
export function CountBadge({ count, title, word }: { count?: number; title: string; word?: string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const shown = word ?? (count ? count.toLocaleString(locale === 'fa' ? 'fa-IR' : 'en-US') : null);
  if (!shown) return null;
  const description = translate(title, { count: shown });
  return (
    <Chip
      component="span"
      size="small"
      color={word ? 'error' : 'primary'}
      label={shown}
      title={description}
      aria-label={description}
      data-testid={`menu-badge-${title.split('.').pop()}`}
      sx={{ marginInlineStart: 1, height: 20, fontSize: '0.75rem', flexShrink: 0 }}
    />
  );
}
