import type { ResourceDefinition } from '../../rest/resource';
import { AppConfigModel } from './appConfig.model';

/** STUB: read-only until its module's work lands. */
export const appConfigResource: ResourceDefinition = { name: 'app-config', model: AppConfigModel };
