import SavingsIcon from '@mui/icons-material/Savings';
import { StakingCoinCreate } from './StakingCoinCreate';
import { StakingCoinEdit } from './StakingCoinEdit';
import { StakingCoinList } from './StakingCoinList';

export default {
  list: StakingCoinList,
  edit: StakingCoinEdit,
  create: StakingCoinCreate,
  icon: SavingsIcon,
  recordRepresentation: (record: { id?: string }) => `Staking offer ${String(record.id ?? '').slice(-6)}`,
};
