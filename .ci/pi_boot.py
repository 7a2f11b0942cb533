"""The boot test's driver: boots the prepared Raspberry Pi OS copy (.ci/pi_boot.sh prepare)
under qemu-system-aarch64 -M virt and runs its five steps, each printed with its time:

  1. multi-user reached with no failed unit; clacks.service active under its own
     sandboxing; the table page answers on port 80, from this machine, through a
     forwarded port;
  2. the buttons' pin library (lgpio via gpiozero, in the service) holds the PL061's
     lines named in the settings file, as inputs with pull-ups (the kernel's own view:
     gpioinfo);
  3. `clacks hotspot on` through the real NetworkManager on the first radio;
     `clacks hardware status` reports it;
  4. the phone: the second radio in its own network namespace with its own
     wpa_supplicant and DHCP client joins with the name and password decoded from the
     Wi-Fi QR code of the table screen, its connectivity checks are answered, the box's
     name resolves, and from the join QR code's address it claims a seat and plays;
  5. the VM killed (SIGKILL to qemu) right after the move is acknowledged, and booted
     again: the game is back as acknowledged, the hotspot up without a command, the
     phone back in.

  .ci/pi_boot.py DIR [--break WHAT ...]

--break makes one of the changes the test must catch (each then fails a step):
  device-allow          the unit's DeviceAllow lines removed (step 2)
  ambient-capabilities  the unit's AmbientCapabilities line removed (step 1)
  autoconnect           the hotspot profile's autoconnect turned off (step 5)
  no-sync               saves written without waiting for the disk: SQLite's
                        synchronous=OFF in the installed companion (step 5)

Each boot runs on a disk image made from DIR/root through an overlay (mkfs.ext4 -d), so
DIR/root itself is never changed and can be booted again.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CI = Path(__file__).resolve().parent
BREAKS = ("device-allow", "ambient-capabilities", "autoconnect", "no-sync")
UNIT = "etc/systemd/system/clacks.service"
CONFIG = "etc/clacks/config.toml"
# the PL061 has 8 lines; the virt machine's device tree gives line 3 to its power key
BUTTON_LINES = {"a2b2": 0, "b2c2": 1, "c2d2": 4, "a3b3": 5, "b3c3": 6}
# what the Pi 4's firmware writes into the device tree, added to the virt machine's
PI_MODEL = "Raspberry Pi 4 Model B Rev 1.1"
PI_REVISION = 0xC03111
PHONE = "/run/clacks-phone"
# the box's own screen: the companion hands the table PIN and the Wi-Fi password only to
# a browser on the box run by its own user (web/local_peer.py), not to another login
OWN_SCREEN = "sudo -u clacks curl"


class StepFailed(Exception):
    pass


def run(*command: str, check: bool = True, **options: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, check=check, text=True, capture_output=True, **options)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


# ------------------------------------------------------------------ the disk image


def settings_with_buttons(text: str) -> str:
    """The settings file with its [buttons.pins] table naming the PL061's free lines."""
    lines, skipping = [], False
    for line in text.splitlines():
        if line.strip().startswith("["):
            skipping = line.strip() == "[buttons.pins]"
        if not skipping:
            lines.append(line)
    lines += ["", "[buttons.pins]"] + [f"{name} = {pin}" for name, pin in BUTTON_LINES.items()]
    return "\n".join(lines) + "\n"


def break_image(root: Path, what: list[str]) -> None:
    unit = root / UNIT
    text = unit.read_text()
    if "device-allow" in what:
        text = re.sub(r"(?m)^DeviceAllow=.*\n", "", text)
    if "ambient-capabilities" in what:
        text = re.sub(r"(?m)^AmbientCapabilities=.*\n", "", text)
    unit.write_text(text)
    if "no-sync" in what:
        stores = list(root.glob("opt/clacks/venv/lib/python3*/site-packages/web/store.py"))
        if not stores:
            raise SystemExit("no-sync: the installed web/store.py was not found")
        for store in stores:
            patched = store.read_text().replace("synchronous=FULL", "synchronous=OFF")
            store.write_text(patched)
            for cached in store.parent.glob("__pycache__/store.*.pyc"):
                cached.unlink()


