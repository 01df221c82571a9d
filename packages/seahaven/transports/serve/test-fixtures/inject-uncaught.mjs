// Loaded with `node --import` into a `seahaven serve` under test: on SIGUSR2, throw from a timer and leave a promise
// rejected with nobody to catch either, as a bug in a callback would.
process.on('SIGUSR2', () => {
  setTimeout(() => {
    throw new Error('injected failure in a timer');
  }, 0);
  void Promise.reject(new Error('injected unhandled rejection'));
});
