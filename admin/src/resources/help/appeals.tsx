import GavelIcon from '@mui/icons-material/Gavel';
import { Alert, Typography } from '@mui/material';
import type { AppealRecord } from '@gift/server';
import { appealAnswerInput } from '@gift/shared';
import {
  Edit,
  FunctionField,
  Labeled,
  List,
  SelectField,
  SelectInput,
  SimpleForm,
  TextInput,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { Link } from 'react-router';
import { schemaResolver } from '../../forms/schemaResolver';
import { ConsoleDateField } from '../../lists/ConsoleDateField';
import { ListActions } from '../../lists/ListActions';
import { ResponsiveList, searchFilter } from '../../lists/ResponsiveList';
import { EditActions, SaveOnlyToolbar } from '../sharedInputs';

/** An appeal as the console's API presents it: the player's name beside their id, who answered by name. */
type AppealRow = Omit<AppealRecord, 'user' | 'answeredBy'> & { user: string; userName: string; username: string; answeredBy: string };

const STATUS_CHOICES = [
  { id: 'open', name: 'appeals.statuses.open' },
  { id: 'answered', name: 'appeals.statuses.answered' },
];
const STANDING_CHOICES = [
  { id: 'banned', name: 'appeals.standings.banned' },
  { id: 'frozen', name: 'appeals.standings.frozen' },
];
const player = (r: AppealRow) => (r.username ? `${r.userName} (@${r.username})` : r.userName || r.user);
const filters = [searchFilter(), <SelectInput key="status" source="status" choices={STATUS_CHOICES} alwaysOn />];

/** An appeal's status in the console's language (a phone's list line shows it as text). */
function StatusText({ status }: { status: string }) {
  const translate = useTranslate();
  return <>{translate(`appeals.statuses.${status}`)}</>;
}

/** The queue: open appeals first to last (oldest first), the player, what they were told and what they wrote. */
function AppealList() {
  return (
    <List filters={filters} filterDefaultValues={{ status: 'open' }} sort={{ field: 'createdAt', order: 'ASC' }} actions={<ListActions />}>
      <ResponsiveList<AppealRow>
        phone={{ primaryText: player, secondaryText: (r) => <bdi>{r.text}</bdi>, tertiaryText: (r) => <StatusText status={r.status} /> }}
      >
        <ConsoleDateField source="createdAt" showTime />
        <FunctionField<AppealRow> source="user" render={player} sortable={false} />
        <SelectField source="standing" choices={STANDING_CHOICES} sortable={false} />
        <FunctionField<AppealRow> source="standingReason" render={(r) => <bdi>{r.standingReason}</bdi>} sortable={false} />
        <FunctionField<AppealRow> source="text" render={(r) => <bdi>{r.text}</bdi>} sortable={false} />
        <SelectField source="status" choices={STATUS_CHOICES} />
      </ResponsiveList>
    </List>
  );
}

/** What the player wrote, beside their page; the answer goes to them by the bot, once. An appeal is never deleted. */
function AppealCase() {
  const appeal = useRecordContext<AppealRow>();
  const translate = useTranslate();
  if (!appeal) return null;
  return (
    <>
      <Labeled label="resources.appeals.fields.user">
        <Link to={`/users/${appeal.user}/show`}>{player(appeal)}</Link>
      </Labeled>
      <Labeled label="resources.appeals.fields.standingReason">
        <Typography>
          {translate(`appeals.standings.${appeal.standing}`)}: <bdi>{appeal.standingReason}</bdi>
        </Typography>
      </Labeled>
      <Labeled label="resources.appeals.fields.text">
        {/* the player's own words, in their language whatever the console's: their direction is their own */}
        <Typography dir="auto" sx={{ whiteSpace: 'pre-line' }}>
          {appeal.text}
        </Typography>
      </Labeled>
      <Alert severity="info" sx={{ my: 1 }}>
        {translate(appeal.status === 'open' ? 'appeals.answerHelp' : 'appeals.answered', { operator: appeal.answeredBy })}
      </Alert>
    </>
  );
}

/** The answer, across the form's width (a field wrapper would shrink it to its words); read-only once given. */
function AnswerInput() {
  const appeal = useRecordContext<AppealRow>();
  return <TextInput source="answer" multiline fullWidth minRows={3} readOnly={appeal?.status === 'answered'} />;
}

function AppealEdit() {
  return (
    <Edit mutationMode="pessimistic" actions={<EditActions />} redirect="list">
      <SimpleForm resolver={schemaResolver(appealAnswerInput)} toolbar={<SaveOnlyToolbar />}>
        <AppealCase />
        <AnswerInput />
      </SimpleForm>
    </Edit>
  );
}

/** Banned and frozen players' appeals, answered by an operator. */
export default { list: AppealList, edit: AppealEdit, icon: GavelIcon, recordRepresentation: 'text' };
