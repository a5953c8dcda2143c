import { addTexts } from '../../lib/translator';

// The currency page’s texts: they load with its code, not with the first screen (as the wallet's do).

const currencyEn = {
  currency: { title: 'Currency', inStakes: '{{amount, amount}} {{symbol}} in stakes', total: 'total {{amount, amount}} {{symbol}}' },
};

const currencyFa: typeof currencyEn = {
  currency: {
    title: 'ارزها',
    inStakes: '\u2066{{amount, amount}} {{symbol}}\u2069 در استیک',
    total: 'مجموع \u2066{{amount, amount}} {{symbol}}\u2069',
  },
};

addTexts('en', currencyEn);
addTexts('fa', currencyFa);