@contextmanager
def overlay(lower: Path, scratch: Path) -> Iterator[Path]:
    for name in ("upper", "work", "merged"):
        (scratch / name).mkdir()
    merged = scratch / "merged"
    options = f"lowerdir={lower},upperdir={scratch / 'upper'},workdir={scratch / 'work'}"
    run("mount", "-t", "overlay", "overlay", "-o", options, str(merged))
    try:
        yield merged
    finally:
        run("umount", str(merged))


def make_disk(prepared: Path, scratch: Path, breaks: list[str]) -> Path:
    disk = scratch / "disk.img"
    with overlay(prepared / "root", scratch) as root:
        config = root / CONFIG
        config.write_text(settings_with_buttons(config.read_text()))
        break_image(root, breaks)
        used = int(run("du", "-sxm", str(root)).stdout.split()[0])
        run("mkfs.ext4", "-q", "-F", "-L", "rootfs", "-d", str(root), str(disk), f"{used + 1024}M")
    return disk


# ------------------------------------------------------------------ the machine


class Machine:
    def __init__(self, prepared: Path, disk: Path, scratch: Path) -> None:
        self.prepared, self.disk, self.scratch = prepared, disk, scratch
        self.http, self.ssh_port = free_port(), free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.boots = 0

    def arguments(self, *extra: str) -> list[str]:
        forwards = (
            f"hostfwd=tcp:127.0.0.1:{self.http}-:80,hostfwd=tcp:127.0.0.1:{self.ssh_port}-:22"
        )
        # a Cortex-A72, the Pi 4's core, as the emulated stage's qemu-user runs (.ci/pi_binfmt.sh)
        return [
            "qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72",
            "-smp", "2", "-m", "1536", "-display", "none", "-monitor", "none",
            "-kernel", str(self.prepared / "vmlinuz"),
            "-initrd", str(self.prepared / "initrd.img"),
            # net.ifnames=0: eth0 and wlan0, as Raspberry Pi OS names them
            "-append", "root=/dev/vda rw rootwait console=ttyAMA0 net.ifnames=0",
            "-drive", f"if=none,id=disk,format=raw,file={self.disk}",
            "-device", "virtio-blk-pci,drive=disk",
            "-netdev", f"user,id=net,{forwards}", "-device", "virtio-net-pci,netdev=net",
            "-device", "virtio-rng-pci",
            *extra,
        ]  # fmt: skip

    def device_tree(self) -> Path:
        """The virt machine's own device tree, with a Pi 4's model and revision."""
        blob = self.scratch / "virt.dtb"
        run(*self.arguments("-machine", f"dumpdtb={blob}", "-serial", "none"))
        source = run("dtc", "-q", "-I", "dtb", "-O", "dts", str(blob)).stdout
        source = re.sub(r'model = "[^"]*";', f'model = "{PI_MODEL}";', source, count=1)
        system = f"\tsystem {{\n\t\tlinux,revision = <{PI_REVISION:#x}>;\n\t}};\n}};"
        source = source.rstrip().removesuffix("};") + system + "\n"
        patched = self.scratch / "pi.dtb"
        run("dtc", "-q", "-I", "dts", "-O", "dtb", "-o", str(patched), input=source)
        return patched

    def boot(self) -> None:
        self.boots += 1
        console = self.scratch / f"console-{self.boots}.log"
        dtb = self.scratch / "pi.dtb"
        if not dtb.exists():
            dtb = self.device_tree()
        self.process = subprocess.Popen(
            self.arguments("-dtb", str(dtb), "-serial", f"file:{console}"),
            stdin=subprocess.DEVNULL,
        )
        self.wait_ssh(600)

    def pull_plug(self) -> None:
        assert self.process is not None
        self.process.kill()  # SIGKILL: no shutdown, nothing flushed by the guest
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.pull_plug()

    def ssh(self, command: str, timeout: float = 300, check: bool = True, stdin: str = "") -> str:
        key = self.prepared / "key"
        answer = subprocess.run(
            [
                "ssh", "-i", str(key), "-p", str(self.ssh_port), "-o", "BatchMode=yes",
                "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                "-o", "LogLevel=ERROR", "-o", "ConnectTimeout=20", "pi@127.0.0.1", command,
            ],
            input=stdin, text=True, capture_output=True, timeout=timeout, check=False,
        )  # fmt: skip
        if check and answer.returncode != 0:
            raise StepFailed(
                f"`{command[:200]}` in the VM ended with {answer.returncode}:\n"
                f"{answer.stdout[-2000:]}{answer.stderr[-2000:]}"
            )
        return answer.stdout

    def wait_ssh(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise StepFailed(f"qemu ended with {self.process.returncode} while booting")
            try:
                if self.ssh("true", timeout=60, check=False) == "" and self._ssh_ok():
                    return
            except subprocess.TimeoutExpired:
                pass
            time.sleep(3)
        raise StepFailed(f"no SSH into the VM within {seconds:.0f} s; console: {self.console()}")

    def _ssh_ok(self) -> bool:
        return self.ssh("echo up", timeout=60, check=False).strip() == "up"

    def console(self) -> str:
        log = self.scratch / f"console-{self.boots}.log"
        return log.read_text(errors="replace")[-3000:] if log.exists() else "(none)"

    def page(self, path: str, seconds: float, host: str = "") -> tuple[int, str]:
        """A page through the forwarded port 80 (asked for under ``host``, if given),
        waited for up to ``seconds``."""
        deadline, last = time.monotonic() + seconds, "nothing"
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.http}{path}", headers={"Host": host} if host else {}
        )
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(request, timeout=30) as r:
                    return int(r.status), r.read().decode("utf-8", "replace")
            except OSError as exc:
                last = str(exc)
            time.sleep(3)
        raise StepFailed(f"http://<box>:80{path} did not answer within {seconds:.0f} s ({last})")


