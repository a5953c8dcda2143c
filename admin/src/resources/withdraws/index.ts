import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';
import { WithdrawEdit } from './WithdrawEdit';
import { PendingWithdrawList } from './WithdrawList';

export default {
  list: PendingWithdrawList,
  edit: WithdrawEdit,
  icon: AccountBalanceWalletIcon,
  recordRepresentation: (record: { amount?: string; coinSymbol?: string; userName?: string }) =>
    `${record.amount ?? ''} ${record.coinSymbol ?? ''}${record.userName ? ` to ${record.userName}` : ''}`,
};
export { DoneWithdrawList, InPayoutWithdrawList, PendingWithdrawList } from './WithdrawList';
export { TreasuryPage } from './TreasuryPage';
