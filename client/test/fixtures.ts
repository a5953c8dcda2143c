import type { OutputOf } from './fakeTrpcServer';

/** What the real server answers for a demo player, typed by the router so a changed answer fails typecheck. */
export const DEMO_PLAYER: OutputOf<'user.me'> = {
  id: '65f000000000000000000001',
  telegramId: 0,
  name: 'Demo Player',
  username: 'demo_player',
  language: 'en',
  theme: 'dark',
  messagePermission: false,
  isPremium: false,
  photoUrl: '',
  isDemo: true,
  referralCode: 'DEMO42',
  inviteLimit: 100,
  referrersCount: 4,
  missionsCount: 9,
  doneMissionsCount: 7,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  status: 'active',
  statusReason: '',
  coins: [
    {
      coinId: 'c1',
      symbol: 'GIFT',
      name: 'Gift Coin',
      icon: '',
      balance: '1250.5',
      rewards: '1000',
      earned: '250.5',
      withdrawn: '0',
      pendingWithdrawals: '0',
      gifts: '0',
    },
  ],
};

/** A ⭐ Auto mission of 'Get started' the player has not started, as the server lists it. */
export const STAR_MISSION: OutputOf<'missions.byCategory'>['missions'][number] = {
  id: '65f0000000000000000000a1',
  categoryId: '65f0000000000000000000c1',
  title: 'Read how Gift Rewards works',
  description: '',
  link: '',
  image: '',
  reward: '150',
  coin: { id: 'c1', symbol: 'GIFT' },
  verifyType: 'auto',
  verifyDuration: 0,
  claimButton: '',
  goButton: '',
  mustDone: true,
  status: 'not_started',
  claimableAt: null,
  rejectReason: '',
  endsAt: null,
  repeat: 'none',
  full: false,
  proof: [],
  emojiId: '',
  story: null,
};

export const HOME: OutputOf<'home.get'> = {
  covers: [],
  partners: [],
  categories: [
    { id: '65f0000000000000000000c1', title: 'Get started', description: '', image: '', missionsTotal: 3, missionsDone: 1 },
    { id: '65f0000000000000000000c2', title: 'Social', description: '', image: '', missionsTotal: 2, missionsDone: 0 },
  ],
  starMissions: [STAR_MISSION],
  daily: [],
  streak: { days: 0, doneToday: false, next: null },
};

export const CURRENCY: OutputOf<'home.currency'> = [
  {
    id: 'c0',
    name: 'Toncoin',
    symbol: 'TON',
    icon: '',
    decimals: 9,
    usdPrice: '3.25',
    balance: '2',
    staked: '0',
    total: '2',
    value: '6.50',
  },
  {
    id: 'c2',
    name: 'Star Points',
    symbol: 'STAR',
    icon: '',
    decimals: 9,
    usdPrice: null,
    balance: '0',
    staked: '0',
    total: '0',
    value: null,
  },
];
