#!/usr/bin/env bash
# The README's commands on an emulated Raspberry Pi OS (Debian Bookworm for arm64 and
# armhf, run by qemu-user through binfmt_misc), done as a new owner of a Raspberry Pi
# would do them, on a fresh clone of this checkout's HEAD:
#
#   1. the board is made to look like a Raspberry Pi (a Pi's /proc/cpuinfo and device
#      tree from .ci/pi-boards/ bind-mounted in the rootfs);
#   2. as the user pi, in a fresh clone: `./run --help`, which must install the companion
#      with the Pi's LED drivers and lgpio, and no test tool;
#   3. as root: `systemd/install.sh`, twice (a chroot has no systemd: the unit is written,
#      not started); the second run must change nothing, and the clone must be left as
#      it was (no new file, none owned by root);
#   4. as the service user clacks: `clacks hardware status` on each faked board (Pi 4,
#      Pi Zero 2 W, and on arm64 a Pi 5), which must name the board's real problem here:
#      SPI turned on by install.sh but its device not there until a reboot, and on the
#      Pi 5 no PIO device;
#   5. `clacks serve` from the service's venv: its first page must answer, and the time
#      from exec to that answer is printed;
#   6. as pi: `./run test` on the firmware tests, which must pass (on armhf with the test
#      tools that have a 32-bit build; the rest are skipped and say why).
#      CLACKS_CI_ARMHF_TESTS=0 leaves them out on armhf (install + status + serve).
#      When CLACKS_CI_AFTER_PC names a file, armhf's tests wait until it exists: .ci/run
#      creates it when its PC stages end, whose browser tests are timing sensitive and
#      failed once under both arches' emulated tests beside them.
#
#   sudo .ci/pi_emulated.sh [arm64] [armhf]      (default: both, side by side)
#
# Needs root (mmdebstrap, chroot, mounts). The rootfs are built by .ci/pi_rootfs.sh and
# cached in /var/cache/clacks-ci. Kept there too, per architecture: a wheelhouse of every
# wheel the steps install, resolved from the package index by `pip wheel` under
# emulation (downloaded, or built from source: the LED drivers) and keyed by the rootfs
# and the requirements (.ci/pi_wheel_requirements.py). The steps' pip installs from it
# alone (PIP_FIND_LINKS, PIP_NO_INDEX), so a warm run neither compiles nor downloads:
# under emulation the index's TLS handshakes are slow enough on a loaded machine for a
# proxy to reset them, and pip's retries then took longer than the step may. It is filled
# again from the index when older than CLACKS_CI_WHEELHOUSE_DAYS (default 30), so new
# releases still reach the stage; .ci/pi_platforms.py resolves against the live index on
# every run. pip's HTTP cache cannot help: a proxy that strips the index's Cache-Control
# and ETag headers (as this machine's does) leaves it nothing to keep.
#
# Every step has a time limit, and CLACKS_CI_DEADLINE (seconds since the epoch, set by
# .ci/run) ends every limit there, so that a cold machine fails the stage clearly within
# CI's time instead of being killed by it. A failing step ends the stage with the end
# of its log. Each architecture's full log is printed at the end, with the boards faked
# and a table of what each step took.
set -euo pipefail
cd "$(dirname "$0")/.."
src="$(pwd)"

if [ "$(id -u)" -ne 0 ]; then
  echo "pi_emulated.sh: run as root (sudo $0): it builds and mounts the emulated rootfs" >&2
  exit 1
fi
arches=("$@")
[ "${#arches[@]}" -gt 0 ] || arches=(arm64 armhf)
for arch in "${arches[@]}"; do
  case "$arch" in arm64|armhf) ;; *) echo "pi_emulated.sh: arm64 or armhf, not '$arch'" >&2; exit 2 ;; esac
done
cache="${CLACKS_CI_CACHE:-/var/cache/clacks-ci}"
deadline="${CLACKS_CI_DEADLINE:-}"
logs="$(mktemp -d /tmp/clacks-pi-emulated.XXXXXX)"

# Steps' limits are stretched by CLACKS_CI_STRETCH (default 1): .ci/run starts this stage
# beside the PC stages at the lowest priority, where a step gets what CPU they leave.
stretch="${CLACKS_CI_STRETCH:-1}"

