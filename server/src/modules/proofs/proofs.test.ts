import request from 'supertest';
import sharp from 'sharp';
import { createApp } from '../../app';
import { CategoryModel } from '../content/content.models';
import { removeUnclaimedProofImages } from '../missions/missions.jobs';
import { MissionModel, UserMissionModel } from '../missions/mission.models';
import { signPlayerToken } from '../users/playerAuth.service';
import { createCoin, createPlayer, playerCaller } from '../../../test/factories';
import { silentLogger, testEnv } from '../../../test/helpers';
import { consoleApi, createOperator } from '../../../test/operators';
import { RateLimitCounterModel } from '../rateLimits/rateLimit.model';
import { UserModel } from '../users/user.model';
import { MAX_INPUT_PIXELS, onProofTurn, proofProcessing } from './proofs.service';
import { PROOF_BYTES_PER_DAY, PROOF_UPLOADS_PER_DAY } from './proofs.rest';

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

/** A Manual mission that asks for a screenshot (or for `proof`), started by each of these players: their uploads have a use. */
async function startedImageMission(
  players: Array<Parameters<typeof playerCaller>[0]>,
  proof: Array<'link' | 'text' | 'image'> = ['image'],
) {
  const [category, coin] = await Promise.all([CategoryModel.create({ title: 'Proof' }), createCoin()]);
  const mission = await MissionModel.create({
    category: category._id,
    coin: coin._id,
    title: 'Show it',
    reward: 1_000_000,
    verifyType: 'manual',
    proof,
  });
  for (const player of players) await playerCaller(player).missions.go({ missionId: String(mission._id) });
  return mission;
}

// each test counts its own uploads
afterEach(() => RateLimitCounterModel.deleteMany({}));

