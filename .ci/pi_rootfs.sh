#!/usr/bin/env bash
# Builds (or reuses) a Debian Bookworm rootfs for one Raspberry Pi OS architecture, run
# under qemu-user through binfmt_misc, and prints its path.
#
#   .ci/pi_rootfs.sh ARCH        ARCH is arm64 or armhf
#
# The rootfs holds what a Raspberry Pi OS Lite image brings that the companion relies on
# (python3 with venv and pip, git, a C compiler for the LED drivers' sources, sudo) and
# nothing of the project. It is cached under $CLACKS_CI_CACHE (default
# /var/cache/clacks-ci) in a directory named after a hash of everything that goes into it
# (this file, the suite, the mirror, the architecture), so a warm machine reuses it and
# any change to the recipe builds a new one. Needs root, mmdebstrap and qemu-user-static.
# mmdebstrap rather than debootstrap: it unpacks and configures every package in one
# dpkg run, which under emulation takes a fraction of debootstrap's package-by-package
# time (debootstrap needed over 40 minutes per architecture on a loaded 2-core machine).
# Two more cuts, both to what runs emulated: dpkg's fsyncs go through eatmydata (the
# hook mmdebstrap ships; removed again at the end), and manuals, documentation and
# translations are not unpacked (the companion reads none of them). Both arches side by
# side on an idle 2-core machine: about 7.5 minutes, against 47 without them. Needs
# dpkg-dev on this machine (the hook asks dpkg-architecture for the library path).
set -euo pipefail

arch="${1:?usage: pi_rootfs.sh arm64|armhf}"
case "$arch" in arm64|armhf) ;; *) echo "pi_rootfs.sh: ARCH must be arm64 or armhf, not '$arch'" >&2; exit 2 ;; esac

suite=bookworm
mirror="${CLACKS_CI_MIRROR:-http://deb.debian.org/debian}"
cache="${CLACKS_CI_CACHE:-/var/cache/clacks-ci}"
packages=python3,python3-venv,python3-pip,python3-dev,build-essential,git,ca-certificates,sudo,procps,avahi-daemon,curl
key="$( { cat "$0"; echo "$suite $mirror $arch $packages"; } | sha256sum | cut -c1-16)"
rootfs="$cache/rootfs/$suite-$arch-$key"

say() { printf '== [%s] %s\n' "$arch" "$*" >&2; }
# a command that fails before or after mmdebstrap's own log says why, so the log names it
trap 'say "failed (exit status $?) at line $LINENO: $BASH_COMMAND"' ERR

if [ -f "$rootfs/.complete" ]; then
  say "reusing the cached rootfs $rootfs"
  echo "$rootfs"
  exit 0
fi

# A fresh machine may have qemu-user-static installed but binfmt_misc not mounted or the
# ARM interpreters not registered; the packages' maintainer scripts need both.
source "$(dirname "$0")/pi_binfmt.sh"
ensure_binfmt "$arch"
for tool in mmdebstrap dpkg-architecture; do
  command -v "$tool" > /dev/null || { say "$tool is missing: apt-get install mmdebstrap dpkg-dev"; exit 1; }
done

building="$rootfs.building.$$"
trap 'rm -rf --one-file-system "$building"' EXIT
mkdir -p "$cache/rootfs"
# Remove rootfs of older recipes (and half-built ones) for this arch, keeping the cache small.
find "$cache/rootfs" -mindepth 1 -maxdepth 1 -name "$suite-$arch-*" ! -name "$suite-$arch-$key" \
  -exec rm -rf --one-file-system {} +

say "building a Debian $suite $arch rootfs from $mirror (mmdebstrap, under emulation)"
started=$SECONDS
log="$cache/rootfs/mmdebstrap-$arch.log"
# apt retries each download itself; the whole build is tried again on a failure, after a
# pause: a mirror part-way through its update serves indexes that do not match their
# Release file for a few minutes, and two attempts in a row both met that
for attempt in 1 2 3; do
  rm -rf --one-file-system "$building"
  if timeout 3600 mmdebstrap --mode=root --arch="$arch" --variant=minbase \
      --include="$packages" --aptopt='Acquire::Retries "5"' \
      --hook-dir=/usr/share/mmdebstrap/hooks/eatmydata \
      --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
      --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
      --dpkgopt='path-include=/usr/share/doc/*/copyright' \
      "$suite" "$building" "deb $mirror $suite main" > "$log" 2>&1; then
    break
  fi
  say "mmdebstrap attempt $attempt failed (exit status or time limit); the end of $log:"
  tail -n 20 "$log" >&2
  cp "$log" "$log.attempt-$attempt"
  [ "$attempt" = 3 ] && exit 1
  sleep $((60 * attempt))
done

# The same routes as this machine: apt retries, pip retries, and the archive.
cat > "$building/etc/apt/apt.conf.d/80clacks-ci" <<'APT'
Acquire::Retries "5";
Acquire::http::Timeout "60";
APT
mkdir -p "$building/etc/pip"
printf '[global]\nretries = 5\ntimeout = 120\ndisable-pip-version-check = true\n' \
  > "$building/etc/pip.conf"
# What a Raspberry Pi OS image has and Debian's does not: the default user `pi` with sudo,
# the gpio and spi groups, and the boot configuration install.sh edits.
chroot "$building" groupadd --system gpio
chroot "$building" groupadd --system spi
chroot "$building" useradd --create-home --shell /bin/bash --groups sudo,gpio,spi pi
echo 'pi ALL=(ALL) NOPASSWD: ALL' > "$building/etc/sudoers.d/010_pi-nopasswd"
chmod 0440 "$building/etc/sudoers.d/010_pi-nopasswd"
mkdir -p "$building/boot/firmware"
printf '[all]\n' > "$building/boot/firmware/config.txt"
chroot "$building" apt-get clean
touch "$building/.complete"
mv "$building" "$rootfs"
trap - EXIT
say "rootfs ready in $((SECONDS - started)) s: $rootfs"
echo "$rootfs"