# within SECONDS: SECONDS (stretched), or fewer if CLACKS_CI_DEADLINE comes sooner
within() {
  local limit=$(($1 * stretch)) left
  if [ -n "$deadline" ]; then
    left=$((deadline - $(date +%s)))
    [ "$left" -lt "$limit" ] && limit="$left"
  fi
  echo "$limit"
}

# run_arch ARCH: the whole sequence for one architecture, its output in $logs/ARCH.log,
# one line per step in $logs/ARCH.steps ("seconds step-name").
run_arch() {
  local arch="$1" log="$logs/$1.log" steps="$logs/$1.steps"
  local root boards
  # work and r stay global to this subshell: the EXIT trap runs after run_arch returns
  exec > "$log" 2>&1
  say() { printf '== [%s] %s\n' "$arch" "$*"; }
  fail() { say "FAILED: $*"; printf "== [%s] FAILED: %s\n" "$arch" "$*" >&3; exit 1; }

  # timed_out NAME: why a step that ran out of time failed
  timed_out() {
    if [ "$limit" -lt "$asked" ]; then
      fail "$1 was stopped after $limit s: CI's time for this stage ran out (CLACKS_CI_DEADLINE)"
    fi
    fail "$1 took longer than $limit s"
  }

  # step NAME SECONDS CMD...: runs CMD (in_root ...) with a time limit, timing it
  step() {
    local name="$1" started=$SECONDS rc=0
    asked=$(($2 * stretch))
    limit="$(within "$2")"
    shift 2
    say "$name"
    printf '== [%s] %s (at most %d s)\n' "$arch" "$name" "$limit" >&3  # progress, as it goes
    [ "$limit" -gt 0 ] || timed_out "$name"
    "$@" || rc=$?
    printf '%5d s  %s\n' "$((SECONDS - started))" "$name" >> "$steps"
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then timed_out "$name"; fi
    [ "$rc" = 0 ] || fail "$name (exit status $rc)"
  }

  local started=$SECONDS rc=0
  # the lock: .ci/run may be building it in the background already
  mkdir -p "$cache"
  asked=$((3600 * stretch))
  limit="$(within 3600)"
  [ "$limit" -gt 0 ] || timed_out "the $arch rootfs"
  root="$(timeout "$limit" flock "$cache/rootfs-$arch.lock" "$src/.ci/pi_rootfs.sh" "$arch")" \
    || rc=$?
  printf '%5d s  %s\n' "$((SECONDS - started))" "rootfs (mmdebstrap, or the cached one)" >> "$steps"
  if [ "$rc" = 124 ]; then timed_out "building the $arch rootfs (log: $cache/rootfs/mmdebstrap-$arch.log)"; fi
  [ "$rc" = 0 ] || fail "the $arch rootfs could not be built (log: $cache/rootfs/mmdebstrap-$arch.log)"
  source "$src/.ci/pi_binfmt.sh"
  ensure_binfmt "$arch"

  # A throw-away layer over the cached rootfs: every run starts from the same clean image.
  work="$(mktemp -d "/tmp/clacks-pi-$arch.XXXXXX")"
  mkdir -p "$work/upper" "$work/work" "$work/root"
  mount -t overlay overlay -o "lowerdir=$root,upperdir=$work/upper,workdir=$work/work" \
    "$work/root"
  r="$work/root"
  cleanup() {
    local mounted process
    # whatever still runs in the rootfs (a step that ran out of time) goes first
    for process in /proc/[0-9]*; do
      [ "$(readlink "$process/root" 2>/dev/null)" = "$r" ] && kill -9 "${process#/proc/}" 2>/dev/null
    done
    # then the mounts, innermost first
    mounted="$(awk -v r="$r" '$2 == r || index($2, r "/") == 1 { print $2 }' /proc/mounts | sort -r)"
    for m in $mounted; do umount -l "$m" 2>/dev/null || true; done
    rm -rf --one-file-system "$work"
  }
  trap cleanup EXIT

  mount -t proc proc "$r/proc"
  mount -t tmpfs -o mode=0755 sysfs-stand-in "$r/sys"
  mount --rbind /dev "$r/dev"
  mount --make-rslave "$r/dev"  # unmounting it later must not reach this machine's /dev
  mount -t tmpfs -o mode=1777 tmp "$r/tmp"
  cp /etc/resolv.conf "$r/etc/resolv.conf"
  # the same routes as this machine: its certificate authorities too (a machine that
  # reaches the package index through an inspecting proxy trusts that proxy's CA)
  mount --bind -o ro /etc/ssl/certs/ca-certificates.crt "$r/etc/ssl/certs/ca-certificates.crt"
  # pip checks certificates against its own bundled list unless told otherwise
  printf 'cert = /etc/ssl/certs/ca-certificates.crt\n' >> "$r/etc/pip.conf"
  # pip's cache, kept between runs: one for pi and one for root (pip uses a cache only
  # if its owner runs it)
  mkdir -p "$cache/pip-$arch/pi" "$cache/pip-$arch/root" "$r/var/cache/pip"
  chown -R 1000:1000 "$cache/pip-$arch/pi"
  chown -R 0:0 "$cache/pip-$arch/root"
  mount --bind "$cache/pip-$arch" "$r/var/cache/pip"
  mkdir -p "$r/src"
  mount --bind -o ro "$src" "$r/src"  # for .ci/pi_serve_check.sh

  # The wheelhouse: what goes into it is what the steps below install here (the firmware
  # tests' tools too where they run), and the rootfs's Python
  local extras=(pi)
  if [ "$arch" = arm64 ]; then extras+=(test)
  elif [ "${CLACKS_CI_ARMHF_TESTS:-1}" = 1 ]; then extras+=(test-core); fi
  python3 "$src/.ci/pi_wheel_requirements.py" "${extras[@]}" > "$logs/$arch.requirements" \
    || fail "the requirements for the wheelhouse could not be read from pyproject.toml"
  local wheelhouse_key wheelhouse
  wheelhouse_key="$( { basename "$root"; cat "$logs/$arch.requirements"; } | sha256sum | cut -c1-16)"
  wheelhouse="wheelhouse-$wheelhouse_key"

  # in_root [USER] -- CMD...: runs CMD in the rootfs, as USER (default root), with a
  # clean environment as a login shell would give it, within the step's time limit;
  # pip finds the wheelhouse's wheels before it downloads or builds any
  in_root() {
    local user=root
    if [ "$1" != -- ]; then user="$1"; shift; fi
    shift
    local home=/root
    [ "$user" = root ] || home="$(chroot "$r" getent passwd "$user" | cut -d: -f6)"
    local find_links=()
    [ -f "$cache/pip-$arch/$wheelhouse/.complete" ] && [ -z "${filling:-}" ] \
      && find_links=(PIP_NO_INDEX=1 PIP_FIND_LINKS="/var/cache/pip/$wheelhouse")
    timeout --kill-after=30 "${limit:-600}" \
      chroot "$r" runuser -u "$user" -- env -i HOME="$home" USER="$user" LANG=C.UTF-8 \
      PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      PIP_CACHE_DIR="/var/cache/pip/$user" "${find_links[@]}" "$@"
  }

  # fill_wheelhouse: `pip wheel` of the requirements as pi, once per key and age (a
  # concurrent run waits for the one filling it), into a directory renamed when
  # complete; older wheelhouses of this architecture are removed
  fill_wheelhouse() {
    (
      flock -w "$limit" 9 || exit 124
      local days="${CLACKS_CI_WHEELHOUSE_DAYS:-30}"
      if [ -f "$cache/pip-$arch/$wheelhouse/.complete" ] \
          && [ -z "$(find "$cache/pip-$arch/$wheelhouse/.complete" -mtime "+$days")" ]; then
        echo "reusing $cache/pip-$arch/$wheelhouse ($(find "$cache/pip-$arch/$wheelhouse" -name '*.whl' | wc -l) wheels, filled $(date -r "$cache/pip-$arch/$wheelhouse/.complete" +%F))"
        exit 0
      fi
      local building="$wheelhouse.building"
      rm -rf "${cache:?}/pip-$arch/$building"
      install -d -o 1000 -g 1000 "$cache/pip-$arch/$building"
      cp "$logs/$arch.requirements" "$r/tmp/wheel-requirements.txt"
      local filling=1  # from the index, whatever an older wheelhouse holds
      in_root pi -- python3 -m pip wheel --quiet --wheel-dir "/var/cache/pip/$building" \
        -r /tmp/wheel-requirements.txt || exit
      # the project itself is not among them, so every wheel is a dependency's
      chmod -R a+rX "$cache/pip-$arch/$building"
      touch "$cache/pip-$arch/$building/.complete"
      find "$cache/pip-$arch" -mindepth 1 -maxdepth 1 -name 'wheelhouse-*' \
        ! -name "$building" -exec rm -rf --one-file-system {} +
      mv "$cache/pip-$arch/$building" "$cache/pip-$arch/$wheelhouse"
      echo "built $cache/pip-$arch/$wheelhouse: $(find "$cache/pip-$arch/$wheelhouse" -name '*.whl' | wc -l) wheels"
      ls "$cache/pip-$arch/$wheelhouse"
    ) 9> "$cache/pip-$arch/wheelhouse.lock"
  }

  # fake_board NAME: the rootfs's /proc/cpuinfo and device tree become board NAME's
  fake_board() {
    local board="$src/.ci/pi-boards/$1"
    umount "$r/proc/cpuinfo" 2>/dev/null || true
    mount --bind "$board/cpuinfo" "$r/proc/cpuinfo"
    rm -rf "$r/sys/firmware"
    mkdir -p "$r/sys/firmware/devicetree/base"
    cp -r "$board/device-tree/." "$r/sys/firmware/devicetree/base/"
    say "faked board: $(tr -d '\0' < "$board/device-tree/model") ($1: $board)"
    grep -qx "$1: .*" "$logs/$arch.boards" 2>/dev/null \
      || echo "$1: $(tr -d '\0' < "$board/device-tree/model")" >> "$logs/$arch.boards"
  }

  local first_board=pi4
  [ "$arch" = armhf ] && first_board=z2w
  fake_board "$first_board"

  step "the wheelhouse (pip wheel under emulation, or the cached one)" 3600 fill_wheelhouse

  say "Python in the rootfs: $(in_root -- python3 -c 'import platform, sys; print(sys.version.split()[0], platform.machine())')"
  # cloned from outside (a checkout may be a git worktree, whose repository lies outside
  # it), then handed to pi as if pi had cloned it
  local clone=/home/pi/clacks-exchange
  say "git clone of $(git -C "$src" rev-parse --short HEAD) into $clone"
  git clone -q "$src" "$r$clone"
  chown -R 1000:1000 "$r$clone"

  step "./run --help (as pi, a fresh clone)" 2400 in_root pi -- \
    bash -c "cd $clone && ./run --help > /dev/null"
  step "the venv has lgpio and the LED drivers, and no test tool" 300 in_root pi -- \
    bash -c "cd /tmp && $clone/.venv/bin/python - <<'PY'
import importlib.metadata as metadata, importlib.util as util, sys
import lgpio
print('lgpio', metadata.version('lgpio'), 'imports from', lgpio.__file__)
installed = {d.metadata['Name'].lower() for d in metadata.distributions()}
test_tools = {'pytest', 'hypothesis', 'mypy', 'ruff', 'playwright', 'schemathesis'} & installed
if test_tools:
    sys.exit(f'./run --help installed test tools: {sorted(test_tools)}')
for package in ('adafruit-blinka', 'gpiod', 'rpi-ws281x', 'adafruit-blinka-raspberry-pi-pwm'):
    print(package, metadata.version(package))
print(len(installed), 'distributions installed, no test tool among them')
PY"

  # root's pip may use only a cache root owns: what pi's has (the LED drivers built
  # from source on armhf) is copied over rather than built a second time
  cp -a "$cache/pip-$arch/pi/." "$cache/pip-$arch/root/"
  chown -R 0:0 "$cache/pip-$arch/root"
  step "systemd/install.sh (as root, first run)" 2400 in_root -- \
    bash -c "cd $clone && systemd/install.sh"
  step "systemd/install.sh again: nothing changes" 600 in_root -- \
    bash -c "cd $clone && systemd/install.sh 2> /tmp/second-run.txt; status=\$?; cat /tmp/second-run.txt >&2
      [ \$status = 0 ] && grep -q 'all is up to date' /tmp/second-run.txt"
  step "the clone is as it was: git status clean, no file owned by root" 120 in_root pi -- \
    bash -c "cd $clone && git status --porcelain --untracked-files=all > /tmp/status.txt
      root_owned=\$(find . -path ./.venv -prune -o -user root -print | head)
      cat /tmp/status.txt; [ ! -s /tmp/status.txt ] && [ -z \"\$root_owned\" ] || { echo root-owned: \$root_owned; exit 1; }"

  local boards=(pi4 z2w)
  [ "$arch" = arm64 ] && boards+=(pi5)
  for board in "${boards[@]}"; do
    fake_board "$board"
    local expect="not there until the Pi restarts"
    [ "$board" = pi5 ] && expect="no driver for the Raspberry Pi 5's PIO"
    step "clacks hardware status on the $board (as clacks): '$expect'" 600 in_root clacks -- \
      bash -c "cd /tmp && CLACKS_CONFIG=/etc/clacks/config.toml /opt/clacks/venv/bin/clacks hardware status > /tmp/status-$board.txt 2>&1
        status=\$?; cat /tmp/status-$board.txt; grep -qF \"$expect\" /tmp/status-$board.txt"
  done
  fake_board "$first_board"

  local port
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  step "clacks serve (as clacks): the first page answers" 600 in_root clacks -- \
    bash /src/.ci/pi_serve_check.sh /opt/clacks/venv/bin/clacks "$port"

  if [ "$arch" = armhf ] && [ "${CLACKS_CI_ARMHF_TESTS:-1}" = 1 ] && [ -n "${CLACKS_CI_AFTER_PC:-}" ]; then
    # shellcheck disable=SC2317  # called by step
    after_pc() { timeout "$limit" bash -c 'until [ -e "$1" ]; do sleep 5; done' _ "$CLACKS_CI_AFTER_PC"; }
    step "waiting for the PC stages to end (they are timing sensitive)" 3600 after_pc
  fi
  if [ "$arch" = arm64 ] || [ "${CLACKS_CI_ARMHF_TESTS:-1}" = 1 ]; then
    # the firmware simulation's fast-tier games cut to one per LED mounting (16 of 62):
    # the same pure-Python code as on the PC, where all 500 run
    step "./run test on the firmware tests (as pi)" 1800 in_root pi -- \
      bash -c "cd $clone && CLACKS_FIRMWARE_GAMES=128 ./run test -p no:randomly -q -rs --durations=10 tests/test_firmware_*.py"
  else
    say "the firmware tests are not run on armhf (CLACKS_CI_ARMHF_TESTS=0): install + status + serve only"
  fi
  say "all steps passed"
}

exec 3>&1
pids=()
for arch in "${arches[@]}"; do
  ( run_arch "$arch" ) &
  pids+=("$!")
done
status=0
for i in "${!arches[@]}"; do
  wait "${pids[$i]}" || status=1
done
for arch in "${arches[@]}"; do
  echo
  echo "================ emulated Raspberry Pi OS, $arch: log ================"
  cat "$logs/$arch.log"
done
echo
for arch in "${arches[@]}"; do
  echo "================ emulated Raspberry Pi OS, $arch: time per step ================"
  echo "boards faked: $(paste -sd ';' "$logs/$arch.boards" 2>/dev/null | sed 's/;/; /g')"
  cat "$logs/$arch.steps" 2>/dev/null || true
  awk '{ total += $1 } END { printf "%5d s  in all\n", total }' "$logs/$arch.steps" 2>/dev/null || true
  if grep -h "FAILED:" "$logs/$arch.log"; then
    # the full log is far above; what failed is at its end
    echo "---- the end of the $arch log ----"
    tail -n 40 "$logs/$arch.log"
  fi
done
rm -rf "$logs"
if [ "$status" != 0 ]; then
  echo "pi_emulated.sh: the emulated Raspberry Pi OS stage FAILED (the log above says where)" >&2
fi
exit "$status"
