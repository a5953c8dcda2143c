import { ERROR_MESSAGES, type ErrorCode } from '@gift/shared/errors';

/** English: the spec's words. Every key here must exist in fa.ts (its type checks that). */
export const en = {
  nav: { tasks: 'Tasks', staking: 'Staking', currency: 'Currency', profile: 'Profile' },
  common: {
    comingSoon: 'Coming soon...',
    loading: 'Loading…',
    retry: 'Retry',
    back: 'Back',
    saved: 'Saved',
    saveFailed: 'Save failed',
    demo: 'Demo player',
    demoHint: 'Development mode: you are using the demo player, not a Telegram account.',
  },
  errors: { ...ERROR_MESSAGES } as Record<ErrorCode, string>,
  notFound: { title: 'Page Not Found', text: 'There is nothing at this address.', home: 'Back to tasks' },
  fatal: { title: 'Internal Server Error', text: 'Something went wrong. Please try again.' },
  home: {
    title: 'Tasks',
    hello: 'Hi, {{name}}',
    starMissions: '⭐ Do these first',
    categories: 'Categories',
    missions: '{{done}} / {{total}} done',
    noCategories: 'No missions yet. Check back soon.',
    partners: 'Partners',
  },
  categories: {
    title: 'Categories',
    missions: 'Missions',
    noMissions: 'No missions here yet.',
    status: { not_started: 'Not Done', started: 'Started', pending: 'Waiting for review', done: 'Done', rejected: 'Rejected' },
  },
  staking: { title: 'Staking' },
  currency: { title: 'Currency' },
  profile: {
    title: 'Profile',
    settings: 'Settings',
    withdraw: 'Withdraw',
    myWallets: 'My wallets',
    inviteFriend: 'Invite a friend',
    figures: {
      rewards: 'Rewards',
      earned: 'Earned',
      withdrawn: 'Withdrawn',
      gifts: 'Gifts',
      missionsCount: 'Missions',
      doneMissionsCount: 'Done missions',
      referrersCount: 'Referrers',
    },
    signOut: 'Sign out',
  },
  settings: {
    title: 'Settings',
    language: 'Language',
    theme: 'Theme',
    themes: { dark: 'Dark', light: 'Light', system: 'System' },
    languages: { en: 'English', fa: 'فارسی' },
  },
  signIn: {
    title: 'Sign in',
    intro: 'Open the app from Telegram, or sign in with your Telegram username: our bot sends you a 6-digit code.',
    username: 'Telegram username',
    sendCode: 'Send code',
    codeSent: 'We sent a code to @{{username}} in Telegram.',
    code: 'Code',
    verify: 'Sign in',
    changeUsername: 'Use another username',
  },
};

/** Another language may lack an error code added later: i18next falls back to English for it. */
export type Translation = Omit<typeof en, 'errors'> & { errors: Partial<Record<ErrorCode, string>> };
