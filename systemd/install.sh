#!/usr/bin/env bash
# Install the Clacks Exchange as a service on Raspberry Pi OS: Trixie (Debian 13, Python
# 3.13), the current release, or Bookworm (Debian 12, Python 3.11), 64-bit or 32-bit.
#
#   sudo systemd/install.sh                 everything: packages, boot settings, user, venv, service
#   sudo systemd/install.sh --led spi       the SPI LED driver on GPIO10 (a Pi 3, 4, Zero 2 W)
#   sudo systemd/install.sh --led pwm       the PWM LED driver on GPIO18 (runs as root; compiled here)
#   sudo systemd/install.sh --led pi5       the Raspberry Pi 5 driver (PIO; SPI left off)
#
# Without --led the LED driver stays the one the settings name (leds.backend in
# /etc/clacks/config.toml), or on a first install the board's own (auto: pi5 on a Pi 5,
# spi on any other Pi); with --led the settings are changed to it.
#
# What it does:
#   1. apt, only for what is missing: python3-venv, avahi (the Pi answers as
#      HOSTNAME.local) and the libraries the companion uses from Raspberry Pi OS, which a
#      fresh image has: python3-lgpio (gpiozero's pins), python3-gpiozero, and for the
#      SPI driver python3-libgpiod and python3-spidev (and python3-sysv-ipc on 32-bit
#      systems, where Blinka's sysv_ipc has no wheel). Nothing is compiled for the spi
#      and pi5 drivers. For --led pwm only: build-essential and python3-dev, since
#      rpi_ws281x and Blinka's PWM backend come only as C sources compiled here.
#   2. the boot settings the LED driver needs, in /boot/firmware/config.txt
#      (systemd/boot-config.sh): for spi, SPI on and the core clock held still (a Pi 3
#      or Zero 2 W core_freq=250, a Pi 4 core_freq=500 and core_freq_min=500); for pwm,
#      the onboard audio off; for pi5, nothing (SPI stays off: it would claim GPIO10).
#      A reboot makes them take effect.
#   3. creates the system user `clacks`, in the gpio and spi groups
#   4. on a Raspberry Pi 5: a udev rule giving /dev/pio0 (the PIO the pi5 LED driver
#      uses) to the gpio group, unless the device already belongs to it
#      (systemd/pio-rule.sh)
#   5. a virtual environment in /opt/clacks/venv WITH the system site packages (the
#      libraries of step 1), and the Clacks Exchange with its LED driver's extra in it
#      (spi, pwm or pi5), from wheels only unless the driver is pwm. It is built from a
#      copy of the sources in a temporary directory, so the checkout gets no build files
#      (and none owned by root).
#   6. /etc/clacks/config.toml with the default settings (kept if it exists; only its LED
#      driver is rewritten when --led names another)
#   7. the systemd unit, enabled, and (re)started when anything above changed what it
#      runs; where systemd is not running (a container, a chroot) it is only enabled
# Running it again changes nothing that is already in place: apt runs only for a missing
# package, the venv is reinstalled only when the sources or the extras changed, a file
# is written only if it differs, and a running service is left running.
#
# Options for staging or testing (nothing outside the given directories is touched):
#   --prefix DIR       where the venv goes (default /opt/clacks)
#   --config-dir DIR   where config.toml goes (default /etc/clacks)
#   --unit-dir DIR     where the unit goes (default /etc/systemd/system)
#   --boot-config FILE the boot configuration to edit (default: /boot/firmware/config.txt;
#                      with --no-system only when given)
#   --udev-dir DIR     where the /dev/pio0 rule goes (default /etc/udev/rules.d; with
#                      --no-system only when given)
#   --pio-device FILE  the Pi 5's PIO device (default /dev/pio0)
#   --model-file FILE  the board's model (default /proc/device-tree/model, or where
#                      that link is missing, /sys/firmware/devicetree/base/model: the
#                      two places firmware/detect.py reads)
#   --gpio-group NAME  the group that gets the GPIO devices (default gpio)
#   --no-system        skip apt, the boot settings, the user and systemctl (no root needed)
#   --no-pi-extra      leave out the LED driver packages (machines that are not Pis)
set -euo pipefail

