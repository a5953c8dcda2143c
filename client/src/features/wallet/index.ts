// One chunk for both wallet screens: TON Connect loads once, with whichever the player opens first
export { MyWalletsPage } from './MyWalletsPage';
export { WithdrawPage } from './WithdrawPage';
