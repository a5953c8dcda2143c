/**
 * Payouts on TON, as the rest of the product reaches them: an operator's decision on a withdrawal
 * (payoutDecisions.ts), the hot wallet's sender (payoutSender.ts), the treasury (treasury.ts), and where the chain
 * is (chainPayments.ts).
 */
export { decideWithdrawal } from './payoutDecisions';
export { payoutKinds, runPayoutRound } from './payoutSender';
export { hotWalletHoldings, lastKnownHotWalletBalances, setPayoutsPaused, treasury } from './treasury';
export { configurePayouts } from './chainPayments';
