# One image for every broker process; the command picks which one runs:
#   node --max-semi-space-size=32 --no-allocation-site-pretenuring --heap-growing-percent=20 dist/src/api/main.js   the HTTP API (default; the flags: docs/operations.md)
#   node dist/src/worker/main.js      the Temporal worker (order workflows and activities)
#   node dist/src/simulators/main.js  the sandbox provider simulator (demo and test stacks only)
# See docs/operations.md and docker-compose.yml.

ARG NODE_IMAGE=node:20-bookworm-slim

# --- build: every dependency, then tsc into dist/ ---------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
RUN npm run build

# --- prod-deps: runtime dependencies only -------------------------------------------------------
# The worker loads the workflow bundle prebuilt by `npm run build` (WORKFLOW_BUNDLE_PATH below); the
# Temporal native bridge is a runtime dependency and comes along here.
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev && npm cache clean --force

# --- runtime -----------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    WORKFLOW_BUNDLE_PATH=dist/workflow-bundle.js
WORKDIR /app
# Files stay owned by root: the processes only read them.
COPY package.json package-lock.json ./
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
EXPOSE 3000 4010
CMD ["node", "--max-semi-space-size=32", "--no-allocation-site-pretenuring", "--heap-growing-percent=20", "dist/src/api/main.js"]
