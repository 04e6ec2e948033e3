# The service as a container image: docs/deployment.md. Build and check it with scripts/container-test.sh.
#
#   docker build -t einvoice-service .
#   docker run --rm -p 8080:8080 --read-only einvoice-service
#
# NODE_IMAGE is the runtime base: any Debian-based image with Node.js 20 at /usr/bin/node or /usr/local/bin/node;
# nothing else is used at run time (no shell, no npm). NODE_BUILD_IMAGE (default: the same) also needs npm, and
# compiles. Behind a TLS-inspecting proxy, pass its CA bundle as a build secret so that npm trusts it:
#   docker build --secret id=ca,src=/path/to/ca-bundle.pem .
ARG NODE_IMAGE=node:20-trixie-slim
ARG NODE_BUILD_IMAGE=${NODE_IMAGE}

# Production dependencies, installed from the lock file alone so that this layer survives code changes.
FROM ${NODE_BUILD_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=secret,id=ca \
    if [ -s /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca; fi; \
    npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# Compile with the development dependencies; keep exactly the files package.json "files" lists (npm pack).
FROM ${NODE_BUILD_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN --mount=type=secret,id=ca \
    if [ -s /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca; fi; \
    npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# The commit the image is built from, for GET /diagnostics (there is no .git in the build context).
ARG GIT_HASH=unknown
RUN BUILD_GIT_HASH="${GIT_HASH}" npm run build \
 && npm pack --ignore-scripts --loglevel=error --pack-destination /tmp >/dev/null \
 && mkdir /app \
 && tar -xzf /tmp/einvoice-service-*.tgz -C /app --strip-components=1 --no-same-owner

# The files the package ships, and of the production dependencies only what runs (scripts/container-prune.mjs).
FROM ${NODE_BUILD_IMAGE} AS app
COPY --from=build /app /app
COPY --from=deps /app/node_modules /app/node_modules
COPY package-lock.json /app/
COPY scripts/container-prune.mjs /tmp/
RUN node /tmp/container-prune.mjs /app \
 && chmod -R a+rX,go-w /app

FROM ${NODE_IMAGE}
ARG GIT_HASH=unknown
LABEL org.opencontainers.image.title="einvoice-service" \
      org.opencontainers.image.description="Builds, validates, reads and converts e-invoices (Factur-X/ZUGFeRD, XRechnung, EN 16931), offline" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.revision="${GIT_HASH}"
# Owned by root and not writable by the service's user: the process cannot change its own code.
COPY --from=app /app /app
WORKDIR /app
# The service writes nothing to disk; /tmp is only for node itself should it ever need it (mount a tmpfs there
# with a read-only root file system). Configuration: the environment variables of the README, as outside a container.
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0 \
    TMPDIR=/tmp
# Any user id works; this one has no entry in /etc/passwd and owns nothing in the image.
USER 10001:10001
EXPOSE 8080
# No shell at run time: the check is node itself (exit 0 when /health answers 200 within 4 s).
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))"]
# SIGTERM reaches node directly (exec form, PID 1): requests in flight finish within SHUTDOWN_GRACE_S (25 s), under
# the 30 s Docker and Kubernetes wait before SIGKILL. The node flags are npm start's (docs/architecture.md).
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=16", "--no-allocation-site-pretenuring", "dist/src/main.js"]
