import HandshakeIcon from '@mui/icons-material/Handshake';
import { partnerInput } from '@gift/shared';
import type { PartnerRecord } from '@gift/server';
import { imageLinkResource } from '../home-content/imageLinkResource';

/** The partners shown on the home screen. */
export default imageLinkResource<PartnerRecord>({
  nameField: 'name',
  schema: partnerInput,
  imageHelp: 'content.partnerImageHelp',
  icon: HandshakeIcon,
  searchable: true,
  preview: { maxWidth: 40, maxHeight: 40 },
});
