// The container's health check (Docker HEALTHCHECK, Kubernetes probes): GET /health on this container's port, with
// the server's token when it has one (SEAHAVEN_TOKEN). Exits 0 when it answers {"status":"healthy"}, else 1.
const port = process.env.PORT || '8000';
const headers = {};
if (process.env.SEAHAVEN_TOKEN) headers.authorization = `Bearer ${process.env.SEAHAVEN_TOKEN}`;
try {
  const res = await fetch(`http://127.0.0.1:${port}/health`, {
    headers,
    signal: AbortSignal.timeout(4000),
  });
  const body = await res.json();
  process.exit(res.ok && body.status === 'healthy' ? 0 : 1);
} catch (e) {
  console.error(`health check: ${e.message}`);
  process.exit(1);
}