# ------------------------------------------------------------------ the QR codes


def decode_qr(image_url: str) -> str:
    """The text of the QR code at ``image_url`` (a data: URL), drawn by a real browser as
    the table screen draws it and read by zxing-cpp, as a phone's camera reads it."""
    import io

    import zxingcpp
    from PIL import Image
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"))
        page = browser.new_page(viewport={"width": 400, "height": 400})
        page.set_content(
            f'<body style="margin:40px;background:#fff"><img src="{image_url}" '
            'width="300" height="300" style="image-rendering:pixelated"></body>'
        )
        page.wait_for_function("document.images[0].complete")
        shot = page.screenshot()
        browser.close()
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(shot)))
    if not found:
        raise StepFailed("no QR code could be read from the table screen's image")
    return str(found[0].text)


def wifi_fields(payload: str) -> dict[str, str]:
    """SSID and password of a WIFI: QR payload (its \\ escapes undone)."""
    if not payload.startswith("WIFI:"):
        raise StepFailed(f"the Wi-Fi QR code holds {payload!r}")
    fields, key, value, escaped, in_value = {}, "", "", False, False
    for char in payload[5:]:
        if escaped:
            value, escaped = value + char, False
        elif char == "\\":
            escaped = True
        elif char == ":" and not in_value:
            in_value = True
        elif char == ";":
            if key:
                fields[key] = value
            key, value, in_value = "", "", False
        elif in_value:
            value += char
        else:
            key += char
    return fields


# ------------------------------------------------------------------ the steps


def held_as_button(row: str) -> bool:
    """A line of gpioinfo's (libgpiod 2) says: requested, an input, pulled up."""
    return "consumer=" in row and re.search(r"\binput\b", row) is not None and "pull-up" in row