describe('proof pictures', () => {
  it('stores an upload shrunk to 1600 px as WebP without its metadata, readable by its player and operators only', async () => {
    const [owner, other] = await Promise.all([createPlayer(), createPlayer()]);
    await startedImageMission([owner]);
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
    await startedImageMission([player]);
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
    const player = await createPlayer();
    const mission = await startedImageMission([player]);
    const caller = playerCaller(player);
    const [abandoned, claimed] = await Promise.all([
      upload(player, await screenshot(50, 50)).then((r) => r.body.imageId as string),
      upload(player, await screenshot(60, 60)).then((r) => r.body.imageId as string),
    ]);
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
    await playerCaller(other).missions.go({ missionId });
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

describe('the attacks on uploads (findings 13 and 15), each refused', () => {
  it('refuses an upload with no started claim of a Manual mission that asks for a picture, and stores nothing', async () => {
    const player = await createPlayer();
    const stored = async () => await UserModel.db.collection('proofs.files').countDocuments({ 'metadata.user': player._id });
    const none = await upload(player, await screenshot(40, 40));
    expect([none.status, none.body.code]).toEqual([409, 'MISSION_NOT_STARTED']);
    // a started Manual mission that asks for a link only has no use for a picture
    await startedImageMission([player], ['link']);
    expect((await upload(player, await screenshot(40, 40))).status).toBe(409);
    expect(await stored()).toBe(0);
    // with a claim that asks for one, the same upload is taken; once claimed (waiting for review), no more
    const mission = await startedImageMission([player]);
    const taken = await upload(player, await screenshot(40, 40));
    expect(taken.status).toBe(201);
    await playerCaller(player).missions.claim({ missionId: String(mission._id), proof: { imageId: taken.body.imageId } });
    expect((await upload(player, await screenshot(40, 40))).status).toBe(409);
    expect(await stored()).toBe(1);
  });

  it(`keeps each player to ${PROOF_UPLOADS_PER_DAY.limit} pictures and 40 MB a day, with a message saying so`, async () => {
    const [player, neighbour] = await Promise.all([createPlayer(), createPlayer()]);
    await startedImageMission([player, neighbour]);
    const small = await screenshot(20, 20);
    for (let i = 0; i < PROOF_UPLOADS_PER_DAY.limit; i++) expect((await upload(player, small)).status).toBe(201);
    const over = await upload(player, small);
    expect([over.status, over.body.code, over.body.message]).toEqual([
      429,
      'RATE_LIMITED',
      'At most 20 pictures (40 MB) a day: send more tomorrow',
    ]);
    expect(Number(over.get('retry-after'))).toBeGreaterThan(0);
    expect(await UserModel.db.collection('proofs.files').countDocuments({ 'metadata.user': player._id })).toBe(20);

    // bytes: 7 MB bodies (what is not a picture is counted as sent too); the sixth would pass 40 MB and is refused unread
    const sevenMegabytes = Buffer.alloc(7 * 1024 * 1024, 7);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await upload(neighbour, sevenMegabytes)).status);
    expect(answers).toEqual([400, 400, 400, 400, 400, 429]);
    expect(PROOF_BYTES_PER_DAY.limit).toBe(40 * 1024 * 1024);
    // and the next day's quota is whole again
    await RateLimitCounterModel.deleteMany({});
    expect((await upload(neighbour, small)).status).toBe(201);
  });

  it('refuses a picture of more than 16 megapixels from its header, before decoding it', async () => {
    const player = await createPlayer();
    await startedImageMission([player]);
    // 40 megapixels of one colour: a small file, a huge decode
    const huge = await sharp({ create: { width: 8000, height: 5000, channels: 3, background: { r: 0, g: 0, b: 0 } } })
      .png()
      .toBuffer();
    expect(huge.length).toBeLessThan(8 * 1024 * 1024);
    expect(MAX_INPUT_PIXELS).toBe(16_000_000);
    const refused = await upload(player, huge);
    expect([refused.status, refused.body.errors]).toEqual([400, { image: 'The picture is larger than 16 megapixels: send a screenshot' }]);
    expect(await UserModel.db.collection('proofs.files').countDocuments({ 'metadata.user': player._id })).toBe(0);
  });

  it('processes concurrent uploads one at a time, in turn, while the server answers /healthz', async () => {
    const players = await Promise.all([createPlayer(), createPlayer(), createPlayer(), createPlayer()]);
    await startedImageMission(players);
    const picture = await screenshot(400, 400);
    // the first picture's turn is held open until the test releases it
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let turns = 0;
    onProofTurn(async () => {
      if (++turns === 1) await held;
    });
    proofProcessing.mostActive = 0;
    try {
      const first = upload(players[0], picture).then((r) => r.status);
      await until(() => proofProcessing.active === 1);
      const rest = players.slice(1).map((player) => upload(player, picture).then((r) => r.status));
      await until(() => proofProcessing.waitingCount === 3);
      // three wait their turn, one is processed, and the server answers everything else meanwhile
      expect([proofProcessing.active, proofProcessing.waitingCount, turns]).toEqual([1, 3, 1]);
      expect((await request(app).get('/healthz')).status).toBe(200);
      release();
      expect(await Promise.all([first, ...rest])).toEqual([201, 201, 201, 201]);
      expect([turns, proofProcessing.mostActive, proofProcessing.active, proofProcessing.waitingCount]).toEqual([4, 1, 0, 0]);
    } finally {
      onProofTurn(null);
      release();
    }
  });

  it('lets a banned player read nothing, their own picture included (finding 15)', async () => {
    const player = await createPlayer();
    await startedImageMission([player]);
    const { imageId } = (await upload(player, await screenshot(30, 30))).body as { imageId: string };
    expect((await read(player, imageId)).status).toBe(200);
    await UserModel.updateOne({ _id: player._id }, { $set: { status: 'banned', statusReason: 'Farm' } });
    const refused = await read(player, imageId);
    expect([refused.status, refused.body.code]).toEqual([403, 'ACCOUNT_BANNED']);
    // a malformed id is the caller's mistake, never a query
    expect((await read(await createPlayer(), 'not-an-id')).status).toBe(400);
  });
});

/** Waits until `condition` holds (what the server's other requests are doing is not timed: only awaited). */
async function until(condition: () => boolean) {
  for (let i = 0; i < 2000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}
