# syntax=docker/dockerfile:1
# Multi-stage build: compile the native module and the app with the development tools, ship only what runs.
# Node 22 LTS: the version the image ships (package.json's engines also allow 20, where the tests run).
FROM node:22-bookworm-slim AS base
WORKDIR /app

FROM base AS build
# better-sqlite3 compiles from source when no prebuilt binary can be fetched.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --include=dev --no-audit --no-fund
COPY . .
# The build bundles the server (build/server/index.js) and the operator commands (build/server/cli.js); then
# the development and optional packages go (typescript is an optional peer), and what nothing loads at run time.
RUN npm run build \
 && npm prune --omit=dev --omit=optional --no-audit --no-fund \
 && sh scripts/slim-node-modules.sh node_modules

FROM base AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/app/data \
    DATABASE_URL=file:/app/data/app.db
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/package.json /app/server.js ./
COPY --from=build /app/db/seed ./db/seed
# The printed documents' fonts (Arimo, Tinos; Noto Sans Tamil, Noto Naskh Arabic, Noto Sans CJK SC), found from
# build/server/ at run time.
COPY --from=build /app/app/documents/fonts ./app/documents/fonts
RUN mkdir -p /app/data && chown node:node /app/data
USER node
# The SQLite database (with the uploaded files) and the outbox live here; mount a volume to keep them.
VOLUME ["/app/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Required at run time: SESSION_SECRET and DATA_ENCRYPTION_KEY (32 bytes in base64, `openssl rand -base64 32`,
# made once and kept: without it the stored answers and files cannot be read; README, "Encryption at rest").
# server.js runs the migrations (and seeds an empty database) before it listens. Operator commands:
# docker run … legal-self-help node build/server/cli.js help
CMD ["node", "server.js"]
