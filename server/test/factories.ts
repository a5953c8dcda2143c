import { randomBytes } from 'node:crypto';
import { Address } from '@ton/core';
import { Types } from 'mongoose';
import { toMicros } from '@gift/shared';
import { GiftCoinModel } from '../src/modules/coins/giftCoin.model';
import { AppConfigModel } from '../src/modules/config/appConfig.model';
import { CategoryModel } from '../src/modules/content/content.models';
import { MissionModel } from '../src/modules/missions/mission.models';
import { postEntry } from '../src/modules/ledger/ledger.service';
import { UserModel, type UserDocument } from '../src/modules/users/user.model';
import { WalletLinkModel } from '../src/modules/wallet/wallet.models';
import { createContextInner } from '../src/http/context';
import { createCaller } from '../src/trpc/root';
import { testEnv } from './helpers';

let telegramIds = 1_000_000;

/** A player as a first Telegram launch would create them. */
export async function createPlayer(fields: Record<string, unknown> = {}): Promise<UserDocument> {
  const telegramId = ++telegramIds;
  return UserModel.create({
    telegramId,
    firstName: 'Test',
    name: `Test Player ${telegramId}`,
    username: `player${telegramId}`,
    usernameLower: `player${telegramId}`,
    referralCode: randomBytes(5).toString('hex'),
    ...fields,
  });
}

export async function createCoin(fields: Record<string, unknown> = {}) {
  const symbol = `C${randomBytes(2).toString('hex').toUpperCase()}`;
  return GiftCoinModel.create({
    name: `Coin ${symbol}`,
    symbol,
    decimals: 9,
    minWithdraw: '1',
    withdrawEnabled: true,
    network: 'ton',
    ...fields,
  });
}

/**
 * Mining pays `session` coins a session in a fresh coin whose gift threshold is 1,000: what a Stars shop offer's brake weighs
 * its terms in (shop/shopBrakes.service.ts).
 */
export async function mineInFreshCoin(session = '10') {
  const coin = await createCoin({ giftApprovalAbove: Number(toMicros('1000')) });
  await AppConfigModel.updateOne(
    { key: 'app' },
    { $set: { miningCoin: coin._id, earnAmount: Number(toMicros(session)), earnDurationHours: 8 } },
    { upsert: true },
  );
  return coin;
}

/** Credits a player through the ledger, as any real credit would. */
export async function fund(userId: Types.ObjectId | string, coinId: Types.ObjectId | string, amount: string) {
  return postEntry({
    userId,
    coinId,
    amount: toMicros(amount),
    reason: 'gift',
    idempotencyKey: `test-fund:${randomBytes(8).toString('hex')}`,
  });
}

/** A Manual mission paying `reward` micro-units of `coin`, in a category of its own, with its category. */
export async function createManualMission(coin: { _id: Types.ObjectId }, reward = 1_000_000, title = 'Manual') {
  const category = await CategoryModel.create({ title });
  const mission = await MissionModel.create({ category: category._id, coin: coin._id, title, reward, verifyType: 'manual' });
  return { category, mission };
}

/** A fresh basechain address nobody holds the keys of: a player's wallet that only ever receives. */
export const randomAddress = () => Address.parseRaw(`0:${randomBytes(32).toString('hex')}`);

/** A player with a fresh wallet and `balance` of `coin`, who asked to withdraw `amount` of it. */
export async function withdrawalOf<Coin extends { _id: Types.ObjectId; id: string }>(coin: Coin, amount: string, balance = '1000') {
  const user = await createPlayer({ username: `p${randomBytes(4).toString('hex')}` });
  const { entryId } = await fund(user._id, coin._id, balance);
  const address = randomAddress();
  await WalletLinkModel.create({ address: address.toRawString(), user: user._id, network: '-239' });
  const withdrawal = await playerCaller(user).withdrawals.request({
    coinId: coin.id,
    amount,
    idempotencyKey: `tap-${randomBytes(6).toString('hex')}`,
  });
  return { user, coin, withdrawal, address, entryId };
}

/** A tRPC caller signed in as this player, with an optional fixed clock. */
export function playerCaller(user: UserDocument | null, options: { now?: () => Date; env?: ReturnType<typeof testEnv> } = {}) {
  return createCaller(createContextInner({ env: options.env ?? testEnv(), user, now: options.now ?? (() => new Date()) }));
}
