import type { MissionRecord } from '@gift/server';
import {
  BooleanField,
  FunctionField,
  List,
  ReferenceField,
  ReferenceInput,
  SelectField,
  SelectInput,
  TextField,
  useTranslate,
} from 'react-admin';
import { ConsoleDateField } from '../../lists/ConsoleDateField';
import { TranslationField } from '../../forms/BilingualInput';
import { BY_ORDER, ResponsiveList, searchFilter } from '../../lists/ResponsiveList';
import { ListActions } from '../../lists/ListActions';
import { BulkEnableButtons } from './BulkEnableButtons';
import { ReorderButton } from './ReorderButton';
import { WaitingBadge } from './RewardWaiting';
import { VERIFY_TYPE_CHOICES } from './verifyTypes';

const filters = [
  searchFilter(),
  <ReferenceInput key="category" source="category" reference="categories" />,
  <SelectInput key="verifyType" source="verifyType" choices={VERIFY_TYPE_CHOICES} />,
];

const Reward = () => (
  <span>
    <FunctionField<MissionRecord> render={(r) => `${r.reward} `} />
    <ReferenceField source="coin" reference="gift-coins" link={false}>
      <TextField source="symbol" />
    </ReferenceField>
    <WaitingBadge />
  </span>
);

export function MissionList() {
  const translate = useTranslate();
  return (
    <List
      sort={BY_ORDER}
      filters={filters}
      actions={
        <ListActions columns="missions.datagrid">
          <ReorderButton />
        </ListActions>
      }
    >
      <ResponsiveList<MissionRecord>
        columns="missions.datagrid"
        bulkActionButtons={<BulkEnableButtons />}
        phone={{
          primaryText: (r) => `${r.mustDone ? '⭐ ' : ''}${r.title}`,
          secondaryText: () => <Reward />,
          tertiaryText: (r) =>
            [
              translate(`verifyTypes.${r.verifyType}`),
              translate('content.completionsShort', {
                count: r.cap ? translate('content.completionsOfCap', { count: r.completions, cap: r.cap }) : r.completions,
              }),
              r.enabled ? '' : translate('common.disabled'),
            ]
              .filter(Boolean)
              .join(translate('common.separator')),
        }}
      >
        <TextField source="title" />
        <TranslationField fields={['title', 'description']} />
        <ReferenceField source="category" reference="categories" sortable={false} />
        <SelectField source="verifyType" choices={VERIFY_TYPE_CHOICES} />
        <FunctionField source="reward" sortable={false} render={() => <Reward />} />
        <BooleanField source="mustDone" />
        <FunctionField<MissionRecord>
          source="completions"
          render={(r) => (r.cap ? translate('content.completionsOfCap', { count: r.completions, cap: r.cap }) : r.completions)}
        />
        <BooleanField source="enabled" />
        <ConsoleDateField source="createdAt" showTime />
      </ResponsiveList>
    </List>
  );
}
