import { Tab, Tabs } from '@mui/material';
import { Link } from 'react-router';
import { useGetList, useTranslate } from 'react-admin';

export interface CountedTab {
  value: string;
  /** A translation key. */
  label: string;
  /** What the tab lists, counted like the demo's order tabs (one request of one row, read from Content-Range). */
  filter: Record<string, unknown>;
  /** A tab that is its own page (pending and done withdrawals). */
  to?: string;
}

function TabLabel({ resource, tab }: { resource: string; tab: CountedTab }) {
  const translate = useTranslate();
  const { total } = useGetList(resource, {
    pagination: { page: 1, perPage: 1 },
    sort: { field: 'createdAt', order: 'DESC' },
    filter: tab.filter,
  });
  return (
    <span>
      {translate(tab.label)} ({total ?? '…'})
    </span>
  );
}

/** Status tabs with their counts above a list; they scroll sideways on a phone rather than hide. */
export function CountedTabs({
  resource,
  tabs,
  value,
  onChange,
}: {
  resource: string;
  tabs: CountedTab[];
  value: string;
  onChange?: (value: string) => void;
}) {
  return (
    <Tabs
      value={value}
      onChange={(_event, next: string) => onChange?.(next)}
      variant="scrollable"
      scrollButtons="auto"
      allowScrollButtonsMobile
      indicatorColor="primary"
      // on a phone the list grows with its widest child: the tabs scroll inside the window instead
      sx={{ borderBottom: 1, borderColor: 'divider', maxWidth: { xs: 'calc(100vw - 16px)', md: '100%' } }}
    >
      {tabs.map((tab) =>
        tab.to ? (
          <Tab key={tab.value} value={tab.value} label={<TabLabel resource={resource} tab={tab} />} component={Link} to={tab.to} />
        ) : (
          <Tab key={tab.value} value={tab.value} label={<TabLabel resource={resource} tab={tab} />} />
        ),
      )}
    </Tabs>
  );
}
