import HowToRegIcon from '@mui/icons-material/HowToReg';
import { AccountGrantList } from './AccountGrantList';

export default { list: AccountGrantList, icon: HowToRegIcon };
