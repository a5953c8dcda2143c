import CampaignIcon from '@mui/icons-material/Campaign';
import { BroadcastCreate, BroadcastEdit } from './BroadcastEditors';
import { BroadcastList, plainText } from './BroadcastList';
import { BroadcastShow } from './BroadcastShow';

export default {
  list: BroadcastList,
  show: BroadcastShow,
  create: BroadcastCreate,
  edit: BroadcastEdit,
  icon: CampaignIcon,
  // the title of its page: the start of the message, formatting left out
  recordRepresentation: (record: { text?: string }) => {
    const plain = plainText(record.text ?? '');
    return plain.length > 48 ? `${plain.slice(0, 47)}…` : plain;
  },
};
