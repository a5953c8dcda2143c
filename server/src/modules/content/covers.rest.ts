import type { ResourceDefinition } from '../../rest/resource';
import { CoverModel } from './content.models';

/** STUB: read-only until its module's work lands. */
export const coversResource: ResourceDefinition = { name: 'covers', model: CoverModel };