class BootTest:
    def __init__(self, machine: Machine, breaks: list[str]) -> None:
        self.vm = machine
        self.breaks = breaks
        self.wifi: dict[str, str] = {}
        self.join_url = ""
        self.played: dict[str, Any] = {}

    def step0_boot(self) -> str:
        self.vm.boot()
        return self.vm.ssh("uname -sr; cat /proc/device-tree/model; echo").strip()

    def step1_booted(self) -> str:
        state = self.vm.ssh("systemctl is-system-running --wait", timeout=900, check=False).strip()
        failed = self.vm.ssh("systemctl --failed --no-legend --plain", check=False).strip()
        if state != "running" or failed:
            raise StepFailed(f"the system is {state!r}; failed units:\n{failed}")
        deadline = time.monotonic() + 300
        while (
            active := self.vm.ssh("systemctl is-active clacks", check=False).strip()
        ) != "active":
            if time.monotonic() > deadline:
                raise StepFailed(f"clacks.service is {active}:\n{self.journal()}")
            time.sleep(3)
        sandbox = self.vm.ssh(
            "systemctl show clacks -p User -p DevicePolicy -p DeviceAllow -p AmbientCapabilities"
            " -p ProtectSystem -p NoNewPrivileges"
        )
        try:
            status, _ = self.vm.page("/", 300)
        except StepFailed as exc:
            raise StepFailed(f"{exc}\n{self.journal()}") from None
        if status != 200:
            raise StepFailed(f"the table page answered {status}")
        return f"system running, no failed unit; clacks.service active:\n{sandbox}table page 200"

    def journal(self) -> str:
        return self.vm.ssh("sudo journalctl -u clacks -b --no-pager -n 30", check=False)

    def step2_buttons(self) -> str:
        deadline, info = time.monotonic() + 120, ""
        while time.monotonic() < deadline:
            info = self.vm.ssh("sudo gpioinfo -c gpiochip0", check=False)
            rows = {
                int(found.group(1)): found.group(2)
                for found in re.finditer(r"(?m)^\s*line\s+(\d+):(.*)$", info)
            }
            if all(held_as_button(rows.get(line, "")) for line in BUTTON_LINES.values()):
                return f"lines {sorted(BUTTON_LINES.values())} of gpiochip0:\n{info}"
            time.sleep(5)
        raise StepFailed(
            f"the buttons' lines {sorted(BUTTON_LINES.values())} are not all held as inputs "
            f"with pull-ups:\n{info}\n{self.journal()}"
        )

    def step3_hotspot(self) -> str:
        out = self.vm.ssh(
            "sudo /opt/clacks/venv/bin/clacks hotspot --data-dir /var/lib/clacks on --yes 2>&1",
            timeout=300,
        )
        if "autoconnect" in self.breaks:
            self.vm.ssh("sudo nmcli connection modify clacks-hotspot connection.autoconnect no")
        active = self.vm.ssh("nmcli -t -f NAME,DEVICE connection show --active")
        if "clacks-hotspot:wlan0" not in active:
            raise StepFailed(f"the hotspot is not up on wlan0:\n{active}\n{out}")
        status = self.vm.ssh(
            "cd /tmp && sudo -u clacks env CLACKS_CONFIG=/etc/clacks/config.toml "
            "CLACKS_STATE_DIR=/var/lib/clacks /opt/clacks/venv/bin/clacks hardware status",
            check=False,
        )
        try:
            reported = json.loads(status)["hotspot"]
        except (ValueError, KeyError, TypeError):
            raise StepFailed(f"clacks hardware status printed no hotspot:\n{status}") from None
        if not (reported.get("up") and reported.get("address") == "10.42.0.1"):
            raise StepFailed(f"clacks hardware status does not report the hotspot up:\n{status}")
        return f"{out}\nnmcli: {active.strip()}\nhardware status: hotspot {json.dumps(reported)}"

    def table_screen(self) -> tuple[str, str]:
        """The table screen as the box's own screen gets it (a browser on the box, run by
        the companion's own user): its HTML and the table code."""
        html = self.vm.ssh(f"{OWN_SCREEN} -sfL http://localhost/")
        code = re.search(r'data-code="([A-Z0-9]+)"', html)
        if code is None:
            raise StepFailed("the table screen names no table")
        return html, code.group(1)

    def phone_join(self) -> dict[str, Any]:
        """The second radio, in the namespace `phone`, joins the hotspot; the lease."""
        ssid, password = self.wifi["S"], self.wifi["P"]
        psk = hashlib.pbkdf2_hmac("sha1", password.encode(), ssid.encode(), 4096, 32).hex()
        config = (
            f"ctrl_interface={PHONE}/wpa\nnetwork={{\n\tssid={ssid.encode().hex()}\n"
            f"\tpsk={psk}\n\tkey_mgmt=WPA-PSK\n}}\n"
        )
        script = f"""set -e
mkdir -p {PHONE} /etc/netns/phone
ip netns add phone
phy=$(cat /sys/class/net/wlan1/phy80211/name)
iw phy "$phy" set netns name phone
ip netns exec phone ip link set lo up
ip netns exec phone ip link set wlan1 up
base64 -d > {PHONE}/wpa.conf <<'EOF'
{base64.b64encode(config.encode()).decode()}
EOF
ip netns exec phone wpa_supplicant -B -i wlan1 -c {PHONE}/wpa.conf -f {PHONE}/wpa.log
for _ in $(seq 60); do
  ip netns exec phone wpa_cli -p {PHONE}/wpa -i wlan1 status | grep -qx 'wpa_state=COMPLETED' && break
  sleep 1
done
ip netns exec phone wpa_cli -p {PHONE}/wpa -i wlan1 status | grep -E '^(ssid|wpa_state|key_mgmt)='
# dhcpcd stays running, as a phone's DHCP client does: its lease is then read from it
# (-U). No link-local address (-L): with one, dhcpcd counts the link as up before the
# box's lease arrives. Its hooks leave the box's resolv.conf and host name alone.
ip netns exec phone dhcpcd -4 -L -w -t 90 -C resolv.conf -C hostname wlan1 > {PHONE}/dhcp.log 2>&1
ip netns exec phone ip -4 -o addr show dev wlan1
ip netns exec phone dhcpcd -4 -U wlan1 2>/dev/null | grep -E '^(ip_address|routers|domain_name_servers)='
"""
        out = self.vm.ssh(f"sudo bash -c {shlex.quote(script)}", timeout=300)
        lease = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
        if lease.get("wpa_state") != "COMPLETED":
            raise StepFailed(f"the phone did not join {ssid!r}:\n{out}")
        if "domain_name_servers" not in lease:
            raise StepFailed(f"the phone got no DHCP lease:\n{out}")
        return {"out": out, "dns": lease["domain_name_servers"].strip("'").split()[0], **lease}

    def phone(self, *arguments: str) -> dict[str, Any]:
        script = (CI / "pi_boot_phone.py").read_text()
        command = "sudo ip netns exec phone python3 - " + shlex.join(arguments)
        out = self.vm.ssh(command, stdin=script, timeout=300, check=False)
        try:
            answer: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
        except (ValueError, IndexError):
            raise StepFailed(f"the phone's {arguments[0]} printed {out!r}") from None
        if not answer.get("ok"):
            raise StepFailed(f"the phone's {arguments[0]}: {answer}")
        return answer

    def step4_phone(self) -> str:
        html, code = self.table_screen()
        wifi_image = re.search(r'class="wifi-qr" src="([^"]+)"', html)
        if wifi_image is None:
            raise StepFailed("the table screen shows no Wi-Fi QR code")
        self.wifi = wifi_fields(decode_qr(wifi_image.group(1).replace("&amp;", "&")))
        # as the table screen, opened at http://localhost/ on the box, has it (through the
        # forwarded port, its port would be taken for the one phones use)
        _, svg = self.vm.page(f"/qr/{code}.svg", 60, host="localhost")
        self.join_url = decode_qr(
            "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()
        )
        pin = re.search(r'data-pin="(\d+)"', html)
        self.vm.ssh(
            f"{OWN_SCREEN} -sf -X POST -H 'X-Table-Pin: {pin.group(1) if pin else ''}' "
            f"-H 'Content-Type: application/json' -d '{{}}' http://localhost/api/rooms/{code}/game"
        )
        lease = self.phone_join()
        checks = self.phone("checks", lease["dns"])
        name = self.phone("resolve", "clacks.local", lease["dns"])
        self.played = self.phone("play", self.join_url, lease["dns"])
        return (
            f"Wi-Fi QR: SSID {self.wifi['S']!r}, password of {len(self.wifi['P'])} characters; "
            f"join QR: {self.join_url}\n{lease['out']}checks: {checks['checks']}\n"
            f"clacks.local -> {name['addresses']} by {name['by']}\n"
            f"seat {self.played['seat']} played {self.played['action']}: "
            f"acknowledged at revision {self.played['acknowledged'].get('revision')}"
        )

    def step5_pulled_plug(self) -> str:
        self.vm.pull_plug()
        killed = time.monotonic()
        self.vm.boot()
        booted = time.monotonic() - killed
        code = self.played["code"]
        _, text = self.vm.page(f"/api/rooms/{code}/log", 300)
        log = json.loads(text)
        if log != self.played["log"]:
            raise StepFailed(
                f"the game is not as acknowledged:\nbefore: {self.played['log']}\nafter: {log}"
            )
        deadline, active = time.monotonic() + 180, ""
        while "clacks-hotspot:wlan0" not in active:
            if time.monotonic() > deadline:
                raise StepFailed(f"the hotspot is not up after the restart:\n{active}")
            time.sleep(3)
            active = self.vm.ssh("nmcli -t -f NAME,DEVICE connection show --active", check=False)
        lease = self.phone_join()
        back = self.phone(
            "rejoin", self.join_url, lease["dns"], self.played["seat"], self.played["token"]
        )
        if back["seat"] != self.played["seat"] or back["log"] != self.played["log"]:
            raise StepFailed(f"the phone is not back in its seat as it was: {back}")
        return (
            f"booted again in {booted:.0f} s; the game's log as acknowledged "
            f"({len(log['steps'])} steps); hotspot up without a command; the phone back in "
            f"seat {back['seat']} at {lease.get('ip_address', '?')}"
        )


