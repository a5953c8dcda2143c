import CampaignIcon from '@mui/icons-material/Campaign';
import { BroadcastCreate, BroadcastEdit } from './BroadcastEditors';
import { BroadcastList } from './BroadcastList';
import { BroadcastShow } from './BroadcastShow';

export default {
  list: BroadcastList,
  show: BroadcastShow,
  create: BroadcastCreate,
  edit: BroadcastEdit,
  icon: CampaignIcon,
};
