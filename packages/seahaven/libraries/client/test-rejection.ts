/** For the client's tests: the `ClientError` a promise is refused with (anything else fails the test). */
import { ClientError } from './errors.ts';

export async function rejection(p: Promise<unknown>): Promise<ClientError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ClientError) return e;
    throw e;
  }
  throw new Error('expected the request to be refused');
}
