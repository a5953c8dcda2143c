import ViewCarouselIcon from '@mui/icons-material/ViewCarousel';
import { coverInput } from '@gift/shared';
import type { CoverRecord } from '@gift/server';
import { imageLinkResource } from '../home-content/imageLinkResource';

/** The home screen's banners. */
export default imageLinkResource<CoverRecord>({
  nameField: 'title',
  schema: coverInput,
  imageHelp: 'content.coverImageHelp',
  icon: ViewCarouselIcon,
  searchable: false,
  preview: { maxWidth: 120, maxHeight: 60 },
  persianImage: true,
});
