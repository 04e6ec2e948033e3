#!/usr/bin/env bash
# What scripts/container-test.sh needs to build and run the image on Debian: podman, runc (the runtime the test uses
# where crun cannot set up cgroups or raised rlimits), mmdebstrap (Node 20 base images from Debian when no image
# registry is reachable). podman-compose and the dnsname CNI plugin (service names inside a compose network) are for
# trying deploy/compose/ by hand. Idempotent: installs only what is missing. Run as root or with sudo.
set -euo pipefail
PKGS=(podman runc mmdebstrap uidmap slirp4netns fuse-overlayfs podman-compose golang-github-containernetworking-plugin-dnsname)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
version="$(podman --version)"
echo "$version"
