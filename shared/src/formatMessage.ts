// Apart from the messages, so the player app's first screen loads neither language's error messages to fill them.

/** Fills '{name}' placeholders of a message. */
export function formatMessage(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in params ? String(params[key]) : whole));
}
