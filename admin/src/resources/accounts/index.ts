import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import { AccountCreate } from './AccountCreate';
import { AccountEdit } from './AccountEdit';
import { AccountList } from './AccountList';

export default {
  list: AccountList,
  edit: AccountEdit,
  create: AccountCreate,
  icon: ManageAccountsIcon,
  recordRepresentation: 'username',
};