src="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/opt/clacks
config_dir=/etc/clacks
unit_dir=/etc/systemd/system
boot_config=""
udev_dir=""
pio_device=/dev/pio0
model_file=/proc/device-tree/model
[ -e "$model_file" ] || [ ! -e /sys/firmware/devicetree/base/model ] \
  || model_file=/sys/firmware/devicetree/base/model
gpio_group=gpio
system=1
pi_extra=1
led=""  # keep what the settings say (auto on a first install)

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="$2"; shift 2 ;;
    --config-dir) config_dir="$2"; shift 2 ;;
    --unit-dir) unit_dir="$2"; shift 2 ;;
    --boot-config) boot_config="$2"; shift 2 ;;
    --udev-dir) udev_dir="$2"; shift 2 ;;
    --pio-device) pio_device="$2"; shift 2 ;;
    --model-file) model_file="$2"; shift 2 ;;
    --gpio-group) gpio_group="$2"; shift 2 ;;
    --no-system) system=0; shift ;;
    --no-pi-extra) pi_extra=0; shift ;;
    --led)
      case "$2" in auto|spi|pwm|pi5|simulator) led="$2" ;;
        *) echo "install.sh: --led must be auto, spi, pwm, pi5 or simulator, not '$2'" >&2; exit 2 ;;
      esac
      shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for dir in "$prefix" "$config_dir" "$unit_dir" ${boot_config:+"$boot_config"} \
    ${udev_dir:+"$udev_dir"} "$pio_device" "$model_file"; do
  case "$dir" in /*) ;; *) echo "install.sh: '$dir' must be an absolute path" >&2; exit 2 ;; esac
done

say() { printf '== %s\n' "$*" >&2; }
changed=0  # set when something the running service uses was installed or written

# The LED driver: --led, else the one the settings name, else auto.
config="$config_dir/config.toml"
configured=""
if [ -f "$config" ]; then
  configured="$(sed -n '/^\[leds\]/,/^\[/ s/^backend *= *"\([a-z0-9]*\)".*/\1/p' "$config" | head -n 1)"
fi
if [ -z "$led" ]; then
  led="${configured:-auto}"
  [ -z "$configured" ] || say "the LED driver stays the one $config names: $led (--led changes it)"
fi
model="$(tr -d '\0' < "$model_file" 2>/dev/null || true)"
board_led="$led"
if [ "$led" = auto ]; then
  case "$model" in
    "Raspberry Pi 5"*|"Raspberry Pi 500"*|"Raspberry Pi Compute Module 5"*) board_led=pi5 ;;
    "Raspberry Pi"*) board_led=spi ;;
    *) board_led=simulator ;;
  esac
fi
extra=""
if [ "$pi_extra" = 1 ] && [ "$board_led" != simulator ]; then extra="[$board_led]"; fi
arm32="$(python3 -c 'import struct; print(int(struct.calcsize("P") == 4))')"
compile_sysv_ipc=0
if [ "$arm32" = 1 ] && [ "$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")" = bookworm ]; then
  compile_sysv_ipc=1
fi
system_name="$(. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-$NAME}")"
system_name="${system_name:-this system} ($([ "$arm32" = 1 ] && echo 32 || echo 64)-bit, Python $(python3 -c 'import sys; print(sys.version.split()[0])'))"

if [ "$system" = 1 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run as root (sudo $0), or pass --no-system to stage files only" >&2
    exit 1
  fi
  installed() { dpkg-query -W -f '${Status}' "$1" 2>/dev/null | grep -q ' installed$'; }
  # PACKAGE:MODULE, the Debian package and the Python module it brings to the system
  wanted=(python3-venv: avahi-daemon:)
  if [ -n "$extra" ]; then
    wanted+=(python3-lgpio:lgpio python3-gpiozero:gpiozero)
    case "$board_led" in spi|pwm)
      wanted+=(python3-libgpiod:gpiod python3-spidev:spidev)
      [ "$arm32" = 0 ] || wanted+=(python3-sysv-ipc:sysv_ipc)
      # Bookworm's python3-sysv-ipc (1.0.0) is older than Blinka asks for: compiled there
      [ "$compile_sysv_ipc" = 0 ] || wanted+=(build-essential: python3-dev:) ;;
    esac
    [ "$board_led" != pwm ] || wanted+=(build-essential: python3-dev:)
  fi
  missing=()
  for entry in "${wanted[@]}"; do
    package="${entry%%:*}" module="${entry#*:}"
    if [ -n "$module" ]; then
      # found, not imported: importing lgpio leaves its notification pipe in the directory
      python3 -c "import importlib.util, sys
