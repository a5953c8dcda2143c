/** PLACEHOLDER until operator sign-in lands. */
export async function bootstrapSuperAdmin(_username: string, _password: string): Promise<void> {}
