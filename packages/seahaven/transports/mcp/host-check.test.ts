import { describe, expect, it } from 'vitest';
import { createHostCheck } from './host-check.ts';

const req = (host: string | null, origin?: string) => {
  const headers = new Headers();
  if (host !== null) headers.set('host', host);
  if (origin !== undefined) headers.set('origin', origin);
  return new Request('http://fallback.example/mcp', { headers });
};

describe('createHostCheck', () => {
  it('allows the loopback names on any port by default', () => {
    const check = createHostCheck();
    for (const host of [
      'localhost',
      'localhost:8000',
      '127.0.0.1:8000',
      '[::1]:8000',
      '[::1]',
      'LOCALHOST:1',
    ])
      expect(check(req(host))).toBeUndefined();
    for (const host of [
      'evil.example',
      '127.0.0.1.evil.example',
      'localhost.evil.example:8000',
      '[::2]:8000',
    ])
      expect(check(req(host))?.status).toBe(403);
  });

  it('falls back to the URL host when no Host header was sent', () => {
    expect(createHostCheck()(req(null))?.status).toBe(403);
    expect(createHostCheck({ allowedHosts: ['fallback.example'] })(req(null))).toBeUndefined();
  });

  it('checks Origin against the allowed hosts and the allowed origins', () => {
    const check = createHostCheck({ allowedOrigins: ['https://studio.example.com'] });
    expect(check(req('localhost:8000', 'http://localhost:6274'))).toBeUndefined();
    expect(check(req('localhost:8000', 'https://studio.example.com'))).toBeUndefined();
    expect(check(req('localhost:8000', 'https://evil.example'))?.status).toBe(403);
    expect(check(req('localhost:8000', 'null'))?.status).toBe(403);
    expect(check(req('localhost:8000', 'file://localhost'))?.status).toBe(403);
  });

  it('takes host:port entries and wildcards', () => {
    const pinned = createHostCheck({ allowedHosts: ['space.example:443'] });
    expect(pinned(req('space.example:443'))).toBeUndefined();
    expect(pinned(req('space.example:8443'))?.status).toBe(403);
    const open = createHostCheck({ allowedHosts: ['*'], allowedOrigins: ['*'] });
    expect(open(req('anything.example', 'https://elsewhere.example'))).toBeUndefined();
  });
});
