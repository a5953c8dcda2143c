import type { ResourceDefinition } from './resource';

/** Every console resource, each declared in its module's .rest.ts file. */
export const adminResources: ResourceDefinition[] = [];
