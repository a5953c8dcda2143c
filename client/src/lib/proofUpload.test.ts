import { UploadError, uploadProofImage } from './proofUpload';

jest.mock('./trpc', () => ({ playerCredential: () => ({ authorization: 'tma test' }) }));

/** The server's refusals of an upload (issue 32, finding 13), each told to the player as what it is. */
describe('a refused proof upload', () => {
  const realFetch = global.fetch;
  afterEach(() => {
    global.fetch = realFetch;
  });
  const answering = (status: number, body: object) => {
    global.fetch = jest.fn(async () => new Response(JSON.stringify(body), { status })) as typeof fetch;
  };
  const reasonOf = async () => {
    try {
      await uploadProofImage(new Blob([new Uint8Array(10)], { type: 'image/png' }));
    } catch (error) {
      return (error as UploadError).reason;
    }
    return 'sent';
  };

  it.each([
    [409, 'notStarted', { code: 'MISSION_NOT_STARTED' }],
    [429, 'quota', { code: 'RATE_LIMITED', message: 'At most 20 pictures (40 MB) a day: send more tomorrow' }],
    [400, 'tooManyPixels', { errors: { image: 'The picture is larger than 16 megapixels: send a screenshot' } }],
    [400, 'notPicture', { errors: { image: 'Send a JPEG, PNG, WebP or GIF picture' } }],
    [413, 'tooLarge', {}],
    [503, 'failed', {}],
  ])('tells an answer %i as %s', async (status, reason, body) => {
    answering(status, body);
    expect(await reasonOf()).toBe(reason);
  });
});
