#!/usr/bin/env bash
# The README's commands on an emulated Raspberry Pi OS Lite (.ci/pi_rootfs.sh: what the
# image's own build installs, from Debian's archive, with named stand-ins for what only
# Raspberry Pi's archive has; run by qemu-user through binfmt_misc), done as a new owner
# of a Raspberry Pi does them, on a fresh clone of this checkout's HEAD, against the
# package index (pip's HTTP cache is kept between runs; nothing else is):
#
#   1. the board is made to look like a Raspberry Pi (a Pi's /proc/cpuinfo and device
#      tree from .ci/pi-boards/ bind-mounted in the rootfs); the rootfs is checked to
#      hold what the image holds and nothing more (.ci/pi_os.py check);
#   2. on 32-bit systems, the one package the README has the owner install first
#      (sudo apt install python3-sysv-ipc: Blinka's, with no 32-bit wheel);
#   3. as the user pi, in a fresh clone: `./run --help`, which must install the companion
#      with its board's LED driver (spi) and no test tool, from wheels and the system's
#      packages only: gcc's cc1 and cc1plus are watched, and any call to them fails the
#      step. The log lists which packages came from the system and which from wheels;
#   4. as root: `systemd/install.sh`, twice (a chroot has no systemd: the unit is written,
#      not started); the second run must change nothing, and the clone must be left as
#      it was (no new file, none owned by root); no compiler either;
#   5. as the service user clacks: `clacks hardware status` on each faked board (Pi 4,
#      Pi Zero 2 W, and on arm64 a Pi 5), which must name the board's real problem here:
#      SPI turned on by install.sh but its device not there until a reboot, and on the
#      Pi 5 (the card moved from the Pi 4) its own driver, which the Pi 4 did not install;
#   6. `clacks serve` from the service's venv: its first page must answer, and the time
#      from exec to that answer is printed;
#   7. on Trixie, as pi: `./run test` on the firmware tests, which must pass (on armhf
#      with the test tools that have a 32-bit build; the rest are skipped and say why).
#      CLACKS_CI_ARMHF_TESTS=0 leaves them out on armhf. When CLACKS_CI_AFTER_PC names a
#      file, armhf's tests wait until it exists: .ci/run creates it when its PC stages
#      end, whose browser tests are timing sensitive.
#   On Trixie arm64, right after step 4, the boot test (CLACKS_CI_BOOT_TEST=0 leaves it out):
#      that system booted whole under full-system emulation (.ci/pi_boot.sh).
#   Bookworm, the previous release, runs steps 1 to 4 and 6.
#
#   sudo .ci/pi_emulated.sh [RELEASE:ARCH ...]
#       default: trixie:arm64 trixie:armhf bookworm:arm64, side by side; a bare ARCH
#       means trixie
#
# Needs root (mmdebstrap, chroot, mounts). The rootfs are built by .ci/pi_rootfs.sh and
# cached in /var/cache/clacks-ci.
#
# Every step has a time limit, and CLACKS_CI_DEADLINE (seconds since the epoch, set by
# .ci/run) ends every limit there, so that a cold machine fails the stage clearly within
# CI's time instead of being killed by it. A failing step ends the stage with the end
# of its log. Each system's full log is printed at the end, with the boards faked
# and a table of what each step took: its wall time and the CPU it used (on a loaded
# machine the two differ by the time spent waiting for a core).
set -euo pipefail
cd "$(dirname "$0")/.."
src="$(pwd)"

if [ "$(id -u)" -ne 0 ]; then
  echo "pi_emulated.sh: run as root (sudo $0): it builds and mounts the emulated rootfs" >&2
  exit 1
fi
targets=()
[ "$#" -gt 0 ] || set -- trixie:arm64 trixie:armhf bookworm:arm64
for target in "$@"; do
  case "$target" in arm64|armhf) target="trixie:$target" ;; esac
  case "$target" in trixie:arm64|trixie:armhf|bookworm:arm64|bookworm:armhf) ;;
    *) echo "pi_emulated.sh: RELEASE:ARCH is trixie or bookworm, arm64 or armhf, not '$target'" >&2; exit 2 ;;
  esac
  targets+=("$target")
done
cache="${CLACKS_CI_CACHE:-/var/cache/clacks-ci}"
deadline="${CLACKS_CI_DEADLINE:-}"
logs="$(mktemp -d /tmp/clacks-pi-emulated.XXXXXX)"

# Steps' limits are stretched by CLACKS_CI_STRETCH (default 1): .ci/run starts this stage
# beside the PC stages, which take half the CPU while they run.
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

