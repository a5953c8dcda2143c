import QuizIcon from '@mui/icons-material/Quiz';
import type { FaqRecord } from '@gift/server';
import { faqInput } from '@gift/shared';
import { BooleanField, Create, Edit, List, NumberField, SimpleForm, TextField } from 'react-admin';
import { BilingualInput, TranslationField } from '../../forms/BilingualInput';
import { schemaResolver } from '../../forms/schemaResolver';
import { ListActions } from '../../lists/ListActions';
import { BY_ORDER, ResponsiveList, searchFilter, useOrderLine } from '../../lists/ResponsiveList';
import { EditActions, OrderAndEnabledInputs } from '../sharedInputs';

function FaqForm() {
  return (
    <SimpleForm resolver={schemaResolver(faqInput)}>
      <BilingualInput source="question" />
      <BilingualInput source="answer" multiline />
      <OrderAndEnabledInputs />
    </SimpleForm>
  );
}

function FaqList() {
  const orderLine = useOrderLine();
  return (
    <List sort={BY_ORDER} filters={[searchFilter()]} actions={<ListActions />}>
      <ResponsiveList<FaqRecord> phone={{ primaryText: (r) => r.question, secondaryText: orderLine }}>
        <TextField source="question" />
        <TranslationField fields={['question', 'answer']} />
        <NumberField source="order" />
        <BooleanField source="enabled" />
      </ResponsiveList>
    </List>
  );
}

/** The Help page's questions and answers, in both languages. */
export default {
  list: FaqList,
  create: () => (
    <Create redirect="list">
      <FaqForm />
    </Create>
  ),
  edit: () => (
    <Edit mutationMode="pessimistic" actions={<EditActions />}>
      <FaqForm />
    </Edit>
  ),
  icon: QuizIcon,
  recordRepresentation: 'question',
};
