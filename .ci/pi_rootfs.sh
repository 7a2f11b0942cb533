#!/usr/bin/env bash
# Builds (or reuses) the rootfs of a fresh Raspberry Pi OS Lite image for one release and
# architecture, run under qemu-user through binfmt_misc, and prints its path.
#
#   .ci/pi_rootfs.sh RELEASE ARCH     RELEASE trixie or bookworm, ARCH arm64 or armhf
#
# It holds what the image's own build installs (.ci/pi-os/RELEASE-ARCH-lite-packages.txt,
# read from pi-gen) that Debian's archive has, and nothing else: no python3-dev, no git,
# no swig. What only Raspberry Pi's archive has is named in
# .ci/pi-os/raspberry-pi-archive.toml with its stand-in: python3-lgpio is lgpio from the
# package index, its wheel for the release's Python where the index has one, else its sdist
# built (in a throw-away layer holding swig and python3-dev), put into the system's
# dist-packages; the gpio, spi and i2c groups and the owner's user `pi` with sudo, as
# raspberrypi-sys-mods and the Imager's settings make them; /boot/firmware/config.txt as
# the image ships it. .ci/pi_os.py checks the result (`check`), and the build fails if it
# holds anything more.
#
# It is cached under $CLACKS_CI_CACHE (default /var/cache/clacks-ci) in a directory named
# after a hash of everything that goes into it (this file, the lists, the release, the
# mirror, the architecture), so a warm machine reuses it and any change to the recipe
# builds a new one. Needs root, mmdebstrap and qemu-user-static.
# mmdebstrap rather than debootstrap: it unpacks and configures every package in one
# dpkg run, which under emulation takes a fraction of debootstrap's package-by-package
# time. Two more cuts, both to what runs emulated: dpkg's fsyncs go through eatmydata (the
# hook mmdebstrap ships; removed again at the end), and manuals, documentation and
# translations are not unpacked (the companion reads none of them). Needs dpkg-dev on this
# machine (the hook asks dpkg-architecture for the library path).
set -euo pipefail

suite="${1:?usage: pi_rootfs.sh trixie|bookworm arm64|armhf}"
arch="${2:?usage: pi_rootfs.sh trixie|bookworm arm64|armhf}"
case "$suite" in trixie|bookworm) ;; *) echo "pi_rootfs.sh: RELEASE must be trixie or bookworm, not '$suite'" >&2; exit 2 ;; esac
case "$arch" in arm64|armhf) ;; *) echo "pi_rootfs.sh: ARCH must be arm64 or armhf, not '$arch'" >&2; exit 2 ;; esac

ci="$(cd "$(dirname "$0")" && pwd)"
mirror="${CLACKS_CI_MIRROR:-http://deb.debian.org/debian}"
cache="${CLACKS_CI_CACHE:-/var/cache/clacks-ci}"
packages="$(python3 "$ci/pi_os.py" include "$suite" "$arch" < /dev/null)"
# as the image build installs them: its 00-packages lists with their Recommends (apt's
# default there; NetworkManager's bring dnsmasq-base, which its hotspot needs), its
# 00-packages-nr lists without (mmdebstrap's default)
with_recommends="$(python3 "$ci/pi_os.py" include "$suite" "$arch" recommends < /dev/null | tr ',' ' ')"
without_recommends="$(python3 "$ci/pi_os.py" include "$suite" "$arch" no-recommends < /dev/null)"
lgpio_version=0.2.2.0  # what Raspberry Pi OS's python3-lgpio is built from
key="$( { cat "$0" "$ci/pi_os.py" "$ci/pi-os/raspberry-pi-archive.toml"; echo "$suite $mirror $arch $with_recommends $without_recommends $lgpio_version"; } | sha256sum | cut -c1-16)"
rootfs="$cache/rootfs/$suite-$arch-$key"

say() { printf '== [%s %s] %s\n' "$suite" "$arch" "$*" >&2; }
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
trap 'umount -R "$building.lgpio/root" 2>/dev/null; rm -rf --one-file-system "$building" "$building.lgpio"' EXIT
mkdir -p "$cache/rootfs"
# Remove rootfs of older recipes (and half-built ones) for this arch, keeping the cache small.
find "$cache/rootfs" -mindepth 1 -maxdepth 1 -name "$suite-$arch-*" ! -name "$suite-$arch-$key" \
  -exec rm -rf --one-file-system {} +

