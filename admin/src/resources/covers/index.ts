import ViewCarouselIcon from '@mui/icons-material/ViewCarousel';
import { CoverCreate } from './CoverCreate';
import { CoverEdit } from './CoverEdit';
import { CoverList } from './CoverList';

export default {
  list: CoverList,
  edit: CoverEdit,
  create: CoverCreate,
  icon: ViewCarouselIcon,
  recordRepresentation: 'title',
};