sys.exit(importlib.util.find_spec('$module') is None)" 2>/dev/null || missing+=("$package")
    else
      installed "$package" || missing+=("$package")
    fi
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    say "installing Raspberry Pi OS packages: ${missing[*]}"
    [ "$board_led" != pwm ] || say "the pwm driver (rpi_ws281x, Blinka's PWM backend) is compiled" \
      "here from its C sources: build-essential and python3-dev are for that"
    apt-get update -qq -o Acquire::Retries=3 || true
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o Acquire::Retries=3 \
        "${missing[@]}" >/dev/null; then
      echo "install.sh: apt could not install ${missing[*]} on $system_name (above)." \
        "Check the network, then: sudo apt update && sudo apt full-upgrade, and run" \
        "install.sh again. python3-lgpio comes from Raspberry Pi's own archive: on" \
        "another Debian, pass --no-pi-extra." >&2
      exit 1
    fi
  else
    say "the Raspberry Pi OS packages are installed"
  fi

  for group in "$gpio_group" spi; do
    getent group "$group" >/dev/null || groupadd --system "$group"
  done
  if ! id clacks >/dev/null 2>&1; then
    say "creating the system user clacks"
    useradd --system --user-group --home-dir /var/lib/clacks --no-create-home \
      --shell /usr/sbin/nologin clacks
  fi
  for group in "$gpio_group" spi; do
    if ! id -nG clacks | tr ' ' '\n' | grep -qx "$group"; then
      usermod --append --groups "$group" clacks
      changed=1
    fi
  done
fi

if [ "$system" = 1 ] || [ -n "$boot_config" ]; then
  bash "$src/systemd/boot-config.sh" --led "$board_led" ${boot_config:+--config "$boot_config"} \
    --model-file "$model_file"
fi

if [ "$system" = 1 ] || [ -n "$udev_dir" ]; then
  bash "$src/systemd/pio-rule.sh" --device "$pio_device" --model-file "$model_file" \
    --group "$gpio_group" ${udev_dir:+--rules-dir "$udev_dir"} \
    $( [ "$system" = 1 ] || echo --no-reload )
fi

# put FILE: write standard input to FILE only if it differs, so that running the
# installer again leaves every file as it was
put() {
  local new
  new="$(mktemp)"
  cat > "$new"
  if [ -f "$1" ] && cmp -s "$new" "$1"; then
    rm -f "$new"
  else
    mkdir -p "$(dirname "$1")"
    chmod 0644 "$new"
    mv "$new" "$1"
    say "wrote $1"
    changed=1
  fi
}

# The venv is made once; the Clacks Exchange is (re)installed into it when its sources,
# the extras or the Python differ from what was installed last (a stamp records them).
venv="$prefix/venv"
if [ ! -x "$venv/bin/python" ]; then
  say "creating the virtual environment in $venv"
  mkdir -p "$prefix"
  python3 -m venv --system-site-packages "$venv"
fi
stamp="$(
  cd "$src"
  {
    printf 'extra=%s python=%s\n' "$extra" "$("$venv/bin/python" -c 'import sys; print(sys.version)')"
    find pyproject.toml engine firmware web clacks hardware/__init__.py hardware/exchange.toml -type f \
      ! -path '*/__pycache__/*' ! -name '*.pyc' -print0 | sort -z | xargs -0 sha256sum
  } | sha256sum | cut -d' ' -f1
)"
if [ "$(cat "$venv/.clacks-installed" 2>/dev/null)" = "$stamp" ]; then
  say "the Clacks Exchange in $venv is up to date"
