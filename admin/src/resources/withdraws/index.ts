import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';
import { WithdrawEdit } from './WithdrawEdit';
import { PendingWithdrawList } from './WithdrawList';

export default {
  list: PendingWithdrawList,
  edit: WithdrawEdit,
  icon: AccountBalanceWalletIcon,
  recordRepresentation: (record: { amount?: string; address?: string }) => `${record.amount ?? ''} → ${record.address ?? ''}`,
};
export { DoneWithdrawList, PendingWithdrawList } from './WithdrawList';
