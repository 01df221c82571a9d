# Seahaven: serves a world over OpenEnv (WebSocket /ws, HTTP), MCP and the console on port 8000.
#   docker build -t seahaven .
#   docker run -p 8000:8000 seahaven                    # crm; `docker run … seahaven stripe` for another world
# docs/deploy.md ("Containers") lists the settings; deploy/kubernetes/ runs it on Kubernetes.

# Build: the runtime dependencies only, with better-sqlite3 compiled where no prebuilt binary fits.
FROM node:20-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# The workspace's manifests: npm ci needs every package the lock names, and installs those the image runs.
COPY package.json package-lock.json ./
COPY packages/seahaven/package.json ./packages/seahaven/
COPY worlds/crm/package.json ./worlds/crm/
COPY worlds/stripe/package.json ./worlds/stripe/
COPY worlds/saas/package.json ./worlds/saas/
COPY bench/package.json ./bench/
COPY e2e/package.json ./e2e/
# --ignore-scripts skips the packages' own `prepare` builds (the command runs the TypeScript sources through tsx);
# the rebuild then runs the install scripts of the two packages that have native parts.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund --workspace seahaven --workspace @seahaven/crm --workspace @seahaven/stripe --workspace @seahaven/saas && npm rebuild better-sqlite3 esbuild && npm cache clean --force

# Runtime: Node, the dependencies, the kit's sources and the worlds (workspace packages, linked from node_modules/@seahaven);
# no compilers.
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production TZ=UTC PORT=8000 SEAHAVEN_WORLD=crm SEAHAVEN_WORKERS=auto
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY package.json ./
COPY packages/seahaven/package.json ./packages/seahaven/
COPY packages/seahaven/bin ./packages/seahaven/bin
COPY packages/seahaven/core ./packages/seahaven/core
COPY packages/seahaven/libraries ./packages/seahaven/libraries
COPY packages/seahaven/transports ./packages/seahaven/transports
COPY packages/seahaven/command ./packages/seahaven/command
COPY docs ./docs
COPY AGENTS.md README.md ./
COPY deploy/entrypoint.sh deploy/healthcheck.mjs ./deploy/
# The node user (uid 1000) owns what the server writes: fixture images rebuilt on first use, and .data/ (runs file).
COPY --chown=node:node worlds ./worlds
RUN mkdir .data && chown node:node /app .data
USER node
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["node", "deploy/healthcheck.mjs"]
# SIGTERM drains: new connections refused, received requests answered, sockets closed with 1001 (within about 2 s).
STOPSIGNAL SIGTERM
ENTRYPOINT ["sh", "/app/deploy/entrypoint.sh"]
CMD []
