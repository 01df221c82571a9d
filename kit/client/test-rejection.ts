/** For the client's tests: the `SeahavenError` a promise is refused with (anything else fails the test). */
import { SeahavenError } from './errors.ts';

export async function rejection(p: Promise<unknown>): Promise<SeahavenError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof SeahavenError) return e;
    throw e;
  }
  throw new Error('expected the request to be refused');
}
