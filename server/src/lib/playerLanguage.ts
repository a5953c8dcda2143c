/**
 * The text a player reads of one an operator wrote in English and, optionally, Persian (`fa`): the Persian for a Persian
 * player when it is written, the English otherwise.
 */
export function textFor(language: string | undefined) {
  const persian = language === 'fa';
  return (english: string | null | undefined, fa: string | null | undefined): string => (persian && fa?.trim() ? fa : english) ?? '';
}
