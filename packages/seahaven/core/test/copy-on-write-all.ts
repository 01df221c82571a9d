/** Imported first by on-copy-on-write.test.ts: every fixture loaded after this opens copy-on-write. */
process.env.SEAHAVEN_COPY_ON_WRITE = 'all';