else
  say "installing the Clacks Exchange${extra:+ with the Pi LED drivers} into $venv"
  # pip builds in the directory it is given (build/, *.egg-info): a copy, not the checkout
  copy="$(mktemp -d)"
  trap 'rm -rf "$copy"' EXIT
  (cd "$src" && tar --exclude=__pycache__ --exclude='*.pyc' -cf - \
    pyproject.toml README.md engine firmware web clacks hardware/__init__.py hardware/exchange.toml) | tar -xf - -C "$copy"
  # wheels only (or the system's packages), but for the pwm driver's C sources
  only_binary=(--only-binary=:all:)
  no_binary=()
  [ "$board_led" != pwm ] || no_binary+=(rpi-ws281x adafruit-blinka-raspberry-pi-pwm)
  [ "$compile_sysv_ipc" = 0 ] || no_binary+=(sysv-ipc)
  [ "${#no_binary[@]}" = 0 ] || only_binary+=("--no-binary=$(IFS=,; echo "${no_binary[*]}")")
  if ! "$venv/bin/python" -m pip install --quiet --upgrade "${only_binary[@]}" pip \
      || ! "$venv/bin/python" -m pip install --quiet --upgrade "${only_binary[@]}" "$copy$extra"; then
    if [ "$board_led" = pwm ]; then
      echo "install.sh: installing the pwm driver failed on $system_name (above): it" \
        "compiles rpi_ws281x and Blinka's PWM backend, which needs build-essential and" \
        "python3-dev (sudo apt install build-essential python3-dev). The spi driver" \
        "needs no compiler: sudo systemd/install.sh --led spi" >&2
    else
      echo "install.sh: installing the Clacks Exchange$extra failed on $system_name" \
        "(above). Nothing is compiled for it: every package is a wheel from the package" \
        "index or one of Raspberry Pi OS's own. 'No matching distribution' means the" \
        "index was not reachable (check the network) or the system is older than its" \
        "wheels: sudo apt update && sudo apt full-upgrade, then run install.sh again." >&2
    fi
    exit 1
  fi
  rm -rf "$copy"
  trap - EXIT
  echo "$stamp" > "$venv/.clacks-installed"
  changed=1
fi

mkdir -p "$config_dir"
if [ -f "$config" ] && [ "$configured" != "$led" ]; then
  # --led named another driver: the settings follow, and the rest of them stay
  if [ -n "$configured" ]; then
    sed -i "/^\[leds\]/,/^\[/ s/^backend *= *\"[a-z0-9]*\"/backend = \"$led\"/" "$config"
  elif grep -q '^\[leds\]' "$config"; then
    sed -i "0,/^\[leds\]/ s/^\[leds\]/[leds]\nbackend = \"$led\"/" "$config"
  else
    printf '\n[leds]\nbackend = "%s"\n' "$led" >> "$config"
  fi
  say "set leds.backend = \"$led\" in $config (it was \"${configured:-unset}\")"
  changed=1
elif [ -f "$config" ]; then
  say "keeping $config_dir/config.toml"
else
  say "writing the default settings to $config_dir/config.toml"
  changed=1
  "$venv/bin/clacks" hardware config --default \
    | sed "0,/^backend = / s/^backend = .*/backend = \"$led\"/" \
    > "$config_dir/config.toml"
fi

sed -e "s#/opt/clacks#$prefix#g" -e "s#/etc/clacks#$config_dir#g" \
  "$src/systemd/clacks.service" | put "$unit_dir/clacks.service"
dropin="$unit_dir/clacks.service.d"
if [ "$board_led" = pwm ]; then
  put "$dropin/pwm.conf" < "$src/systemd/clacks-pwm.conf"
elif [ -e "$dropin/pwm.conf" ]; then
  rm -f "$dropin/pwm.conf"
  say "removed $dropin/pwm.conf"
  changed=1
fi

if [ "$system" = 1 ] && ! command -v systemctl >/dev/null 2>&1; then
  say "no systemd here (a container or chroot): the unit is in place, nothing to start"
elif [ "$system" = 1 ]; then
  systemctl is-enabled --quiet clacks.service 2>/dev/null || systemctl enable --quiet clacks.service
  if [ ! -d /run/systemd/system ]; then
    say "systemd is not running here (a container or chroot): the service starts at the next boot"
  elif [ "$changed" = 1 ]; then
    systemctl daemon-reload
    systemctl restart clacks.service
    say "done: the service is running (journalctl -u clacks); reboot once if the boot settings changed"
  elif ! systemctl is-active --quiet clacks.service; then
    systemctl start clacks.service
    say "the service was not running and is started (journalctl -u clacks)"
  else
    say "the running service was left alone"
  fi
else
  say "staged in $prefix, $config_dir and $unit_dir"
fi
if [ "$changed" = 0 ]; then
  say "all is up to date: nothing was installed or written"
fi
