import CardGiftcardIcon from '@mui/icons-material/CardGiftcard';
import { GiftCoinCreate } from './GiftCoinCreate';
import { GiftCoinEdit } from './GiftCoinEdit';
import { GiftCoinList } from './GiftCoinList';

export default {
  list: GiftCoinList,
  edit: GiftCoinEdit,
  create: GiftCoinCreate,
  icon: CardGiftcardIcon,
  recordRepresentation: (record: { name?: string; symbol?: string }) => `${record.name ?? ''} (${record.symbol ?? ''})`,
};
