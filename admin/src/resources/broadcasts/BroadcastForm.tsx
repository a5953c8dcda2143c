import { useEffect, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, Grid, Typography } from '@mui/material';
import { AutocompleteInput, BooleanInput, ReferenceInput, SelectInput, SimpleForm, TextInput, useLocale, useTranslate } from 'react-admin';
import { broadcastInput } from '@gift/shared/schemas/broadcasts';
import { schemaResolver } from '../../forms/schemaResolver';
import { ConsoleDateInput } from '../../forms/ConsoleDateInput';
import { NumeralInput } from '../../forms/NumeralInput';
import { broadcastSegment } from '@gift/shared';
import { useConsoleCalls } from '../../dataProvider';
import { MessagePreview } from './MessagePreview';

const LANGUAGE_CHOICES = [
  { id: 'en', name: 'languages.en' },
  { id: 'fa', name: 'languages.fa' },
];
// banned and frozen players receive no broadcast: the server refuses a segment naming them
const STATUS_CHOICES = [{ id: 'active', name: 'broadcasts.segment.active' }];

const SEGMENT = 'segment';
/** The segment's conditions sit side by side, not one per line. */
const INLINE = { fullWidth: false, sx: { minWidth: 220 } } as const;

/** How many players the segment being written reaches, counted by the server a moment after each change. */
function SegmentCount() {
  const translate = useTranslate();
  const locale = useLocale();
  const segment = useWatch({ name: SEGMENT }) as unknown;
  const calls = useConsoleCalls();
  const [answer, setAnswer] = useState<{ count?: number; failed?: boolean }>({});
  const key = JSON.stringify(segment ?? {});
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      // the segment as the server's schema reads it: one it refuses is not counted
      (async () => calls.countSegment(broadcastSegment.parse(JSON.parse(key))))()
        .then(({ count }) => current && setAnswer({ count }))
        .catch(() => current && setAnswer({ failed: true }));
    }, 400);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key, calls]);
  if (answer.failed) return <Alert severity="warning">{translate('broadcasts.countFailed')}</Alert>;
  if (answer.count === undefined) return <Alert severity="info">{translate('broadcasts.counting')}</Alert>;
  return (
    <Alert severity={answer.count ? 'info' : 'warning'} role="status">
      {translate('broadcasts.reaches', { smart_count: answer.count, count: new Intl.NumberFormat(locale).format(answer.count) })}
    </Alert>
  );
}

/** Said beside the button's fields when the server has no public address: the button then opens the app's home page. */
function ButtonTargetNotice() {
  const translate = useTranslate();
  const calls = useConsoleCalls();
  const { data } = useQuery({ queryKey: ['broadcasts', 'button-target'], queryFn: () => calls.broadcastButtonTarget() });
  if (data?.hasPublicUrl !== false) return null;
  return (
    <Alert severity="warning" role="note" sx={{ width: '100%', boxSizing: 'border-box' }}>
      {translate('broadcasts.noPublicUrl')}
    </Alert>
  );
}

function Previews() {
  const translate = useTranslate();
  const [text, fa, imageUrl, button] = useWatch({ name: ['text', 'fa.text', 'imageUrl', 'button'] }) as [
    string,
    string,
    string,
    { text?: string; fa?: { text?: string } } | null,
  ];
  return (
    <Grid container spacing={2} sx={{ width: '100%' }}>
      <Grid size={{ xs: 12, md: 6 }}>
        <Typography variant="caption">{translate('languages.en')}</Typography>
        <MessagePreview text={text} imageUrl={imageUrl} button={button?.text} />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <Typography variant="caption">{translate('languages.fa')}</Typography>
        <MessagePreview text={fa || text} imageUrl={imageUrl} button={button?.fa?.text || button?.text} rtl={!!fa} />
      </Grid>
    </Grid>
  );
}

/** The message in both languages side by side with its preview, the button, the segment and its count, and the time. */
export function BroadcastForm() {
  const translate = useTranslate();
  return (
    <SimpleForm resolver={schemaResolver(broadcastInput)} defaultValues={{ fa: { text: '' }, segment: {}, button: null }}>
      <Typography variant="h6">{translate('broadcasts.message')}</Typography>
      <Typography variant="body2" color="text.secondary">
        {translate('broadcasts.formatting')}
      </Typography>
      <Grid container spacing={2} sx={{ width: '100%' }}>
        <Grid size={{ xs: 12, md: 6 }}>
          <TextInput source="text" multiline minRows={4} fullWidth />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <TextInput
            source="fa.text"
            multiline
            minRows={4}
            fullWidth
            helperText="broadcasts.faHelp"
            slotProps={{ htmlInput: { dir: 'rtl' } }}
          />
        </Grid>
      </Grid>
      <TextInput source="imageUrl" fullWidth helperText="broadcasts.imageHelp" />
      <Grid container spacing={2} sx={{ width: '100%' }}>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextInput source="button.text" fullWidth helperText="broadcasts.buttonHelp" />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextInput source="button.fa.text" fullWidth slotProps={{ htmlInput: { dir: 'rtl' } }} />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextInput source="button.path" fullWidth helperText="broadcasts.pathHelp" />
        </Grid>
      </Grid>
      <ButtonTargetNotice />
      <Previews />

      <Typography variant="h6" sx={{ mt: 2 }}>
        {translate('broadcasts.audience')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, width: '100%' }}>
        <SelectInput {...INLINE} source="segment.language" choices={LANGUAGE_CHOICES} emptyText="broadcasts.segment.anyLanguage" />
        <NumeralInput {...INLINE} source="segment.activeWithinDays" inputMode="numeric" />
        <NumeralInput {...INLINE} source="segment.inactiveForDays" inputMode="numeric" />
        <SelectInput {...INLINE} source="segment.status" choices={STATUS_CHOICES} emptyText="broadcasts.segment.anyStatus" />
        <ConsoleDateInput {...INLINE} source="segment.joinedFrom" />
        <ConsoleDateInput {...INLINE} source="segment.joinedTo" />
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, width: '100%' }}>
        <ReferenceInput source="segment.holds.coin" reference="gift-coins">
          <AutocompleteInput {...INLINE} optionText="symbol" />
        </ReferenceInput>
        <NumeralInput {...INLINE} source="segment.holds.atLeast" />
        <ReferenceInput source="segment.mission.id" reference="missions">
          <AutocompleteInput {...INLINE} optionText="title" />
        </ReferenceInput>
        <BooleanInput source="segment.mission.done" defaultValue />
      </Box>
      <SegmentCount />
      <ConsoleDateInput time source="scheduledAt" helperText="broadcasts.scheduleHelp" />
    </SimpleForm>
  );
}