# run_target RELEASE:ARCH: the whole sequence for one system, its output in
# $logs/RELEASE-ARCH.log, one line per step in $logs/RELEASE-ARCH.steps ("seconds step").
run_target() {
  local release="${1%%:*}" arch="${1#*:}"
  local system="$release-$arch"
  local log="$logs/$system.log" steps="$logs/$system.steps"
  local root boards
  # work and r stay global to this subshell: the EXIT trap runs after run_target returns
  exec > "$log" 2>&1
  say() { printf '== [%s] %s\n' "$system" "$*"; }
  fail() { say "FAILED: $*"; printf "== [%s] FAILED: %s\n" "$system" "$*" >&3; exit 1; }

  # timed_out NAME: why a step that ran out of time failed
  timed_out() {
    if [ "$limit" -lt "$asked" ]; then
      fail "$1 was stopped after $limit s: CI's time for this stage ran out (CLACKS_CI_DEADLINE)"
    fi
    fail "$1 took longer than $limit s"
  }

  # children_cpu: the CPU seconds this system's finished commands have used so far (the
  # emulated processes included). Beside the wall time it tells a step's own cost from
  # the time it waited for a core on a loaded machine.
  # Sets cpu_now. `times` is run by this shell itself (in a subshell it would count the
  # subshell's children: none), its output read from a file.
  children_cpu() {
    times > "$logs/$system.times"
    cpu_now="$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%d\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] + 0.5 }' "$logs/$system.times")"
  }
  # took STARTED CPU_BEFORE NAME: the line of the time table for a step that just ended
  took() {
    children_cpu
    printf '%5d s  %5d s  %s\n' "$((SECONDS - $1))" "$((cpu_now - $2))" "$3" >> "$steps"
  }

  # step NAME SECONDS CMD...: runs CMD (in_root ...) with a time limit, timing it
  step() {
    local name="$1" started=$SECONDS cpu_before rc=0
    children_cpu
    cpu_before=$cpu_now
    asked=$(($2 * stretch))
    limit="$(within "$2")"
    shift 2
    say "$name"
    printf '== [%s] %s (at most %d s)\n' "$system" "$name" "$limit" >&3  # progress, as it goes
    [ "$limit" -gt 0 ] || timed_out "$name"
    "$@" || rc=$?
    took "$started" "$cpu_before" "$name"
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then timed_out "$name"; fi
    [ "$rc" = 0 ] || fail "$name (exit status $rc)"
  }

  local started=$SECONDS rc=0 cpu_before cpu_now
  children_cpu
  cpu_before=$cpu_now
  # the lock: .ci/run may be building it in the background already
  mkdir -p "$cache"
  asked=$((3600 * stretch))
  limit="$(within 3600)"
  [ "$limit" -gt 0 ] || timed_out "the $system rootfs"
  root="$(CLACKS_CI_ROOTFS_LIMIT="$limit" timeout "$limit" flock "$cache/rootfs-$system.lock" "$src/.ci/pi_rootfs.sh" "$release" "$arch")" \
    || rc=$?
  took "$started" "$cpu_before" "rootfs (mmdebstrap, or the cached one)"
  if [ "$rc" = 124 ]; then timed_out "building the $system rootfs (log: $cache/rootfs/mmdebstrap-$system.log)"; fi
  [ "$rc" = 0 ] || fail "the $system rootfs could not be built (log: $cache/rootfs/mmdebstrap-$system.log)"
  source "$src/.ci/pi_binfmt.sh"
  ensure_binfmt "$arch"

  # A throw-away layer over the cached rootfs: every run starts from the same clean image.
  work="$(mktemp -d "/tmp/clacks-pi-$system.XXXXXX")"
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
  # pip's HTTP cache, kept between runs: one for pi and one for root (pip uses a cache
  # only if its owner runs it), each filled by its own user's downloads
  mkdir -p "$cache/pip-$system/pi" "$cache/pip-$system/root" "$r/var/cache/pip"
  chown -R 1000:1000 "$cache/pip-$system/pi"
  chown -R 0:0 "$cache/pip-$system/root"
  mount --bind "$cache/pip-$system" "$r/var/cache/pip"
  mkdir -p "$r/src"
  mount --bind -o ro "$src" "$r/src"  # for .ci/pi_serve_check.sh

  # in_root [USER] -- CMD...: runs CMD in the rootfs, as USER (default root), with a
  # clean environment as a login shell would give it, within the step's time limit
  in_root() {
    local user=root
    if [ "$1" != -- ]; then user="$1"; shift; fi
    shift
    local home=/root
    [ "$user" = root ] || home="$(chroot "$r" getent passwd "$user" | cut -d: -f6)"
    timeout --kill-after=30 "${limit:-600}" \
      chroot "$r" runuser -u "$user" -- env -i ${QEMU_CPU:+QEMU_CPU="$QEMU_CPU"} HOME="$home" USER="$user" LANG=C.UTF-8 \
      PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      PIP_CACHE_DIR="/var/cache/pip/$user" "$@"
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
    grep -qx "$1: .*" "$logs/$system.boards" 2>/dev/null \
      || echo "$1: $(tr -d '\0' < "$board/device-tree/model")" >> "$logs/$system.boards"
  }

  local first_board=pi4
  [ "$arch" = armhf ] && first_board=z2w
  fake_board "$first_board"

  step "the rootfs holds what Raspberry Pi OS Lite ($release, $arch) holds, nothing more" 120 \
    python3 "$src/.ci/pi_os.py" check "$release" "$arch" "$r"
  say "Python in the rootfs: $(in_root -- python3 -c 'import platform, sys; print(sys.version.split()[0], platform.machine())')"

  # gcc's compilers proper, watched in this run's layer: every C or C++ compile goes
  # through cc1 or cc1plus, whichever driver (cc, gcc, aarch64-linux-gnu-gcc-14) called
  # them; each call is logged in /var/log/clacks-compiler-calls, then compiles as usual
  local compiler
  for compiler in $(find "$r/usr/libexec/gcc" -type f \( -name cc1 -o -name cc1plus \) 2>/dev/null); do
    mv "$compiler" "$compiler.real"
    printf '#!/bin/sh\necho "$(date +%%T) %s $*" >> /var/log/clacks-compiler-calls\nexec "$0.real" "$@"\n' \
      "${compiler#"$r"}" > "$compiler"
    chmod 0755 "$compiler"
  done
  install -m 0666 /dev/null "$r/var/log/clacks-compiler-calls"
  # shellcheck disable=SC2317  # called by step
  no_compiler() {
    if [ -s "$r/var/log/clacks-compiler-calls" ]; then
      echo "a compiler was invoked:"; head -n 20 "$r/var/log/clacks-compiler-calls"; return 1
    fi
    echo "no compiler was invoked (gcc's cc1 and cc1plus are watched)"
  }

  # cloned from outside (a checkout may be a git worktree, whose repository lies outside
  # it; a new owner without git copies the checkout, as the README says), then handed to
  # pi as if pi had cloned it
  local clone=/home/pi/clacks-exchange
  say "git clone of $(git -C "$src" rev-parse --short HEAD) into $clone"
  git clone -q "$src" "$r$clone"
  chown -R 1000:1000 "$r$clone"

  if [ "$arch" = armhf ]; then
    # the README's one extra package on 32-bit systems, from Debian's archive
    step "sudo apt install python3-sysv-ipc (as pi; 32-bit systems, as the README says)" 1200 \
      in_root pi -- bash -c "sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-sysv-ipc > /dev/null"
  fi
  step "./run --help (as pi, a fresh clone, from the package index)" 2400 in_root pi -- \
    bash -c "cd $clone && ./run --help > /dev/null"
  step "./run --help compiled nothing" 30 no_compiler
  step "the venv: the system's lgpio, gpiod and spidev, the spi driver, no test tool" 300 \
    in_root pi -- bash -c "cd /tmp && $clone/.venv/bin/python - <<'PY'
import importlib.metadata as metadata, sys
import gpiod, lgpio, spidev
venv = '$clone/.venv/'
for module in (lgpio, gpiod, spidev):
    if module.__file__.startswith(venv):
        sys.exit(f'{module.__name__} was installed into the venv, not taken from the system')
    print(module.__name__, 'from the system:', module.__file__)
installed = {d.metadata['Name'].lower() for d in metadata.distributions()}
test_tools = {'pytest', 'hypothesis', 'mypy', 'ruff', 'playwright', 'schemathesis'} & installed
if test_tools:
    sys.exit(f'./run --help installed test tools: {sorted(test_tools)}')
other_drivers = {'rpi-ws281x', 'adafruit-blinka-raspberry-pi-pwm', 'adafruit-blinka-raspberry-pi5-neopixel'} & installed
if other_drivers:
    sys.exit(f'./run --help installed another board\'s LED driver: {sorted(other_drivers)}')
for package in ('adafruit-blinka', 'adafruit-circuitpython-neopixel-spi'):
    print(package, metadata.version(package))
print(len(installed), 'distributions seen, no test tool and no other LED driver among them')
PY"

  step "systemd/install.sh (as root, first run)" 2400 in_root -- \
    bash -c "cd $clone && systemd/install.sh"
  step "systemd/install.sh again: nothing changes" 600 in_root -- \
    bash -c "cd $clone && systemd/install.sh 2> /tmp/second-run.txt; status=\$?; cat /tmp/second-run.txt >&2
      [ \$status = 0 ] && grep -q 'all is up to date' /tmp/second-run.txt"
  step "systemd/install.sh compiled nothing" 30 no_compiler
  # with this machine's git: a fresh image has none
  # shellcheck disable=SC2317  # called by step
  clone_untouched() {
    local changed root_owned
    root_owned="$(cd "$r$clone" && find . -path ./.venv -prune -o -user root -print | head)"
    # --no-optional-locks: git, as root here, must not rewrite pi's index
    changed="$(git --no-optional-locks -c safe.directory='*' -C "$r$clone" status --porcelain --untracked-files=all)"
    [ -z "$changed" ] || echo "changed in the clone: $changed"
    [ -z "$root_owned" ] || echo "owned by root in the clone: $root_owned"
    [ -z "$changed" ] && [ -z "$root_owned" ]
  }
  step "the clone is as it was: git status clean, no file owned by root" 120 clone_untouched
  if [ "$system" = trixie-arm64 ] && [ "${CLACKS_CI_BOOT_TEST:-1}" = 1 ]; then
    # shellcheck disable=SC2317  # called by step
    boot_test() { timeout --kill-after=30 "$limit" "$src/.ci/pi_boot.sh" "$r"; }
    step "the boot test: this system booted whole under qemu-system-aarch64 (.ci/pi_boot.sh)" 2400 \
      boot_test
  fi

  local boards=(pi4 z2w)
  [ "$arch" = arm64 ] && boards+=(pi5)
  [ "$release" = trixie ] || boards=()  # the previous release: install and serve
  for board in "${boards[@]}"; do
    fake_board "$board"
    local expect="not there until the Pi restarts"
    # installed on a Pi 4 (or Zero 2 W), the card moved to a Pi 5: its driver is named
    [ "$board" = pi5 ] && expect="install.sh --led pi5"
    step "clacks hardware status on the $board (as clacks): '$expect'" 600 in_root clacks -- \
      bash -c "cd /tmp && CLACKS_CONFIG=/etc/clacks/config.toml /opt/clacks/venv/bin/clacks hardware status > /tmp/status-$board.txt 2>&1
        status=\$?; cat /tmp/status-$board.txt; grep -qF \"$expect\" /tmp/status-$board.txt"
  done
  fake_board "$first_board"

  local port
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  step "clacks serve (as clacks): the first page answers" 600 in_root clacks -- \
    bash /src/.ci/pi_serve_check.sh /opt/clacks/venv/bin/clacks "$port"

  if [ "$release" != trixie ]; then
    say "all steps passed (the previous release: install and serve)"
    return 0
  fi
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
for target in "${targets[@]}"; do
  ( run_target "$target" ) &
  pids+=("$!")
done
status=0
for i in "${!targets[@]}"; do
  wait "${pids[$i]}" || status=1
done
for target in "${targets[@]}"; do
  echo
  echo "================ emulated Raspberry Pi OS, ${target/:/ }: log ================"
  cat "$logs/${target/:/-}.log"
done
echo
for target in "${targets[@]}"; do
  system="${target/:/-}"
  echo "================ emulated Raspberry Pi OS, ${target/:/ }: time per step ================"
  echo "boards faked: $(paste -sd ';' "$logs/$system.boards" 2>/dev/null | sed 's/;/; /g')"
  echo "   wall  CPU used"
  cat "$logs/$system.steps" 2>/dev/null || true
  awk '{ wall += $1; cpu += $3 } END { printf "%5d s  %5d s  in all\n", wall, cpu }' "$logs/$system.steps" 2>/dev/null || true
  if grep -h "FAILED:" "$logs/$system.log"; then
    # the full log is far above; what failed is at its end
    echo "---- the end of the $system log ----"
    tail -n 40 "$logs/$system.log"
  fi
done
echo "this machine's load when the stage ended: $(cut -d ' ' -f 1-3 /proc/loadavg) ($(nproc) cores)"
rm -rf "$logs"
if [ "$status" != 0 ]; then
  echo "pi_emulated.sh: the emulated Raspberry Pi OS stage FAILED (the log above says where)" >&2
fi
exit "$status"
