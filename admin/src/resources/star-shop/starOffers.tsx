import StorefrontIcon from '@mui/icons-material/Storefront';
import type { StarOfferRecord } from '@gift/server';
import { BOOST_KINDS, starOfferInput } from '@gift/shared';
import {
  BooleanField,
  Create,
  Edit,
  FormDataConsumer,
  List,
  NumberField,
  SelectField,
  SelectInput,
  SimpleForm,
  TextField,
  useLocale,
  useTranslate,
} from 'react-admin';
import { BilingualInput, TranslationField } from '../../forms/BilingualInput';
import { ChangeWaiting } from '../ChangeWaiting';
import { NumeralInput } from '../../forms/NumeralInput';
import { schemaResolver } from '../../forms/schemaResolver';
import { ListActions } from '../../lists/ListActions';
import { BY_ORDER, ResponsiveList, searchFilter } from '../../lists/ResponsiveList';
import { EditActions, OrderAndEnabledInputs } from '../sharedInputs';

export const KIND_CHOICES = BOOST_KINDS.map((kind) => ({ id: kind, name: `starsShop.kinds.${kind}` }));

/** '50 Stars', its digits in the console's language. */
export function useStarsLabel() {
  const translate = useTranslate();
  const locale = useLocale();
  return (stars: number) => translate('starsShop.stars', { count: stars.toLocaleString(locale === 'fa' ? 'fa-IR' : 'en-US') });
}

function StarOfferForm() {
  return (
    <SimpleForm resolver={schemaResolver(starOfferInput)}>
      <BilingualInput source="title" />
      <BilingualInput source="description" multiline />
      <SelectInput source="kind" choices={KIND_CHOICES} />
      <NumeralInput source="stars" inputMode="numeric" helperText="starsShop.starsHelp" />
      <FormDataConsumer<{ kind?: string }>>
        {({ formData }) =>
          formData.kind === 'multiplier' && (
            <NumeralInput source="multiplierPercent" inputMode="numeric" helperText="starsShop.multiplierHelp" />
          )
        }
      </FormDataConsumer>
      <OrderAndEnabledInputs />
    </SimpleForm>
  );
}

function StarOfferList() {
  const translate = useTranslate();
  const starsLabel = useStarsLabel();
  return (
    <List sort={BY_ORDER} filters={[searchFilter()]} actions={<ListActions />}>
      <ResponsiveList<StarOfferRecord>
        phone={{
          primaryText: (r) => r.title,
          secondaryText: (r) => `${translate(`starsShop.kinds.${r.kind}`)}${translate('common.separator')}${starsLabel(r.stars)}`,
          tertiaryText: (r) => translate(r.enabled ? 'starsShop.onSale' : 'starsShop.offSale'),
        }}
      >
        <TextField source="title" />
        <SelectField source="kind" choices={KIND_CHOICES} />
        <NumberField source="stars" />
        <NumberField source="multiplierPercent" />
        <TranslationField fields={['title', 'description']} />
        <NumberField source="order" />
        <BooleanField source="enabled" />
      </ResponsiveList>
    </List>
  );
}

/** An offer's richer terms (a larger boost, a lower price, on sale) waiting for a second operator, on its page above the form. */
function TermsWaiting() {
  const translate = useTranslate();
  const starsLabel = useStarsLabel();
  return (
    <ChangeWaiting
      resource="star-offers"
      describe={(set) => {
        const percent = set.kind === 'multiplier' ? ` ${String(set.multiplierPercent)}%` : '';
        return [
          `${translate(`starsShop.kinds.${String(set.kind)}`)}${percent}`,
          starsLabel(Number(set.stars)),
          translate(set.enabled ? 'starsShop.onSale' : 'starsShop.offSale'),
        ].join('; ');
      }}
    />
  );
}

/** The Stars shop's items: what each gives, its price in whole Stars, on sale or not (switched off, never deleted). */
export default {
  list: StarOfferList,
  create: () => (
    <Create redirect="list">
      <StarOfferForm />
    </Create>
  ),
  edit: () => (
    <Edit mutationMode="pessimistic" actions={<EditActions />}>
      <>
        {/* terms that let Stars buy more coins than the mining coin's threshold wait here for a second operator */}
        <TermsWaiting />
        <StarOfferForm />
      </>
    </Edit>
  ),
  icon: StorefrontIcon,
  recordRepresentation: 'title',
};
