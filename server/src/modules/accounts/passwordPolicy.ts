import { badInput } from '../../lib/errors';

/**
 * Words and keyboard runs that lead the lists of leaked passwords: a password made of one of them and digits or symbols
 * (`Password123456!`, `qwertyuiop2024`, `P@ssw0rd!!!!`) is among the first any guesser tries.
 */
const COMMON_WORDS = new Set([
  'password',
  'passwort',
  'qwerty',
  'qwertyuiop',
  'qwertyuiopasdfghjkl',
  'asdfghjkl',
  'asdfgh',
  'zxcvbnm',
  'qazwsx',
  'qazwsxedc',
  'abc',
  'abcdef',
  'abcdefgh',
  'abcdefghijkl',
  'letmein',
  'welcome',
  'iloveyou',
  'admin',
  'administrator',
  'root',
  'login',
  'changeme',
  'secret',
  'master',
  'hello',
  'helloworld',
  'football',
  'baseball',
  'soccer',
  'monkey',
  'dragon',
  'sunshine',
  'princess',
  'shadow',
  'superman',
  'batman',
  'starwars',
  'trustno',
  'whatever',
  'freedom',
  'computer',
  'internet',
  'access',
  'loveme',
  'michael',
  'jennifer',
  'charlie',
  'mustang',
  'pokemon',
  'liverpool',
  'chelsea',
  'arsenal',
  'ilovetelegram',
  'telegram',
  'gift',
  'gifts',
  'giftrewards',
  'rewards',
  'crypto',
  'bitcoin',
  'toncoin',
  'correcthorsebatterystaple',
  'onetwothreefourfive',
]);
const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };

/** A password of a common word (or keyboard run) with digits or symbols around it, or of fewer than five different characters. */
function isCommon(password: string): boolean {
  const lower = password.toLowerCase();
  if (new Set(lower).size < 5) return true;
  const letters = lower.replace(/[^a-z]/g, '');
  const unLeet = lower.replace(/[0134571@$]/g, (c) => LEET[c] ?? c).replace(/[^a-z]/g, '');
  // digits alone: a counting run (123456789012) or its reverse
  const digits = lower.replace(/\D/g, '');
  const run = '01234567890123456789';
  const counting = digits.length === lower.length && (run.includes(digits) || run.includes([...digits].reverse().join('')));
  return counting || COMMON_WORDS.has(letters) || COMMON_WORDS.has(unLeet);
}

/**
 * The password policy, wherever a password is set (an account created, a password reset by another operator or changed by its
 * own): at least 12 characters (the shared schema), not containing the username, and not a common password. Passwords set
 * before it still sign in.
 */
export function checkPasswordPolicy(password: string, username: string) {
  if (password.toLowerCase().includes(username.trim().toLowerCase()))
    throw badInput({ password: 'The password must not contain the username' });
  if (isCommon(password)) throw badInput({ password: 'This password is too common or too easy to guess: choose another' });
}
