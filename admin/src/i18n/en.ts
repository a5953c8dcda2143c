import englishMessages from 'ra-language-english';
import type { TranslationMessages } from 'react-admin';

/** Console labels: the spec's menu words, field names in the product's words (resources.<name>.fields.<field>). */
const domain = {
  menu: {
    dashboard: 'Dashboard',
    withdraws: 'Withdraws',
    withdrawsDone: 'Done withdraws',
    appConfig: 'App Config',
    logout: 'Logout',
  },
  dashboard: {
    title: 'Dashboard',
    players: 'Players',
    newToday: 'New today',
    missionsDone: 'Missions done today',
    pendingReviews: 'Missions to review',
    pendingWithdraws: 'Pending withdraws',
  },
  withdraws: { pendingTitle: 'Pending withdraws', doneTitle: 'Done withdraws' },
  resources: {
    users: {
      name: 'User |||| Users',
      fields: {
        telegramId: 'Telegram id', name: 'Name', username: 'Username', language: 'Language',
        messagePermission: 'Message permission', isPremium: 'Premium', referrer: 'Referrer',
        inviteLimit: 'Invite limit', referrersCount: 'Referrers count', missionsCount: 'Missions count',
        doneMissionsCount: 'Done missions count', rewards: 'Rewards', earned: 'Earned', withdrawn: 'Withdrawn',
        gifts: 'Gifts', blocked: 'Blocked', isDemo: 'Demo', lastSeenAt: 'Last seen', createdAt: 'Created',
      },
    },
    'user-missions': {
      name: 'User Mission |||| User Missions',
      fields: {
        user: 'User', mission: 'Mission', category: 'Category', status: 'Status', reward: 'Reward', coin: 'Coin', reviewedBy: 'Reviewed by',
        startedAt: 'Started', claimedAt: 'Claimed', doneAt: 'Done', rejectReason: 'Reject reason', createdAt: 'Created',
      },
    },
    missions: {
      name: 'Mission |||| Missions',
      fields: {
        category: 'Category', title: 'Title', description: 'Description', link: 'Link', image: 'Image',
        reward: 'Reward amount', coin: 'Coin', verifyType: 'Verify type', verifyDuration: 'Verify duration (minutes)',
        claimButton: 'Claim button', goButton: 'Go button', secretCode: 'Secret code', order: 'Order',
        enabled: 'Enabled', mustDone: 'Must done ⭐', createdAt: 'Created',
      },
    },
    categories: {
      name: 'Category |||| Categories',
      fields: { title: 'Title', description: 'Description', image: 'Image', order: 'Order', enabled: 'Enabled', createdAt: 'Created' },
    },
    covers: {
      name: 'Cover |||| Covers',
      fields: { title: 'Title', image: 'Image', link: 'Link', order: 'Order', enabled: 'Enabled', createdAt: 'Created' },
    },
    partners: {
      name: 'Partner |||| Partners',
      fields: { name: 'Name', image: 'Image', link: 'Link', order: 'Order', enabled: 'Enabled', createdAt: 'Created' },
    },
    'gift-coins': {
      name: 'Gift Coin |||| Gift Coins',
      fields: {
        name: 'Name', symbol: 'Symbol', icon: 'Icon', decimals: 'Decimals', usdPrice: 'USD price',
        minWithdraw: 'Minimum withdraw', withdrawEnabled: 'Withdrawals enabled', network: 'Network',
        jettonMaster: 'Jetton master address', enabled: 'Enabled', order: 'Order', createdAt: 'Created',
      },
    },
    'staking-coins': {
      name: 'Staking Coin |||| Staking Coins',
      fields: {
        coin: 'Coin', enabled: 'Enabled', minAmount: 'Minimum amount', maxAmount: 'Maximum amount',
        'profits.week': 'Profit % — 1 week', 'profits.month': 'Profit % — 1 month',
        'profits.threeMonths': 'Profit % — 3 months', 'profits.sixMonths': 'Profit % — 6 months',
        'profits.year': 'Profit % — 1 year', order: 'Order', createdAt: 'Created',
      },
    },
    withdraws: {
      name: 'Withdraw |||| Withdraws',
      fields: {
        user: 'User', coin: 'Token', amount: 'Withdraw amount', address: 'Wallet address', status: 'Status',
        txHash: 'Transaction hash', rejectReason: 'Reject reason', processedAt: 'Processed', processedBy: 'Processed by', createdAt: 'Created',
      },
    },
    accounts: {
      name: 'Account |||| Accounts',
      fields: {
        username: 'Username', password: 'Password', permissions: 'Permissions', enabled: 'Enabled',
        lastLoginAt: 'Last login', createdAt: 'Created',
      },
    },
    audit: {
      name: 'Audit |||| Audit',
      fields: { createdAt: 'When', username: 'Operator', action: 'Action', resource: 'Resource', record: 'Record', note: 'Note' },
    },
    'ledger-entries': {
      name: 'Ledger entry |||| Ledger',
      fields: { createdAt: 'When', amount: 'Amount', coin: 'Coin', reason: 'Reason', note: 'Note', operator: 'Operator', idempotencyKey: 'Key' },
    },
    stakes: {
      name: 'Stake |||| Stakes',
      fields: { user: 'Player', amount: 'Amount', coin: 'Coin', duration: 'Duration', profitPercent: 'Profit %', profit: 'Profit', startedAt: 'Started', unlocksAt: 'Unlocks', claimedAt: 'Claimed', idempotencyKey: 'Key' },
    },
    'mining-sessions': {
      name: 'Mining session |||| Mining sessions',
      fields: { user: 'Player', amount: 'Amount', coin: 'Coin', startedAt: 'Started', endsAt: 'Ends', movedAt: 'Moved to wallet' },
    },
    'app-config': {
      name: 'App Config',
      fields: {
        botToken: 'Bot token', botUsername: 'Bot username', miniAppName: 'Mini app short name',
        referrerMessage: 'Referrer message', referrerCoin: 'Referrer coin', referrerCoinAmount: 'Referrer coin amount',
        defaultInviteLimit: 'Default invite limit', miningCoin: 'Mining coin', earnDurationHours: 'Earn duration (hours)',
        earnAmount: 'Earn amount', tonProofDomains: 'TON Connect domains', allowTestnetWallets: 'Allow testnet wallets',
      },
    },
  },
};

export const englishConsoleMessages: TranslationMessages = {
  ...englishMessages,
  ra: {
    ...englishMessages.ra,
    notification: {
      ...englishMessages.ra.notification,
      // spec §8: 'Saved' / 'Save failed'
      updated: 'Saved |||| Saved',
      created: 'Saved',
    },
  },
  ...domain,
};