say "building Raspberry Pi OS Lite ($suite, $arch) from Debian's archive at $mirror (mmdebstrap, under emulation): $(tr ',' ' ' <<< "$packages" | wc -w) packages named by the image's list, $(tr ',' ' ' <<< "$without_recommends" | wc -w) of them without their Recommends"
started=$SECONDS
log="$cache/rootfs/mmdebstrap-$suite-$arch.log"
# stamped: each line read, with the seconds since the build started, so that the log shows
# what each phase (download, unpack, the essential packages, the rest, configuring) took
stamped() {
  local line
  while IFS= read -r line; do printf '%5d s  %s\n' "$((SECONDS - started))" "$line"; done
}
# apt retries each download itself; the whole build is tried again on a failure, after a
# pause: a mirror part-way through its update serves indexes that do not match their
# Release file for a few minutes, and two attempts in a row both met that. Each try ends
# by CLACKS_CI_ROOTFS_LIMIT seconds (default 3600): .ci/pi_emulated.sh passes what its own
# limit leaves, which on a loaded machine is longer.
tries_limit="${CLACKS_CI_ROOTFS_LIMIT:-3600}"
# The image's 00-packages, with their Recommends, in a customize hook (hooks run in the
# order given: this one before the eatmydata hook's, which undoes eatmydata). apt runs
# here, as mmdebstrap's own does (its configuration, dpkg in the rootfs): resolving and
# downloading natively, only the packages' own scripts under emulation. A package the
# lists remove is kept out of apt's choice of Recommends ('name-'), if this archive has
# it at all (Bookworm's arm64 has no firmware-marvell-prestera; apt refuses a name it
# does not know).
# dpkg runs in the rootfs without APT_CONFIG, whose file is outside it: the packages'
# scripts that call apt (apt-listchanges's) would each warn that they cannot read it.
installs=""; removals=""
for word in $with_recommends; do
  case "$word" in *-) removals="$removals ${word%-}" ;; *) installs="$installs $word" ;; esac
done
# shellcheck disable=SC2016  # expanded by the hook's shell, where $1 is the rootfs
hook='mountpoint -q "$1/proc" || { mount -t proc proc "$1/proc"; mounted=1; }
  export APT_CONFIG="$MMDEBSTRAP_APT_CONFIG"
  out=""
  for name in '"$removals"'; do
    apt-cache show --no-all-versions "$name" > /dev/null 2>&1 && out="$out $name-"
  done
  apt-get -o Dir::Bin::dpkg=env -o DPkg::Options::=--unset=TMPDIR \
    -o DPkg::Options::=--unset=APT_CONFIG -o DPkg::Options::=dpkg \
    -o DPkg::Chroot-Directory="$1" -o APT::Install-Recommends=true install -y -q '"$installs"' $out
  status=$?; [ -z "${mounted:-}" ] || umount "$1/proc"; exit "$status"'
for attempt in 1 2 3; do
  rm -rf --one-file-system "$building"
  if timeout "$tries_limit" mmdebstrap --mode=root --arch="$arch" --variant=important \
      ${without_recommends:+--include="$without_recommends"} --aptopt='Acquire::Retries "5"' \
      --customize-hook="$hook" \
      --hook-dir=/usr/share/mmdebstrap/hooks/eatmydata \
      --setup-hook='mkdir -p "$1/boot/firmware"' \
      --essential-hook='echo "man-db man-db/auto-update boolean false" | chroot "$1" debconf-set-selections' \
      --customize-hook="python3 '$ci/pi_os.py' priorities \"\$1\" > \"\$1/.archive-priorities\"" \
      --components=main,non-free-firmware \
      --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
      --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
      --dpkgopt='path-include=/usr/share/doc/*/copyright' \
      "$suite" "$building" "$mirror" 2>&1 | stamped > "$log"; then
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
printf '[global]\nretries = 5\ntimeout = 120\ndisable-pip-version-check = true\n' \
  > "$building/etc/pip.conf"
# The stand-ins for what only Raspberry Pi's archive has (.ci/pi-os/raspberry-pi-archive.toml).
# raspberrypi-sys-mods: the gpio, spi and i2c groups. The Imager's settings (cloud-init on
# Trixie, a first-boot script on Bookworm): the owner's user, here `pi`, with sudo and
# no password asked, in the groups Raspberry Pi OS gives its first user.
for group in gpio spi i2c; do
  chroot "$building" getent group "$group" > /dev/null || chroot "$building" groupadd --system "$group"
done
chroot "$building" useradd --create-home --shell /bin/bash \
  --groups sudo,adm,dialout,audio,video,plugdev,users,input,gpio,spi,i2c pi
echo 'pi ALL=(ALL) NOPASSWD: ALL' > "$building/etc/sudoers.d/90-cloud-init-users"
chmod 0440 "$building/etc/sudoers.d/90-cloud-init-users"
# the image's config.txt (pi-gen stage1's), which systemd/boot-config.sh edits
install -m 0644 "$ci/pi-os/config.txt" "$building/boot/firmware/config.txt"