def timed(number: int, name: str, action: Callable[[], str]) -> None:
    started = time.monotonic()
    print(f"== [boot test] step {number}: {name}", flush=True)
    try:
        detail = action()
    except (StepFailed, subprocess.TimeoutExpired) as exc:
        print(
            f"{exc}\n== [boot test] step {number} FAILED after {time.monotonic() - started:.0f} s"
        )
        raise SystemExit(1) from None
    print(
        f"{detail.rstrip()}\n== [boot test] step {number} passed in {time.monotonic() - started:.0f} s"
    )


def main() -> None:
    # stopped by a time limit: qemu is stopped too (the finally below)
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(143))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("prepared", type=Path, help="the directory .ci/pi_boot.sh prepared")
    parser.add_argument("--break", dest="breaks", action="append", default=[], choices=BREAKS)
    args = parser.parse_args()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="clacks-boot-") as scratch_name:
        scratch = Path(scratch_name)
        if args.breaks:
            print(f"== [boot test] broken on purpose: {', '.join(args.breaks)}")
        disk = make_disk(args.prepared, scratch, args.breaks)
        print(f"== [boot test] disk image made in {time.monotonic() - started:.0f} s")
        vm = Machine(args.prepared, disk, scratch)
        test = BootTest(vm, args.breaks)
        try:
            timed(0, "boot to SSH", test.step0_boot)
            timed(1, "multi-user, clacks.service, the table page on port 80", test.step1_booted)
            timed(2, "the buttons' lines held through the settings file", test.step2_buttons)
            timed(3, "clacks hotspot on, through NetworkManager", test.step3_hotspot)
            timed(4, "a phone joins by the QR codes and plays", test.step4_phone)
            timed(5, "the plug pulled, booted again", test.step5_pulled_plug)
        except SystemExit:
            print(f"== [boot test] the end of the VM's console:\n{vm.console()}")
            raise
        finally:
            vm.stop()
            print(f"== [boot test] in all {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
