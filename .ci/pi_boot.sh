#!/usr/bin/env bash
# The boot test: the emulated Raspberry Pi OS Lite (Trixie, arm64), after systemd/install.sh,
# booted whole under full-system emulation, and driven as an owner and a phone would.
#
#   .ci/pi_boot.sh prepare ROOTFS DIR   copies ROOTFS (the rootfs after install.sh) into
#                                       DIR/root and adds what a boot needs (below)
#   .ci/pi_boot.sh run DIR [--break WHAT ...]
#                                       boots DIR/root and runs the five steps
#                                       (.ci/pi_boot.py, which says what --break does)
#   .ci/pi_boot.sh ROOTFS [--break WHAT ...]   both, in a scratch directory (or in
#                                       $CLACKS_CI_BOOT_KEEP, kept to be run again)
#
# What a Raspberry Pi has that the emulated one is given instead, each named here:
# - the Pi's kernel (linux-image-rpi-*) and its firmware's boot: Debian's arm64 kernel
#   and an initramfs (initramfs-tools, which the image has), installed in the copy only,
#   booted by qemu-system-aarch64 -M virt (TCG) with -kernel/-initrd;
# - the Pi's Wi-Fi chip: two simulated radios (mac80211_hwsim radios=2), loaded at boot;
#   NetworkManager drives the first as it drives the Pi's, the second plays the phone;
# - the Pi's GPIO block: the virt machine's PL061, a real /dev/gpiochip0 of 8 lines;
# - the board's identity, which the Pi's firmware writes into the device tree: a Pi 4's
#   model and revision, added to the virt machine's own device tree;
# - raspberrypi-sys-mods' udev rules for /dev/gpiochip* and /dev/spidev* (their groups);
# - the Imager's settings: the host name `clacks`, SSH on, a key for pi;
# - the phone's tools, which a Pi never needs: iw (to move a radio into another network
#   namespace) and dhcpcd-base (its DHCP client).
# The packages are downloaded once into $CLACKS_CI_CACHE/pi-boot-debs.
#
# Needs root, qemu-system-arm, qemu-user-static (binfmt), e2fsprogs, device-tree-compiler,
# ssh, and the checkout's .venv (zxing-cpp and Playwright, from the test extra, decode
# the QR codes).
set -euo pipefail
ci="$(cd "$(dirname "$0")" && pwd)"
src="$(dirname "$ci")"
cache="${CLACKS_CI_CACHE:-/var/cache/clacks-ci}"

say() { printf '== [boot test] %s\n' "$*" >&2; }

