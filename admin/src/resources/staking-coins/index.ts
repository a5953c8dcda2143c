import { createElement } from 'react';
import { RecordLabel, shortId } from '../../lists/RecordLabel';
import SavingsIcon from '@mui/icons-material/Savings';
import { StakingCoinCreate } from './StakingCoinCreate';
import { StakingCoinEdit } from './StakingCoinEdit';
import { StakingCoinList } from './StakingCoinList';

export default {
  list: StakingCoinList,
  edit: StakingCoinEdit,
  create: StakingCoinCreate,
  icon: SavingsIcon,
  recordRepresentation: createElement(RecordLabel, { message: 'records.stakingOffer', args: shortId }),
};