# python3-lgpio: in a throw-away layer over the rootfs, pip (from a venv, as python3-venv
# gives it) takes lgpio's wheel for the release's Python if the package index has one
# (Bookworm's 3.11: nothing compiled under emulation); otherwise (Trixie's 3.13) the layer
# gets the build tools (swig, python3-dev, pip) and lgpio's sdist is built as Raspberry
# Pi's package builds it. The wheel's files are put into the rootfs's dist-packages; the
# rootfs itself never holds those tools.
stand_in_lgpio() {
  local layer="$building.lgpio" dist
  mkdir -p "$layer/upper" "$layer/work" "$layer/root"
  mount -t overlay overlay -o "lowerdir=$building,upperdir=$layer/upper,workdir=$layer/work" "$layer/root"
  mount -t proc proc "$layer/root/proc"
  mount -t tmpfs tmp "$layer/root/tmp"
  cp /etc/resolv.conf "$layer/root/etc/resolv.conf"
  cp /etc/ssl/certs/ca-certificates.crt "$layer/root/tmp/ca.crt"
  local rc=0
  timeout 2400 chroot "$layer/root" env -i ${QEMU_CPU:+QEMU_CPU="$QEMU_CPU"} PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive PIP_CERT=/tmp/ca.crt PIP_DISABLE_PIP_VERSION_CHECK=1 \
    bash -euc "cd /tmp
      if python3 -m venv /tmp/pip-venv && /tmp/pip-venv/bin/pip download --quiet --no-deps \
          --only-binary=:all: -d /tmp/wheel lgpio==$lgpio_version 2> /tmp/no-wheel.txt; then
        echo \"I: lgpio: the package index's wheel for this Python: \$(ls /tmp/wheel)\"
        exit 0
      fi
      echo 'I: lgpio: the package index has no wheel for this Python:' \$(tail -n 1 /tmp/no-wheel.txt)
      rm -rf /tmp/wheel
      echo 'I: lgpio: apt installs the build tools in the throw-away layer'
      apt-get update -qq
      apt-get install -y -qq --no-install-recommends swig python3-dev python3-pip \
        python3-setuptools python3-wheel build-essential > /dev/null
      echo 'I: lgpio: pip downloads and builds the sdist'
      cd /tmp && python3 -m pip download --quiet --no-deps --no-binary=:all: \
        lgpio==$lgpio_version
      tar -xzf lgpio-$lgpio_version.tar.gz
      cd lgpio-$lgpio_version && PYPI=1 python3 -m pip wheel --quiet --no-deps \
        --no-build-isolation -w /tmp/wheel .
      echo 'I: lgpio: built'" 2>&1 | stamped >> "$log" || rc=$?
  if [ "$rc" = 0 ]; then
    dist="$building/usr/lib/python3/dist-packages"
    python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
      "$(ls "$layer/root/tmp/wheel/"lgpio-*.whl)" "$dist" || rc=$?
    printf 'stand-in for python3-lgpio (.ci/pi_rootfs.sh)\n' > "$dist/lgpio-$lgpio_version.dist-info/INSTALLER"
    rm -f "$dist/lgpio-$lgpio_version.dist-info/RECORD"  # apt's to remove, as a system package
  fi
  umount "$layer/root/tmp" "$layer/root/proc" "$layer/root"
  rm -rf --one-file-system "$layer"
  return "$rc"
}
say "mmdebstrap took $((SECONDS - started)) s"
# The image build's bootstrap is debootstrap's default variant, the packages of priority
# required and important (mmdebstrap's --variant=important: init, systemd-sysv and so
# /sbin/init among them), with info and ifupdown left out (pi-gen: --exclude=info,ifupdown);
# mmdebstrap has no --exclude, so they are purged here, where the release installs them
# (Trixie's important set has no info; apt, its lists cleaned, knows no package not installed).
excluded="$(chroot "$building" dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' info ifupdown 2>/dev/null \
  | awk '$1 ~ /^.i/ { print $2 }' || true)"
if [ -n "$excluded" ]; then
  # shellcheck disable=SC2086  # one package name a word
  chroot "$building" env -i ${QEMU_CPU:+QEMU_CPU="$QEMU_CPU"} PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq $excluded > /dev/null
fi
say "python3-lgpio's stand-in: lgpio $lgpio_version, the package index's wheel or its sdist built under emulation"
lgpio_started=$SECONDS
stand_in_lgpio || { say "lgpio $lgpio_version could not be put in; the end of $log:"; tail -n 30 "$log" >&2; exit 1; }
chroot "$building" python3 -c 'import lgpio' \
  || { say "the lgpio stand-in does not import"; exit 1; }
say "the lgpio stand-in took $((SECONDS - lgpio_started)) s"

chroot "$building" apt-get clean
say "the build's phases (seconds since it started, from $log):"
grep -E '^ *[0-9]+ s  I: ' "$log" >&2 || true
python3 "$ci/pi_os.py" check "$suite" "$arch" "$building" >&2
touch "$building/.complete"
mv "$building" "$rootfs"
trap - EXIT
say "rootfs ready in $((SECONDS - started)) s: $rootfs"
echo "$rootfs"
