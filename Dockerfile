# syntax=docker/dockerfile:1
# The whole product in one image: the server serves the API, the user app at / and the console at /admin.

FROM node:20-bookworm-slim AS build
# the tests' mongod download is not needed to build or run the product
ENV MONGOMS_DISABLE_POSTINSTALL=1
WORKDIR /app
# manifests first so the dependency layer is cached while only sources change
COPY package.json package-lock.json turbo.json tsconfig.json tsconfig.base.json ./
COPY shared/package.json shared/
COPY server/package.json server/
COPY client/package.json client/
COPY admin/package.json admin/
RUN npm ci --no-audit --no-fund
COPY . .
# the compiled server (server/dist, shared inside), the two front ends, and beside them in /runtime the
# server's production dependencies only: no tsx, no embedded database, no front-end or build packages
RUN npm run build \
  && server/scripts/install-runtime.sh /runtime

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000
WORKDIR /app
COPY --from=build --chown=node:node /runtime ./
COPY --from=build --chown=node:node /app/server/dist ./server/dist
COPY --from=build --chown=node:node /app/client/dist ./client/dist
COPY --from=build --chown=node:node /app/admin/dist ./admin/dist
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--enable-source-maps", "server/dist/index.js"]
