import { describe, expect, it } from 'vitest';
import { stripe } from '../index.ts';

const headers = {
  authorization: 'Bearer sk_test_wire',
  'content-type': 'application/x-www-form-urlencoded',
};

describe('the HTTP face writes replies as api.stripe.com does', () => {
  it('indents JSON with two spaces and ends it with a newline, errors included', () => {
    const inst = stripe.instance({ fixture: 'empty' });
    try {
      const ok = inst.request({
        method: 'POST',
        path: '/customers',
        query: '',
        headers,
        body: 'name=a',
      });
      expect(ok.status).toBe(200);
      expect(ok.headers?.['Content-Type']).toBe('application/json');
      const text = ok.body as string;
      expect(text).toBe(JSON.stringify(JSON.parse(text), null, 2) + '\n');
      expect(text.startsWith('{\n  "id": "cus_')).toBe(true);
      const missing = inst.request({
        method: 'GET',
        path: '/customers/cus_none',
        query: '',
        headers,
        body: '',
      });
      expect(missing.status).toBe(404);
      expect(missing.body).toBe(JSON.stringify(JSON.parse(missing.body as string), null, 2) + '\n');
    } finally {
      inst.destroy();
    }
  });

  it('answers an empty id (a trailing slash) with 404 instead of creating or listing', () => {
    const inst = stripe.instance({ fixture: 'empty' });
    try {
      for (const [method, path] of [
        ['POST', '/subscriptions/'],
        ['POST', '/customers/'],
        ['GET', '/customers/'],
        ['POST', '/charges//capture'],
        ['POST', '/payment_methods//attach'],
      ]) {
        const reply = inst.request({ method, path, query: '', headers, body: 'customer=cus_x' });
        expect(reply.status, `${method} ${path}`).toBe(404);
        expect(JSON.parse(reply.body as string).error.message).toBe(
          `Unrecognized request URL (${method}: /v1${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
        );
      }
      expect(inst.callCount).toBe(0);
    } finally {
      inst.destroy();
    }
  });
});
