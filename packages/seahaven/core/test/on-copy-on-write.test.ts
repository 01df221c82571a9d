/**
 * The kit's tests of equivalence, fork, restart, replay, hibernation, recycled connections and fixtures, unchanged, on
 * copy-on-write fixtures: here every fixture opens as a store on its shared base (`SEAHAVEN_COPY_ON_WRITE=all`, set
 * before they load), where their own runs deserialize the small fixtures they use (the fallback's path).
 */
import './copy-on-write-all.ts';
import { afterAll, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { PageImage, pagesAvailable } from '../cow-pages.ts';
import { loadFixture } from '../fixtures.ts';
// First: it expects no connection a destroyed instance left (idle-connections.ts), as in a process of its own.
import './hibernate-episode.test.ts';
import './restart.test.ts';
import './determinism.test.ts';
import './instance.test.ts';
import './idle-connections.test.ts';
import './fixtures.test.ts';
import './fixture-base.test.ts';
import './compose.test.ts';
import './mounted-fixtures.test.ts';
import './db-limit.test.ts';
import './long-episode.test.ts';

it('runs them copy-on-write where a C compiler builds the extension (CI has one)', () => {
  if (process.env.CI) expect(pagesAvailable()).toBe(true);
  if (pagesAvailable())
    expect(loadFixture(crm, 'small_startup').resetImages.get(null)).toBeInstanceOf(PageImage);
});

afterAll(() => {
  delete process.env.SEAHAVEN_COPY_ON_WRITE;
});
