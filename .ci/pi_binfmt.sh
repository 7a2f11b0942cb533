# Sourced by the emulated Raspberry Pi OS scripts: makes this machine run ARM binaries.
# ensure_binfmt ARCH: mounts binfmt_misc and registers qemu-user-static's interpreter for
# ARCH (arm64 or armhf) if either is missing; fails with what to install otherwise.
ensure_binfmt() {
  # one at a time: the architectures' stages call this side by side, and two mounts of
  # binfmt_misc, or two registrations, at once can fail one of them
  local lock_fd
  exec {lock_fd}> /run/lock/clacks-ci-binfmt.lock
  flock "$lock_fd"
  local rc=0
  ensure_binfmt_locked "$@" || rc=$?
  flock -u "$lock_fd"
  exec {lock_fd}>&-
  return "$rc"
}
ensure_binfmt_locked() {
  local arch="$1" name
  case "$arch" in arm64) name=qemu-aarch64 ;; armhf) name=qemu-arm ;; esac
  if ! command -v mmdebstrap >/dev/null 2>&1 || [ ! -x /usr/bin/${name}-static ]; then
    echo "== installing qemu-user-static, binfmt-support and mmdebstrap" >&2
    timeout 600 apt-get update -qq -o Acquire::Retries=5 >/dev/null \
      || { echo "pi_binfmt: apt-get update failed" >&2; return 1; }
    DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -qq \
      -o Acquire::Retries=5 qemu-user-static binfmt-support mmdebstrap >/dev/null \
      || { echo "pi_binfmt: could not install qemu-user-static binfmt-support mmdebstrap" >&2; return 1; }
  fi
  if [ ! -e /proc/sys/fs/binfmt_misc/status ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  fi
  if [ ! -e "/proc/sys/fs/binfmt_misc/$name" ]; then
    update-binfmts --enable "$name" >/dev/null 2>&1 || update-binfmts --enable
  fi
  if ! grep -q '^enabled' "/proc/sys/fs/binfmt_misc/$name" 2>/dev/null; then
    echo "pi_binfmt: binfmt_misc has no enabled $name interpreter; ARM programs cannot run here" >&2
    return 1
  fi
  with_credentials "$name" || return 1
  # The arm64 programs run on a Cortex-A72, the Raspberry Pi 4's core, rather than qemu's
  # default "max" CPU: Debian builds arm64 code with pointer authentication, which the A72
  # lacks (its instructions are no-ops there) and which qemu emulates slowly on "max".
  if [ "$arch" = arm64 ]; then export QEMU_CPU=cortex-a72; fi
}

# with_credentials NAME: NAME's interpreter registered again with binfmt_misc's C flag when
# it lacks it, so that a set-user-ID program (sudo) runs with the rights its own file
# gives, as it does on a Pi; without C (Debian's qemu-user-static registers none) the
# owner's `sudo apt install` in the rootfs fails ("effective uid is not 0"). The rest of
# the registration is kept as it was.
with_credentials() {
  local entry="/proc/sys/fs/binfmt_misc/$1" interpreter flags offset magic mask
  grep -q '^flags: .*C' "$entry" && return 0
  interpreter="$(awk '$1 == "interpreter" { print $2 }' "$entry")"
  flags="$(awk '$1 == "flags:" { print $2 }' "$entry")"
  offset="$(awk '$1 == "offset" { print $2 }' "$entry")"
  magic="$(awk '$1 == "magic" { print $2 }' "$entry" | sed 's/../\\x&/g')"
  mask="$(awk '$1 == "mask" { print $2 }' "$entry" | sed 's/../\\x&/g')"
  echo -1 > "$entry"
  printf ':%s:M:%s:%s:%s:%s:%sOC\n' "$1" "$offset" "$magic" "$mask" "$interpreter" "${flags//[OC]/}" \
    > /proc/sys/fs/binfmt_misc/register
  if ! grep -q '^flags: .*C' "$entry" 2>/dev/null; then
    echo "pi_binfmt: could not register $1 with set-user-ID programs allowed (binfmt_misc's C flag)" >&2
    return 1
  fi
}
