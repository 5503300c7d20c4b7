# Burrow production image (docs/deploy.md): the server runs its TypeScript through tsx, as
# `npm start` does; the web app is built here and served by the server from apps/web/dist.
#   docker build -t burrow .        docker compose up -d   (docker-compose.yml)

# 1. What both build stages need: compilers for the native modules, every workspace's manifest.
FROM node:20-slim AS base
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json .npmrc ./
COPY packages/contract/package.json packages/contract/
COPY packages/frp-decision/package.json packages/frp-decision/
COPY apps/server/package.json apps/server/
COPY apps/agent/package.json apps/agent/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
COPY tools/frps-sim/package.json tools/frps-sim/

# 2a. Build the web app and the node agent's one-file bundle (all workspaces' dependencies, dev included).
FROM base AS web
RUN npm ci
COPY tsconfig.base.json ./
COPY scripts/build-stamp.mjs scripts/
COPY packages/contract packages/contract
COPY packages/frp-decision packages/frp-decision
COPY apps/web apps/web
RUN npm run build -w @burrow/web
COPY apps/agent apps/agent
RUN node apps/agent/build.mjs

# 2b. The server's production dependencies only (native modules built for this image).
FROM base AS deps
RUN npm ci --omit=dev --workspace @burrow/server --include-workspace-root=false

# 3. Runtime: no compilers, not root.
FROM node:20-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/var/lib/burrow \
    WEB_DIST=/app/apps/web/dist
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY package.json tsconfig.base.json ./
COPY packages/contract packages/contract
COPY packages/frp-decision packages/frp-decision
COPY apps/server/package.json apps/server/tsconfig.json apps/server/
COPY apps/server/src apps/server/src
COPY --from=web /app/apps/web/dist apps/web/dist
# served to the nodes' installer at /download/agent/burrow-agent.mjs
COPY --from=web /app/apps/agent/dist apps/agent/dist
RUN mkdir -p /var/lib/burrow && chown node:node /var/lib/burrow
USER node
VOLUME /var/lib/burrow
EXPOSE 8080
# SIGTERM drains (requests in flight, frp writer, jobs) within SHUTDOWN_TIMEOUT (10 s).
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# A larger young generation: at thousands of frps plugin calls a second the default one promotes
# short-lived request objects, whose major GCs then stall answers for tens of ms (docs/frp.md).
CMD ["node", "--max-semi-space-size=64", "--import", "tsx", "apps/server/src/main.ts"]
