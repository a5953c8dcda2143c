import HandshakeIcon from '@mui/icons-material/Handshake';
import { PartnerCreate } from './PartnerCreate';
import { PartnerEdit } from './PartnerEdit';
import { PartnerList } from './PartnerList';

export default {
  list: PartnerList,
  edit: PartnerEdit,
  create: PartnerCreate,
  icon: HandshakeIcon,
  recordRepresentation: 'name',
};
