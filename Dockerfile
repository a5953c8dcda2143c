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
RUN npm run build \
  && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json /app/package-lock.json /app/tsconfig.base.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/shared ./shared
COPY --from=build --chown=node:node /app/server ./server
COPY --from=build --chown=node:node /app/client/package.json ./client/package.json
COPY --from=build --chown=node:node /app/client/dist ./client/dist
COPY --from=build --chown=node:node /app/admin/package.json ./admin/package.json
COPY --from=build --chown=node:node /app/admin/dist ./admin/dist
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["npm", "--workspace", "server", "run", "start"]
