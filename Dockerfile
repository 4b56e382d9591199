# syntax=docker/dockerfile:1
# obsim: offline simulator of the open-banking provider API.
#
#   docker build -t obsim .
#   docker run --rm -p 4010:4010 obsim                                   # sandbox, in-memory database
#   docker run --rm -p 4010:4010 -v obsim-data:/data -e OBSIM_DB=/data/obsim.sqlite obsim   # persistent
#
# Stage 1 installs the production dependencies and the TypeScript compiler, and compiles. The SQLite
# driver (better-sqlite3) carries its Node-API binaries inside its npm package: nothing is compiled
# for it, and only the binary of this image's platform is kept.
# Stage 2 carries production dependencies, dist/ and the shipped scenarios only, and runs as the
# unprivileged `node` user.

ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
ENV npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false
WORKDIR /app
# dependencies first, so source edits do not reinstall them. Only the production ones, as the
# lockfile has them, and the compiler at package.json's version beside them (/opt/typescript): the
# development set (linters, test runners, Chromium's driver, Pact, Newman: some 1,200 packages)
# would take minutes to install and be pruned again. `npm run build:image` compiles without
# the type check, which needs the development set's type packages; the JavaScript it emits is the
# same, and the type check is CI's (`npm run check`).
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts \
 && npm install --prefix /opt/typescript --no-save --ignore-scripts \
      "typescript@$(node -p "require('./package.json').devDependencies.typescript")"
ENV PATH=/opt/typescript/node_modules/.bin:$PATH
COPY . .
RUN npm run build:image \
 && keep=$(node -p "path.basename(require('/app/node_modules/better-sqlite3/lib/binding.js').getPrebuildPath())") \
 && find node_modules/better-sqlite3/prebuilds -name '*.node' ! -name "$keep" -delete \
 && rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src \
 && node -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    NODE_COMPILE_CACHE=/app/.compile-cache \
    HOST=0.0.0.0 \
    PORT=4010 \
    OBSIM_DB=:memory: \
    OBSIM_ENVIRONMENT=sandbox
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# the shipped scenarios: docker run … obsim scenario run /app/scenarios --base-url …
COPY --from=build /app/scenarios ./scenarios
# the shipped personas: POST /_sandbox/sandboxes {"persona": "shop-with-history"}, serve --persona
COPY --from=build /app/personas ./personas
# the two OpenAPI documents and the contract's docs pages: `obsim mcp` offers them as resources
COPY --from=build /app/openapi.json /app/openapi-controls.json ./
COPY --from=build /app/docs ./docs
# /data: mount a volume here and set OBSIM_DB=/data/obsim.sqlite to keep state across restarts
# NODE_COMPILE_CACHE: V8's compiled code of dist/ and its dependencies, written here once by
# building the OpenAPI document (which loads what `serve` loads), so that every container starts
# without compiling them (docs/performance.md, "Start-up")
RUN mkdir -p /data && chown node:node /data \
 && ln -s /app/dist/src/bin.js /usr/local/bin/obsim && chmod +x /app/dist/src/bin.js \
 && node dist/src/bin.js openapi --out /tmp/openapi.json && rm /tmp/openapi.json \
 && chown -R node:node /app/.compile-cache
USER node
EXPOSE 4010
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||4010)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node handles SIGTERM itself: in-flight requests finish, the database closes, exit code 0
STOPSIGNAL SIGTERM
CMD ["node", "dist/src/bin.js", "serve"]
