import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * A console form checks its values with the shared zod schema the server parses them with, so both give the same
 * messages on the same (nested) fields. The raw values are submitted: the server applies the schema's defaults.
 */
export function schemaResolver(schema: z.ZodType): Resolver<FieldValues> {
  return zodResolver(schema as never, undefined, { raw: true }) as unknown as Resolver<FieldValues>;
}