prepare() {
  local rootfs="$1" dir="$2" root="$2/root" started=$SECONDS
  mkdir -p "$root"
  say "copying $rootfs into $root"
  # --one-file-system: whatever is mounted inside a chroot (proc, dev, tmp) stays out
  tar -C "$rootfs" --one-file-system --numeric-owner --xattrs -cf - . \
    | tar -C "$root" --numeric-owner --xattrs -xpf -
  rm -f "$root/.complete"
  mkdir -p "$root/proc" "$root/sys" "$root/dev" "$root/tmp" "$root/run"
  chmod 1777 "$root/tmp"
  [ -s "$root/etc/ssl/certs/ca-certificates.crt" ] || cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"

  source "$ci/pi_binfmt.sh"
  ensure_binfmt arm64
  mkdir -p "$cache/pi-boot-debs/partial"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  mount -t proc proc "$root/proc"
  # the rootfs's own /dev was a mount in the chroot, so the copy has none: the machine's
  mount --rbind /dev "$root/dev"
  mount --make-rslave "$root/dev"
  mount --bind "$cache/pi-boot-debs" "$root/var/cache/apt/archives"
  # the initramfs holds only what finds the root file system (the virtio disk, ext4):
  # mkinitramfs's default (most of the kernel's modules) takes many minutes under emulation
  mkdir -p "$root/etc/initramfs-tools/conf.d"
  printf 'MODULES=list\n' > "$root/etc/initramfs-tools/conf.d/clacks-boot-test.conf"
  printf '%s\n' virtio_pci virtio_blk ext4 >> "$root/etc/initramfs-tools/modules"
  local rc=0
  say "adding Debian's arm64 kernel, an initramfs, iw and dhcpcd-base (the stand-ins above)"
  timeout 1800 chroot "$root" env -i ${QEMU_CPU:+QEMU_CPU="$QEMU_CPU"} PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive bash -euc "
      apt-get update -qq
      apt-get install -y -qq --no-install-recommends linux-image-arm64 iw dhcpcd-base > /dev/null" \
    > "$dir/prepare.log" 2>&1 || rc=$?
  umount "$root/var/cache/apt/archives" "$root/proc"
  umount -R "$root/dev"
  if [ "$rc" != 0 ]; then tail -n 30 "$dir/prepare.log" >&2; say "installing the kernel failed"; return 1; fi
  rm -rf "$root/var/lib/apt/lists/"*

  say "the Imager's settings: host name clacks, SSH on with a key for pi"
  echo clacks > "$root/etc/hostname"
  [ -f "$root/etc/hosts" ] || printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' > "$root/etc/hosts"
  sed -i '/127.0.1.1/d' "$root/etc/hosts"
  printf '127.0.1.1\tclacks\n' >> "$root/etc/hosts"
  printf '/dev/vda / ext4 defaults,noatime 0 1\n' > "$root/etc/fstab"
  rm -f "$dir/key" "$dir/key.pub"
  ssh-keygen -q -t ed25519 -N '' -C clacks-boot-test -f "$dir/key"
  install -d -m 0700 -o 1000 -g 1000 "$root/home/pi/.ssh"
  install -m 0600 -o 1000 -g 1000 "$dir/key.pub" "$root/home/pi/.ssh/authorized_keys"
  chroot "$root" systemctl enable ssh.service > /dev/null 2>&1
  # raspberrypi-sys-mods' udev rules (99-com.rules), the lines for the devices the
  # companion opens: a chroot has no udev, so the rootfs's stand-in has only the groups
  printf '%s\n' 'SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"' \
    'SUBSYSTEM=="spidev", GROUP="spi", MODE="0660"' > "$root/etc/udev/rules.d/99-com.rules"
  printf 'mac80211_hwsim\n' > "$root/etc/modules-load.d/clacks-boot-test.conf"
  printf 'options mac80211_hwsim radios=2\n' > "$root/etc/modprobe.d/clacks-boot-test.conf"
  cp "$root/boot/vmlinuz-"* "$dir/vmlinuz"
  cp "$root/boot/initrd.img-"* "$dir/initrd.img"
  say "prepared in $((SECONDS - started)) s: kernel $(basename "$(ls "$root/boot/vmlinuz-"*)")"
}

# The driver's environment: the checkout's .venv with the test tools, which `./run test`
# sets up. In CI that runs beside this stage (.ci/run), so it is waited for, within the
# time this stage has left; elsewhere its absence is named with the command that fixes it.
driver_venv() {
  local stamp="$src/.venv/.clacks-installed" waited=0
  until [ -x "$src/.venv/bin/python" ] && grep -qx test "$stamp" 2>/dev/null; do
    if [ -z "${CLACKS_CI_DEADLINE:-}" ] || [ "$(date +%s)" -ge "$CLACKS_CI_DEADLINE" ]; then
      say "the checkout's .venv has no test tools (zxing-cpp, Playwright): run ./run test first"
      return 1
    fi
    [ "$waited" = 0 ] && say "waiting for ./run test to set up the checkout's .venv with the test tools"
    sleep 5
    waited=$((waited + 5))
  done
  [ "$waited" = 0 ] || say "the checkout's .venv was ready after $waited s"
}

case "${1:-}" in
  prepare) prepare "$2" "$3" ;;
  run) shift; driver_venv; exec "$src/.venv/bin/python" "$ci/pi_boot.py" "$@" ;;
  "") echo "usage: pi_boot.sh ROOTFS [--break WHAT ...] | prepare ROOTFS DIR | run DIR [...]" >&2; exit 2 ;;
  *)
    rootfs="$1"; shift
    if [ -n "${CLACKS_CI_BOOT_KEEP:-}" ]; then
      dir="$CLACKS_CI_BOOT_KEEP"  # kept, to be booted again with `run`
      rm -rf --one-file-system "$dir"
      mkdir -p "$dir"
    else
      dir="$(mktemp -d /tmp/clacks-pi-boot.XXXXXX)"
      trap 'rm -rf --one-file-system "$dir"' EXIT
    fi
    prepare "$rootfs" "$dir"
    driver_venv
    # a time limit's TERM reaches the driver, which stops qemu on its way out
    "$src/.venv/bin/python" "$ci/pi_boot.py" "$dir" "$@" &
    driver=$!
    trap 'kill -TERM "$driver" 2>/dev/null' TERM INT
    status=0
    wait "$driver" || status=$?
    if kill -0 "$driver" 2>/dev/null; then wait "$driver" || status=$?; fi
    exit "$status"
    ;;
esac
