import EmojiEventsIcon from '@mui/icons-material/EmojiEvents';
import { LEAGUES, leaguePrizesInput } from '@gift/shared';
import {
  ArrayInput,
  AutocompleteInput,
  Edit,
  FunctionField,
  List,
  NumberField,
  ReferenceInput,
  SelectField,
  SelectInput,
  SimpleForm,
  SimpleFormIterator,
  TextField,
  TextInput,
  useTranslate,
} from 'react-admin';
import { NumeralInput } from '../../forms/NumeralInput';
import { ConsoleDateField } from '../../lists/ConsoleDateField';
import { schemaResolver } from '../../forms/schemaResolver';
import { ListActions } from '../../lists/ListActions';
import { ResponsiveList } from '../../lists/ResponsiveList';
import { ChangeWaiting } from '../ChangeWaiting';
import { EditActions, SaveOnlyToolbar } from '../sharedInputs';

/** A prize's inputs are named inside the table (prizes.0.amount): their labels are the resource's own fields. */
const FIELD = 'resources.league-weeks.fields';
const LEAGUE_CHOICES = LEAGUES.map((league) => ({ id: league, name: `leagues.names.${league}` }));
const OUTCOME_CHOICES = ['promoted', 'relegated', 'stayed'].map((outcome) => ({ id: outcome, name: `leagues.outcomes.${outcome}` }));

interface StandingRow {
  id: string;
  userName: string;
  username: string;
  league: string;
  score: string;
  week: string;
}

const player = (row: StandingRow) => row.userName || (row.username ? `@${row.username}` : row.id);

/** A week's standings, one league at a time, highest first; the week is the current one unless another is typed. */
function LeagueStandingList() {
  return (
    <List
      sort={{ field: 'score', order: 'DESC' }}
      filters={[
        <SelectInput key="league" source="league" choices={LEAGUE_CHOICES} alwaysOn />,
        <TextInput key="week" source="week" alwaysOn />,
      ]}
      actions={<ListActions />}
    >
      <ResponsiveList<StandingRow>
        rowClick={false}
        phone={{ primaryText: player, secondaryText: (r) => r.score, tertiaryText: (r) => r.league }}
      >
        <FunctionField<StandingRow> source="user" render={player} sortable={false} />
        <SelectField source="league" choices={LEAGUE_CHOICES} sortable={false} />
        <NumberField source="score" />
        <SelectField source="outcome" choices={OUTCOME_CHOICES} sortable={false} />
        <TextField source="week" sortable={false} />
      </ResponsiveList>
    </List>
  );
}

/** The prize table waiting for a second operator, above the form. */
function PrizesWaiting() {
  const translate = useTranslate();
  const describe = (set: Record<string, unknown>) =>
    ((set.prizes as Array<{ league: string; fromRank: number; toRank: number; amount: string }> | undefined) ?? [])
      .map((p) => `${translate(`leagues.names.${p.league}`)} ${p.fromRank}–${p.toRank}: ${p.amount}`)
      .join('; ');
  return <ChangeWaiting resource="league-weeks" describe={describe} />;
}

/**
 * The week's prizes: per league and rank range, a coin and an exact amount each player at those ranks is paid at the week's end.
 * There is one table a week, edited as 'current' (the menu's page); a week's own id opens that week, as the dashboard links a
 * change still waiting when its week ended, to be turned down. No list to go back to, and nothing to delete (the server refuses).
 */
function LeagueWeekEdit() {
  return (
    <Edit title="menu.leaguePrizes" mutationMode="pessimistic" actions={<EditActions list={false} />} redirect={false}>
      <>
        <PrizesWaiting />
        <SimpleForm resolver={schemaResolver(leaguePrizesInput)} toolbar={<SaveOnlyToolbar />}>
          {/* the week's Monday, a calendar day: written in the console's calendar and digits, whatever the browser's zone */}
          <ConsoleDateField source="week" options={{ timeZone: 'UTC' }} />
          <ArrayInput source="prizes">
            <SimpleFormIterator inline>
              <SelectInput source="league" choices={LEAGUE_CHOICES} label={`${FIELD}.league`} />
              <NumeralInput source="fromRank" inputMode="numeric" label={`${FIELD}.fromRank`} />
              <NumeralInput source="toRank" inputMode="numeric" label={`${FIELD}.toRank`} />
              <ReferenceInput source="coin" reference="gift-coins">
                <AutocompleteInput optionText="symbol" label={`${FIELD}.coin`} />
              </ReferenceInput>
              <NumeralInput source="amount" label={`${FIELD}.amount`} />
            </SimpleFormIterator>
          </ArrayInput>
        </SimpleForm>
      </>
    </Edit>
  );
}

export const leagueStandings = { list: LeagueStandingList, icon: EmojiEventsIcon };
export const leagueWeeks = { edit: LeagueWeekEdit, icon: EmojiEventsIcon };
