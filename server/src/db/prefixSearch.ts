/**
 * A search an index can serve: the text typed, escaped, anchored at the start and case-sensitive. A field stored
 * lower-cased (`usernameLower`, a player's `nameWords`) is searched with the text lower-cased, so the search ignores case
 * through the field, not through a case-insensitive regex (which no index serves). A leading '@' of a username
 * is dropped.
 */
export function prefixPattern(text: string, field: string): RegExp {
  const typed = field === 'usernameLower' ? text.replace(/^@/, '') : text;
  const wanted = /(Lower|Words)$/.test(field) ? typed.toLowerCase() : typed;
  return new RegExp(`^${escapeRegex(wanted)}`);
}

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
