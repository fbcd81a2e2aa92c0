# Canopy's container image (ADR 0047). One image, three commands:
#   the api (default):      node apps/api/src/main.ts          panel, api, /ws, the embedded gateway, local engines
#   the gateway apart:      node apps/api/src/gateway/main.ts  with CANOPY_GATEWAY=off on the api (ADR 0039)
#   an engine (kubernetes): node packages/engine/src/main.ts   what the kubernetes driver's pods run in /app
# Every build step is a stage of scripts/image/build.sh, which apps/api/test/image-build.test.ts runs on a clean
# copy of the repository; these machines build no containers.
#
#   docker build -t canopy .

# The Node of the repository's `node` dev dependency (package-lock.json), on which the tests run; a test keeps
# the two equal.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# The web app, built with its dev dependencies, which stay in this stage.
FROM ${NODE_IMAGE} AS web
WORKDIR /src
COPY . .
RUN sh scripts/image/build.sh web

# The runtime layout: the repository without tests, the built web app, production dependencies only.
FROM ${NODE_IMAGE} AS app
WORKDIR /app
COPY . .
COPY --from=web /src/apps/web/dist apps/web/dist
RUN sh scripts/image/build.sh app

FROM ${NODE_IMAGE}
# The code belongs to root and is read-only for the process, which owns only its data (/data).
COPY --from=app /app /app
# The base image's `node` user is uid/gid 1000, which the kubernetes driver's pods run as (runAsUser 1000,
# fsGroup 1000). /data/backups exists so that a volume mounted there starts owned by that user too.
RUN mkdir -p /data/backups && chown -R 1000:1000 /data && chmod -R 700 /data
WORKDIR /app
ENV NODE_ENV=production
ENV HOST=0.0.0.0
ENV PORT=8080
ENV CANOPY_DATA_DIR=/data
# Players' clients reach the login host on 443; a non-root process binds it where the container runtime lets
# unprivileged ports start at 0 (Docker does; compose.yaml says so; a pod sets the sysctl or maps 443 to 8443).
ENV CANOPY_GATEWAY_TLS_PORT=443
VOLUME ["/data"]
# The panel, the login host's HTTPS, the gateway's ENet front, and the hosted servers' ports (CANOPY_GAME_PORTS).
EXPOSE 8080/tcp 443/tcp 17091/udp 17092-17191/udp
USER 1000:1000
# Liveness of the api. The gateway and engine commands serve no /healthz: their runners check them otherwise
# (compose: healthcheck disable; kubernetes ignores this instruction).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
  CMD ["node", "scripts/image/healthcheck.ts", "/healthz"]
CMD ["node", "apps/api/src/main.ts"]
