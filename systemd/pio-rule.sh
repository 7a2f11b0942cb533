#!/usr/bin/env bash
# Give the Raspberry Pi 5's PIO device (/dev/pio0) to the gpio group with a udev rule,
# so that the pi5 LED driver runs as the service user, not root.
#
#   sudo systemd/pio-rule.sh            (systemd/install.sh runs this for you)
#
# The Pi 5 NeoPixel driver opens /dev/pio0, which some kernels create as root:root; its
# README asks for this rule. Nothing is written where the device already belongs to the
# group with read and write for it (newer Raspberry Pi OS images ship such a rule), nor
# on a board without the PIO (no /dev/pio0 and not a Pi 5). The rule file is written
# only when it is missing or different, so running this again changes nothing; after
# writing it, udev reloads its rules and applies them to the device at once.
#
# Options:
#   --rules-dir DIR    where the rule goes (default /etc/udev/rules.d)
#   --device FILE      the PIO device (default /dev/pio0)
#   --model-file FILE  the board's model (default /proc/device-tree/model)
#   --group NAME       the group that gets the device (default gpio)
#   --no-reload        write the rule only (no udevadm; for staging and tests)
set -euo pipefail

rules_dir=/etc/udev/rules.d
device=/dev/pio0
model_file=/proc/device-tree/model
group=gpio
reload=1

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --rules-dir) rules_dir="${2-}"; shift 2 ;;
    --device) device="${2-}"; shift 2 ;;
    --model-file) model_file="${2-}"; shift 2 ;;
    --group) group="${2-}"; shift 2 ;;
    --no-reload) reload=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "pio-rule.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done

say() { printf '== %s\n' "$*" >&2; }

if [ -e "$device" ]; then
  if [ "$(stat -Lc %G "$device")" = "$group" ] \
      && [ $(( 8#$(stat -Lc %a "$device") & 8#060 )) -eq $(( 8#060 )) ]; then
    say "$device already belongs to the $group group"
    exit 0
  fi
else
  model="$(tr -d '\0' < "$model_file" 2>/dev/null || true)"
  case "$model" in
    "Raspberry Pi 5"*|"Raspberry Pi Compute Module 5"*) ;;  # 500 too; the kernel adds it later
    *) exit 0 ;;  # no PIO on this board
  esac
fi

rule="$rules_dir/99-clacks-pio.rules"
text="# The Raspberry Pi 5's PIO ($device) for the $group group, whose members run the
# Clacks Exchange's pi5 LED driver. Written by systemd/pio-rule.sh.
SUBSYSTEM==\"*-pio\", GROUP=\"$group\", MODE=\"0660\""
if [ -f "$rule" ] && [ "$(cat "$rule")" = "$text" ]; then
  say "keeping $rule"
  exit 0
fi
mkdir -p "$rules_dir"
printf '%s\n' "$text" > "$rule"
say "$rule written: $device goes to the $group group"
if [ "$reload" = 1 ]; then
  udevadm control --reload-rules
  udevadm trigger --subsystem-match='*-pio'
fi
