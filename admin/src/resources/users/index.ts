import PeopleIcon from '@mui/icons-material/People';
import { UserEdit } from './UserEdit';
import { UserList } from './UserList';
import { UserShow } from './UserShow';

export default {
  list: UserList,
  show: UserShow,
  edit: UserEdit,
  icon: PeopleIcon,
  recordRepresentation: (record: { name?: string; username?: string }) =>
    record.username ? `${record.name ?? ''} (@${record.username})` : (record.name ?? ''),
};
