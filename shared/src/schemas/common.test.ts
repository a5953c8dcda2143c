import { imageUrl, optionalImage } from './common';

describe('image fields', () => {
  it('take an http(s) URL or a path on this site', () => {
    for (const ok of ['https://cdn.example.com/banner.png', 'http://example.com/a.jpg', '/demo/cover-welcome.svg']) {
      expect(imageUrl.safeParse(ok).success).toBe(true);
    }
    expect(optionalImage.safeParse('').success).toBe(true);
  });

  it('refuse protocol-relative, script and other-scheme addresses with a clear message', () => {
    for (const bad of ['//evil.example/x.png', 'javascript:alert(1)', 'ftp://example.com/a.png', 'demo/x.svg', '/demo/<x>.svg']) {
      const result = imageUrl.safeParse(bad);
      expect(result.success).toBe(false);
    }
    const message = imageUrl
      .safeParse('demo/x.svg')
      .error?.issues.map((i) => i.message)
      .join(' ');
    expect(message).toContain('path on this site');
  });
});
