import {
  BooleanField,
  Datagrid,
  DateField,
  FunctionField,
  List,
  NumberField,
  ReferenceField,
  ReferenceInput,
  SearchInput,
  SelectField,
  SelectInput,
  SimpleList,
  TextField,
  useTranslate,
} from 'react-admin';
import { useIsSmall } from '../../layout/useIsSmall';
import { VERIFY_TYPE_CHOICES } from './verifyTypes';

interface MissionRow {
  id: string;
  title: string;
  reward: string;
  verifyType: string;
  mustDone: boolean;
  enabled: boolean;
}

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <ReferenceInput key="category" source="category" reference="categories" />,
  <SelectInput key="verifyType" source="verifyType" choices={VERIFY_TYPE_CHOICES} />,
];

const Reward = () => (
  <span>
    <FunctionField<MissionRow> render={(r) => `${r.reward} `} />
    <ReferenceField source="coin" reference="gift-coins" link={false}>
      <TextField source="symbol" />
    </ReferenceField>
  </span>
);

export function MissionList() {
  const isSmall = useIsSmall();
  const translate = useTranslate();
  return (
    <List sort={{ field: 'order', order: 'ASC' }} filters={filters}>
      {isSmall ? (
        <SimpleList<MissionRow>
          primaryText={(r) => `${r.mustDone ? '⭐ ' : ''}${r.title}`}
          secondaryText={() => <Reward />}
          tertiaryText={(r) => `${translate(`verifyTypes.${r.verifyType}`)}${r.enabled ? '' : ` · ${translate('common.disabled')}`}`}
          linkType="edit"
        />
      ) : (
        <Datagrid rowClick="edit" bulkActionButtons={false}>
          <TextField source="title" />
          <ReferenceField source="category" reference="categories" sortable={false} />
          <SelectField source="verifyType" choices={VERIFY_TYPE_CHOICES} />
          <FunctionField source="reward" sortable={false} render={() => <Reward />} />
          <BooleanField source="mustDone" />
          <NumberField source="order" />
          <BooleanField source="enabled" />
          <DateField source="createdAt" showTime />
        </Datagrid>
      )}
    </List>
  );
}
