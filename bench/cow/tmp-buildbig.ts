import { stripe } from '@seahaven/stripe';
import { loadFixture } from 'seahaven/internal/core/fixtures';
const t = performance.now();
process.env.SEAHAVEN_COPY_ON_WRITE = 'off';
loadFixture(stripe, 'big_co');
console.log('built', ((performance.now() - t) / 1000).toFixed(0), 's');
