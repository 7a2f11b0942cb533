#!/usr/bin/env bash
# Set the Raspberry Pi boot settings (config.txt) that the chosen LED driver needs.
#
#   sudo systemd/boot-config.sh --led spi      (systemd/install.sh runs this for you)
#
#   spi        SPI0 on (dtparam=spi=on; GPIO10 carries the LED data) and the VPU core
#              clock held still: the SPI clock is divided down from it, and when the
#              core clock scales with the load the NeoPixel timing drifts and the lamps
#              flicker or show wrong colours. core_freq=250 on a Pi 3 and a Zero 2 W;
#              core_freq=500 with core_freq_min=500 on a Pi 4 / 400. They sit in [pi3],
#              [pi02] and [pi4] sections, so the same card still boots any Pi; a Pi 5
#              clocks its SPI from the RP1 chip and needs nothing.
#   pwm        the onboard analogue audio off (dtparam=audio=off): it uses the PWM
#              block that drives the LED data on GPIO18.
#   pi5        nothing: the Pi 5 driver runs the data line from the RP1's PIO
#              (/dev/pio0) and needs neither SPI nor the audio off. SPI is left as it
#              is, with a warning when SPI0 is on, since SPI0 claims GPIO10, the pi5
#              backend's default data pin.
#   auto       pi5 on a Raspberry Pi 5, spi on any other board (as the companion picks)
#   simulator  nothing
#
# The settings live in one marked block at the end of the file, rewritten on every
# run: running it again changes nothing, and another --led replaces them. For pwm a
# stock "dtparam=audio=on" line is commented out (with a note); any other --led puts
# it back. The first change saves the original as config.txt.clacks-backup. Reboot
# for the new settings to take effect.
#
# Options:
#   --led NAME         auto, spi, pwm, pi5 or simulator (required)
#   --config FILE      the boot configuration (default /boot/firmware/config.txt on
#                      Bookworm, /boot/config.txt on older systems)
#   --model-file FILE  the board's model, read for --led auto (default
#                      /proc/device-tree/model)
set -euo pipefail

led=""
config=""
model_file=/proc/device-tree/model

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --led)
      case "${2-}" in auto|spi|pwm|pi5|simulator) led="$2" ;;
        *) echo "boot-config.sh: --led must be auto, spi, pwm, pi5 or simulator, not '${2-}'" >&2; exit 2 ;;
      esac
      shift 2 ;;
    --config) config="${2-}"; shift 2 ;;
    --model-file) model_file="${2-}"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "boot-config.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if [ -z "$led" ]; then
  echo "boot-config.sh: say which LED driver with --led (see --help)" >&2
  exit 2
fi
if [ -z "$config" ]; then
  config=/boot/firmware/config.txt
  [ -f "$config" ] || [ ! -f /boot/config.txt ] || config=/boot/config.txt
fi

say() { printf '== %s\n' "$*" >&2; }

if [ ! -f "$config" ]; then
  say "no $config (not a Raspberry Pi?): boot settings for --led $led left alone"
  exit 0
fi

if [ "$led" = auto ]; then
  model="$(tr -d '\0' < "$model_file" 2>/dev/null || true)"
  case "$model" in "Raspberry Pi 5"*|"Raspberry Pi Compute Module 5"*) led=pi5 ;; *) led=spi ;; esac
  say "--led auto: ${model:-not a Raspberry Pi}, so the $led settings"
fi

begin="# >>> Clacks Exchange LED settings (systemd/boot-config.sh --led $led); rewritten on every install"
begin_prefix="# >>> Clacks Exchange LED settings"
end="# <<< Clacks Exchange LED settings"
audio_note="  # off for the PWM LEDs on GPIO18 (Clacks Exchange)"

block=()
case "$led" in
  spi) block=(dtparam=spi=on "[pi3]" core_freq=250 "[pi02]" core_freq=250
              "[pi4]" core_freq=500 core_freq_min=500 "[all]") ;;
  pwm) block=(dtparam=audio=off) ;;
esac

# the file without our block (and without the blank lines it leaves at the end), the
# stock audio line switched off for pwm and back on otherwise
strip_block() {
  awk -v begin="$begin_prefix" -v end="$end" '
    index($0, begin) == 1 { skipping = 1; next }
    skipping { if ($0 == end) skipping = 0; next }
    /^[[:space:]]*$/ { blanks = blanks $0 "\n"; next }
    { printf "%s%s\n", blanks, $0; blanks = "" }
  ' "$1"
}
if [ "$led" = pwm ]; then
  audio=(sed -e "s/^dtparam=audio=on\$/#dtparam=audio=on$audio_note/")
else
  audio=(sed -e "s/^#dtparam=audio=on$audio_note\$/dtparam=audio=on/")
fi

new="$(mktemp)"
trap 'rm -f "$new"' EXIT
{
  strip_block "$config" | "${audio[@]}"
  if [ ${#block[@]} -gt 0 ]; then
    # [all] first: the lines before may end inside a [pi4] or [cm5] section
    printf '\n%s\n[all]\n' "$begin"
    printf '%s\n' "${block[@]}"
    printf '%s\n' "$end"
  fi
} > "$new"

if cmp -s "$new" "$config"; then
  say "$config already has the boot settings for --led $led"
else
  [ -e "$config.clacks-backup" ] || cp -p "$config" "$config.clacks-backup"
  cat "$new" > "$config"
  say "$config: boot settings for --led $led written; reboot for them to take effect"
fi

if [ "$led" = pi5 ] && grep -Eq '^[[:space:]]*dtparam=([^#]*,)?spi=on' "$config"; then
  say "warning: SPI0 is on in $config and claims GPIO10, the pi5 LED data pin by default;"
  say "  turn SPI off (dtparam=spi=off) or give the LEDs another GPIO (leds.pin)"
fi
