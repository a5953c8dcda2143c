import { partnerInput } from '@gift/shared';
import { orderedResource } from '../../http/resource';
import { PartnerModel } from './content.models';

/** Partners shown on the home screen. */
export const partnersResource = orderedResource('partners', PartnerModel, partnerInput, { search: ['name'] });
