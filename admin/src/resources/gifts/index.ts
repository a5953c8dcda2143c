import RedeemIcon from '@mui/icons-material/Redeem';
import { GiftList } from './GiftList';

export default { list: GiftList, icon: RedeemIcon };
