import { coverInput } from '@gift/shared';
import { orderedResource } from '../../http/resource';
import { CoverModel } from './content.models';

/** Banners on the home screen. */
export const coversResource = orderedResource('covers', CoverModel, coverInput, { search: ['title'] });
