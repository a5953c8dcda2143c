import request from 'supertest';
import sharp from 'sharp';
import { createApp } from '../../app';
import { CategoryModel } from '../content/content.models';
import { removeUnclaimedProofImages } from '../recovery/recovery.service';
import { MissionModel, UserMissionModel } from '../missions/mission.models';
import { signPlayerToken } from '../users/playerAuth.service';
import { createCoin, createPlayer, playerCaller } from '../../../test/factories';
import { silentLogger, testEnv } from '../../../test/helpers';
import { consoleApi, createOperator } from '../../../test/operators';

const env = testEnv();
const app = createApp({ env, logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

const asPlayer = (player: { id: string }) => `Bearer ${signPlayerToken(player.id, env.JWT_SECRET, new Date())}`;
const upload = (player: { id: string } | null, body: Buffer, type = 'image/png') => {
  const call = request(app).post('/api/proofs').set('Content-Type', type).send(body);
  return player ? call.set('Authorization', asPlayer(player)) : call;
};
const read = (player: { id: string }, imageId: string) =>
  request(app).get(`/api/proofs/${imageId}`).set('Authorization', asPlayer(player)).buffer(true);

/** A phone-sized screenshot, with a camera's metadata the stored copy must not keep. */
function screenshot(width = 1170, height = 2532) {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .withMetadata({ exif: { IFD0: { Make: 'PhoneMaker', Model: 'Secret Phone' } } })
    .png()
    .toBuffer();
}

describe('proof pictures', () => {
  it('stores an upload shrunk to 1600 px as WebP without its metadata, readable by its player and operators only', async () => {
    const [owner, other] = await Promise.all([createPlayer(), createPlayer()]);
    const uploaded = await upload(owner, await screenshot());
    expect(uploaded.status).toBe(201);
    const { imageId } = uploaded.body as { imageId: string };

    const mine = await read(owner, imageId);
    expect([mine.status, mine.get('content-type')]).toEqual([200, 'image/webp']);
    const stored = await sharp(mine.body as Buffer).metadata();
    expect([stored.format, stored.width, stored.height, stored.exif]).toEqual(['webp', 739, 1600, undefined]);

    // another player is told it does not exist, as for an id nobody has
    expect((await read(other, imageId)).status).toBe(404);
    expect((await read(owner, '0123456789abcdef01234567')).status).toBe(404);
    expect((await request(app).get(`/api/proofs/${imageId}`)).status).toBe(401);

    const reviewer = consoleApi(app, (await createOperator(['user-missions:read'])).token);
    const seen = await reviewer.get(`/proofs/${imageId}`).buffer(true);
    expect([seen.status, (seen.body as Buffer).length]).toEqual([200, (mine.body as Buffer).length]);
    const outsider = consoleApi(app, (await createOperator(['coins:read'])).token);
    expect((await outsider.get(`/proofs/${imageId}`)).status).toBe(403);
  });

  it('refuses what is not a picture, an empty body and more than 8 MB, and a frozen player', async () => {
    const player = await createPlayer();
    const text = await upload(player, Buffer.from('<svg onload="alert(1)"></svg>'), 'image/svg+xml');
    expect([text.status, text.body.errors]).toEqual([400, { image: 'Send a JPEG, PNG, WebP or GIF picture' }]);
    const empty = await upload(player, Buffer.alloc(0));
    expect([empty.status, empty.body.errors]).toEqual([400, { image: 'Choose a picture' }]);
    const huge = await upload(player, Buffer.alloc(8 * 1024 * 1024 + 1, 1));
    expect(huge.status).toBe(413);
    expect((await upload(null, await screenshot(10, 10))).status).toBe(401);

    const frozen = await createPlayer({ status: 'frozen', statusReason: 'Under review' });
    const refused = await upload(frozen, await screenshot(10, 10));
    expect([refused.status, refused.body.code]).toEqual([403, 'ACCOUNT_FROZEN']);
  });
});

describe('pictures no claim carries', () => {
  it('are removed a day after their upload, and a picture a claim carries is kept', async () => {
    const [category, coin] = await Promise.all([CategoryModel.create({ title: 'Kept' }), createCoin()]);
    const mission = await MissionModel.create({
      category: category._id,
      coin: coin._id,
      title: 'Show it',
      reward: 1_000_000,
      verifyType: 'manual',
      proof: ['image'],
    });
    const player = await createPlayer();
    const [abandoned, claimed] = await Promise.all([
      upload(player, await screenshot(50, 50)).then((r) => r.body.imageId as string),
      upload(player, await screenshot(60, 60)).then((r) => r.body.imageId as string),
    ]);
    const caller = playerCaller(player);
    await caller.missions.go({ missionId: String(mission._id) });
    await caller.missions.claim({ missionId: String(mission._id), proof: { imageId: claimed } });

    // within the day both stay: an upload comes just before its claim
    await removeUnclaimedProofImages(new Date(Date.now() + 3_600_000));
    expect((await read(player, abandoned)).status).toBe(200);
    await removeUnclaimedProofImages(new Date(Date.now() + 25 * 3_600_000));
    expect([(await read(player, abandoned)).status, (await read(player, claimed)).status]).toEqual([404, 200]);
  });
});

describe('a Manual mission with proof', () => {
  it('takes the claim only with each proof it asks for, shows it to the reviewer, and takes a new one after a rejection', async () => {
    const [category, coin] = await Promise.all([CategoryModel.create({ title: 'Stories' }), createCoin()]);
    const mission = await MissionModel.create({
      category: category._id,
      coin: coin._id,
      title: 'Post a story',
      description: 'Share a story that mentions us',
      link: 'https://t.me/example',
      reward: 5_000_000,
      verifyType: 'manual',
      proof: ['link', 'image'],
    });
    const [player, other] = await Promise.all([createPlayer(), createPlayer()]);
    const missionId = String(mission._id);
    const caller = playerCaller(player);
    await caller.missions.go({ missionId });
    expect((await caller.missions.byCategory({ categoryId: String(category._id) })).missions[0]!.proof).toEqual(['link', 'image']);

    await expect(caller.missions.claim({ missionId, proof: { text: 'done' } })).rejects.toMatchObject({
      cause: { fieldErrors: { 'proof.link': 'Add the link', 'proof.imageId': 'Add a screenshot' } },
    });
    const othersPicture = (await upload(other, await screenshot(300, 300))).body.imageId as string;
    await expect(
      caller.missions.claim({ missionId, proof: { link: 'https://t.me/s/story/1', imageId: othersPicture } }),
    ).rejects.toMatchObject({ cause: { fieldErrors: { 'proof.imageId': 'This picture was not found: add it again' } } });
    await expect(caller.missions.claim({ missionId, proof: { link: 'javascript:alert(1)' } })).rejects.toThrow();
    expect(await UserMissionModel.findOne({ user: player._id, mission: mission._id }, { status: 1 }).lean()).toMatchObject({
      status: 'started',
    });

    const first = (await upload(player, await screenshot(300, 300))).body.imageId as string;
    const claimed = await caller.missions.claim({ missionId, proof: { link: 'https://t.me/s/story/1', imageId: first, text: 'ignored' } });
    expect(claimed.status).toBe('pending');

    const reviewer = consoleApi(app, (await createOperator(['user-missions:write'])).token);
    const [pending] = (await reviewer.get('/user-missions', { filter: { status: 'pending', mission: missionId } })).body as Array<{
      id: string;
      proof: unknown;
    }>;
    // what the mission did not ask for is not kept
    expect(pending!.proof).toEqual({ link: 'https://t.me/s/story/1', text: '', imageId: first });
    expect(
      (await reviewer.put(`/user-missions/${pending!.id}`, { status: 'rejected', rejectReason: 'The story is not public' })).status,
    ).toBe(200);
    expect((await caller.missions.byCategory({ categoryId: String(category._id) })).missions[0]).toMatchObject({
      status: 'rejected',
      rejectReason: 'The story is not public',
    });

    await caller.missions.go({ missionId });
    const second = (await upload(player, await screenshot(300, 300))).body.imageId as string;
    await caller.missions.claim({ missionId, proof: { link: 'https://t.me/s/story/2', imageId: second } });
    const resubmitted = await reviewer.get(`/user-missions/${pending!.id}`);
    expect(resubmitted.body).toMatchObject({ status: 'pending', proof: { link: 'https://t.me/s/story/2', imageId: second } });
    expect((await reviewer.put(`/user-missions/${pending!.id}`, { status: 'done' })).body.status).toBe('done');
  });

  it('keeps proof for a Manual mission only, each kind once', async () => {
    const api = consoleApi(app, (await createOperator(['missions:write'])).token);
    const [category, coin] = await Promise.all([CategoryModel.create({ title: 'Auto' }), createCoin()]);
    const base = { category: String(category._id), coin: String(coin._id), title: 'Tap', reward: '1', verifyType: 'auto' };
    const saved = await api.post('/missions', { ...base, verifyType: 'manual', proof: ['text', 'text', 'link'] });
    expect(saved.body.proof).toEqual(['text', 'link']);
    // turned into an Auto mission, the form still sends the boxes it no longer shows: nothing is asked for any more
    const auto = await api.put(`/missions/${saved.body.id}`, { ...saved.body, verifyType: 'auto' });
    expect([auto.status, auto.body.proof]).toEqual([200, []]);
  });
});
