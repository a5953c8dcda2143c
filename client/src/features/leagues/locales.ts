import { addTexts } from '../../lib/translator';

// The leagues page's texts: they load with its code, not with the first screen (as the wallet's do). What home's league
// card shows (the leagues' names, the rank) stays with the app's texts.

const leaguesEn = {
  leagues: {
    title: 'Leagues',
    earned: 'Earned this week: {{amount}} {{symbol}}',
    endsIn: 'The week ends in {{time}}',
    rules: 'The top of each league moves up a league at the week’s end, the bottom moves down.',
    top: 'Top of the league',
    around: 'Players around you',
    friends: 'Friends this week',
    empty: 'No one has earned in this league this week yet.',
    you: 'You',
    player: 'A player',
    inviter: '{{name}} (invited you)',
  },
};

const leaguesFa: typeof leaguesEn = {
  leagues: {
    title: 'لیگ‌ها',
    earned: 'درآمد این هفته: {{amount}} {{symbol}}',
    endsIn: 'پایان هفته تا {{time}}',
    rules: 'در پایان هفته، بالای هر لیگ یک لیگ بالا می‌رود و پایین آن یک لیگ پایین.',
    top: 'بالای لیگ',
    around: 'بازیکنان نزدیک شما',
    friends: 'دوستان در این هفته',
    empty: 'هنوز کسی در این لیگ این هفته کسب نکرده است.',
    you: 'شما',
    player: 'یک بازیکن',
    inviter: '{{name}} (دعوت‌کنندهٔ شما)',
  },
};

addTexts('en', leaguesEn);
addTexts('fa', leaguesFa);
