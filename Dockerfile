# One image for every broker process; the command picks which one runs:
#   node --max-semi-space-size=32 --no-allocation-site-pretenuring --heap-growing-percent=20 dist/src/api/main.js   the HTTP API (default; the flags: docs/operations.md)
#   node dist/src/worker/main.js      the Temporal worker (order workflows and activities)
#   node dist/src/simulators/main.js  the sandbox provider simulator (demo and test stacks only)
# See docs/operations.md ("The image") and docker-compose.yml. test/unit/deploy/dockerfile.test.ts
# runs hadolint on this file and checks what hadolint does not know (no Docker engine needed).

# The Node.js release every stage builds on, pinned by version (Dependabot proposes updates).
FROM node:20.20.2-bookworm-slim AS base
WORKDIR /app

# --- build: every dependency, then tsc into dist/ and the prebuilt workflow bundle -------------
FROM base AS build
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/bundle-workflows.ts ./scripts/
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
RUN npm run build

# --- prod-deps: runtime dependencies only ------------------------------------------------------
# The worker loads the workflow bundle prebuilt by `npm run build` (WORKFLOW_BUNDLE_PATH below); the
# Temporal native bridge is a runtime dependency and comes along here.
FROM base AS prod-deps
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# --- runtime: production dependencies and dist/, nothing else ----------------------------------
FROM base AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    WORKFLOW_BUNDLE_PATH=dist/workflow-bundle.js
LABEL org.opencontainers.image.title="onramp-broker" \
      org.opencontainers.image.description="Self-hostable crypto on-ramp broker: API, Temporal worker and provider simulators" \
      org.opencontainers.image.licenses="Apache-2.0"
# Files stay owned by root (no COPY --chown): the processes only read them, and cannot change them.
COPY package.json package-lock.json ./
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The image's unprivileged `node` user, by number, so that a runtime (Kubernetes' runAsNonRoot)
# can tell it is not root without reading /etc/passwd.
USER 1000:1000
EXPOSE 3000 4010
# The API's liveness (GET /healthz on $PORT). The worker and the simulators answer elsewhere:
# docker-compose.yml gives each its own check.
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--max-semi-space-size=32", "--no-allocation-site-pretenuring", "--heap-growing-percent=20", "dist/src/api/main.js"]
