import type { ComponentType } from 'react';
import { BooleanField, Create, Edit, ImageField, List, NumberField, SimpleForm, TextField, TextInput, UrlField } from 'react-admin';
import { ConsoleDateField } from '../../lists/ConsoleDateField';
import type { z } from 'zod';
import { BilingualInput, TranslationField } from '../../forms/BilingualInput';
import { schemaResolver } from '../../forms/schemaResolver';
import { BY_ORDER, ResponsiveList, searchFilter, useOrderLine } from '../../lists/ResponsiveList';
import { Thumbnail } from '../../lists/Thumbnail';
import { ListActions } from '../../lists/ListActions';
import { EditActions, OrderAndEnabledInputs } from '../sharedInputs';

interface ImageLinkRecord {
  id: string;
  image: string;
  link: string;
  order: number;
  enabled: boolean;
}

/**
 * A resource of the home screen made of an image that opens a link (covers, partners): its list, create and edit pages.
 * `nameField` is the field that names a record, `imageHelp` the key of the image's help text, `preview` the table's image size.
 */
export function imageLinkResource<R extends ImageLinkRecord>({
  nameField,
  schema,
  imageHelp,
  icon,
  searchable,
  preview,
  persianImage = false,
}: {
  nameField: keyof R & string;
  schema: z.ZodType;
  imageHelp: string;
  icon: ComponentType;
  searchable: boolean;
  preview: { maxWidth: number; maxHeight: number };
  /** A second picture for Persian players (a banner's picture carries words). */
  persianImage?: boolean;
}) {
  function ImageLinkForm() {
    return (
      <SimpleForm resolver={schemaResolver(schema)}>
        <BilingualInput source={nameField} />
        <TextInput source="image" fullWidth helperText={imageHelp} />
        {persianImage && <TextInput source="fa.image" fullWidth helperText="content.persianImageHelp" />}
        <TextInput source="link" fullWidth />
        <OrderAndEnabledInputs />
      </SimpleForm>
    );
  }

  function ImageLinkList() {
    const orderLine = useOrderLine();
    return (
      <List sort={BY_ORDER} filters={searchable ? [searchFilter()] : undefined} actions={<ListActions />}>
        <ResponsiveList<R>
          phone={{
            leftAvatar: (r) => <Thumbnail src={r.image} />,
            primaryText: (r) => String(r[nameField] || '—'),
            secondaryText: orderLine,
          }}
        >
          <ImageField source="image" sx={{ '& img': { ...preview, objectFit: 'cover' } }} sortable={false} />
          <TextField source={nameField} />
          <TranslationField fields={[nameField]} />
          <UrlField source="link" sortable={false} />
          <NumberField source="order" />
          <BooleanField source="enabled" />
          <ConsoleDateField source="createdAt" showTime />
        </ResponsiveList>
      </List>
    );
  }

  const ImageLinkCreate = () => (
    <Create redirect="list">
      <ImageLinkForm />
    </Create>
  );
  const ImageLinkEdit = () => (
    <Edit mutationMode="pessimistic" actions={<EditActions />}>
      <ImageLinkForm />
    </Edit>
  );
  return { list: ImageLinkList, create: ImageLinkCreate, edit: ImageLinkEdit, icon, recordRepresentation: nameField };
}
