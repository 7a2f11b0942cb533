""".ci/pi_os.py: the emulated Raspberry Pi OS holds what the image's own build installs
(the lists in .ci/pi-os/, read from pi-gen) and nothing more. Checked here against a
rootfs's dpkg and apt records made from those lists, so that it can be seen to fail: a
package added by hand (python3-dev, the one a fresh image lacks) fails it."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECK = ROOT / ".ci" / "pi_os.py"
spec = importlib.util.spec_from_file_location("pi_os", CHECK)
assert spec is not None and spec.loader is not None
pi_os = importlib.util.module_from_spec(spec)
sys.modules["pi_os"] = pi_os
spec.loader.exec_module(pi_os)

SYSTEMS = [(release, arch) for release in pi_os.RELEASES for arch in pi_os.ARCHES]


def stanza(
    name: str, priority: str = "optional", essential: bool = False, depends: str = ""
) -> str:
    lines = [f"Package: {name}", "Status: install ok installed", f"Priority: {priority}"]
    if essential:
        lines.append("Essential: yes")
    if depends:
        lines.append(f"Depends: {depends}")
    return "\n".join([*lines, "Architecture: arm64", "Version: 1.0"]) + "\n"


def rootfs(tmp_path: Path, manual: list[str], auto: list[str]) -> Path:
    """A rootfs whose dpkg has the base system, ``manual`` as installed by name and
    ``auto`` as apt's dependencies."""
    (tmp_path / "var/lib/dpkg").mkdir(parents=True)
    (tmp_path / "var/lib/apt").mkdir(parents=True)
    # the base system as dpkg installs it: its libraries are not marked automatic
    base = [
        stanza("dpkg", "required", essential=True, depends="libzstd1 (>= 1.5), tar | busybox"),
        stanza("libc6", "required"),
        stanza("libzstd1"),
        stanza("tar", "required", essential=True),
    ]
    stanzas = base + [stanza(name) for name in manual + auto]
    (tmp_path / "var/lib/dpkg/status").write_text("\n".join(stanzas))
    (tmp_path / "var/lib/apt/extended_states").write_text(
        "\n".join(f"Package: {name}\nArchitecture: arm64\nAuto-Installed: 1\n" for name in auto)
    )
    return tmp_path


def check(release: str, arch: str, root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(CHECK), "check", release, arch, str(root)],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(("release", "arch"), SYSTEMS)
def test_the_image_s_packages_and_their_dependencies_pass(
    tmp_path: Path, release: str, arch: str
) -> None:
    image = pi_os.image_list(release, arch)
    result = check(release, arch, rootfs(tmp_path, image.debian, ["libpython3-stdlib", "gcc"]))
    assert result.returncode == 0, result.stderr
    assert f"the {release} {arch} rootfs holds what Raspberry Pi OS Lite holds" in result.stdout
    assert "python3-rpi-lgpio: stand-in: python3-lgpio" in result.stdout


@pytest.mark.parametrize(("release", "arch"), SYSTEMS)
def test_python3_dev_added_by_hand_fails(tmp_path: Path, release: str, arch: str) -> None:
    image = pi_os.image_list(release, arch)
    result = check(release, arch, rootfs(tmp_path, [*image.debian, "python3-dev"], []))
    assert result.returncode == 1
    assert "python3-dev: a fresh Raspberry Pi OS Lite image has none" in result.stderr


def test_a_package_outside_the_list_fails_even_when_harmless(tmp_path: Path) -> None:
    image = pi_os.image_list("trixie", "arm64")
    result = check("trixie", "arm64", rootfs(tmp_path, [*image.debian, "htop", "vim"], []))
    assert result.returncode == 1
    assert "vim: installed by hand, and neither the image's list nor a named stand-in" in result.stderr
    assert "htop" not in result.stderr  # the image's list has htop


def test_git_and_swig_fail_even_as_dependencies(tmp_path: Path) -> None:
    image = pi_os.image_list("trixie", "armhf")
    result = check("trixie", "armhf", rootfs(tmp_path, image.debian, ["git", "swig"]))
    assert result.returncode == 1
    assert "git: a fresh" in result.stderr and "swig: a fresh" in result.stderr


def test_the_lists_name_what_the_companion_uses_from_the_system() -> None:
    for release, arch in SYSTEMS:
        image = pi_os.image_list(release, arch)
        assert {"python3-venv", "python3-libgpiod", "python3-spidev", "python3-gpiozero",
                "build-essential", "sudo", "curl"} <= set(image.debian)
        assert "python3-dev" not in image.debian and "git" not in image.debian
        # lgpio comes only from Raspberry Pi's archive: its stand-in is named
        assert image.raspberry_pi_only["python3-rpi-lgpio"].startswith("stand-in: python3-lgpio")


def test_a_later_removal_takes_the_package_out() -> None:
    assert pi_os.listed("## stage\na b modemmanager\n## later\nc modemmanager-\n") == ["a", "b", "c"]


def test_a_library_a_listed_package_depends_on_passes_unmarked(tmp_path: Path) -> None:
    image = pi_os.image_list("trixie", "arm64")
    root = rootfs(tmp_path, image.debian, [])
    status = root / "var/lib/dpkg/status"
    status.write_text(
        status.read_text().replace(
            "Package: curl\nStatus: install ok installed\nPriority: optional\n",
            "Package: curl\nStatus: install ok installed\nPriority: optional\n"
            "Depends: libcurl4t64 (= 8.14.1-2)\n",
        )
        + "\n" + stanza("libcurl4t64") + "\n" + stanza("vim")
    )
    result = check("trixie", "arm64", root)
    assert result.returncode == 1
    assert "libcurl4t64" not in result.stderr  # curl's, installed with it
    assert "vim: installed by hand" in result.stderr


def test_the_bootstrap_s_important_packages_pass_but_the_two_it_leaves_out(tmp_path: Path) -> None:
    image = pi_os.image_list("trixie", "arm64")
    root = rootfs(tmp_path, image.debian, [])
    status = root / "var/lib/dpkg/status"
    # debootstrap's default variant: priority important, systemd-sysv (/sbin/init) among them
    status.write_text(status.read_text() + "\n" + stanza("systemd-sysv", "important"))
    assert check("trixie", "arm64", root).returncode == 0
    status.write_text(status.read_text() + "\n" + stanza("ifupdown", "important"))
    result = check("trixie", "arm64", root)
    assert result.returncode == 1
    assert "ifupdown: the image's build leaves it out (debootstrap --exclude)" in result.stderr


def test_a_package_the_list_names_that_is_missing_fails(tmp_path: Path) -> None:
    image = pi_os.image_list("bookworm", "armhf")
    result = check("bookworm", "armhf", rootfs(tmp_path, image.debian[1:], []))
    assert result.returncode == 1
    assert f"{image.debian[0]}: named by the image's list, and not installed" in result.stderr


def test_a_package_the_archive_made_important_passes_where_the_build_recorded_it(
    tmp_path: Path,
) -> None:
    # Trixie's whiptail: important in the archive's index, which debootstrap's variant
    # reads, optional in its own control file, which dpkg's status keeps
    image = pi_os.image_list("trixie", "arm64")
    root = rootfs(tmp_path, [*image.debian, "whiptail"], [])
    result = check("trixie", "arm64", root)
    assert result.returncode == 1
    assert "whiptail: installed by hand" in result.stderr
    lists = root / "var/lib/apt/lists"
    lists.mkdir(parents=True)
    (lists / "deb.debian.org_debian_dists_trixie_main_binary-arm64_Packages").write_text(
        "Package: whiptail\nPriority: important\nVersion: 0.52\n\n"
        "Package: ifupdown\nPriority: important\n\n"
        "Package: python3-dev\nPriority: optional\n"
    )
    recorded = subprocess.run(
        [sys.executable, str(CHECK), "priorities", str(root)],
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout
    assert recorded.split() == ["ifupdown", "whiptail"]
    (root / pi_os.ARCHIVE_PRIORITIES).write_text(recorded)
    assert check("trixie", "arm64", root).returncode == 0


def test_the_lists_are_installed_with_their_recommends_but_the_nr_ones() -> None:
    # pi-gen's NN-packages are installed by apt with their Recommends, NN-packages-nr
    # without: NetworkManager's bring dnsmasq-base, which its shared (hotspot) mode runs
    image = pi_os.image_list("trixie", "arm64")
    with_recommends = pi_os.to_install(image, "recommends")
    assert "network-manager" in with_recommends and "cifs-utils" not in with_recommends
    assert pi_os.to_install(image, "no-recommends") == ["cifs-utils", "mkvtoolnix"]
    # a package a list removes is kept out of apt's choice of Recommends too
    assert "modemmanager-" in with_recommends and "modemmanager" not in image.debian
    assert sorted(pi_os.to_install(image)) == sorted(
        [name for name in with_recommends if not name.endswith("-")]
        + pi_os.to_install(image, "no-recommends")
    )


def test_a_section_s_kind_is_read_from_its_header() -> None:
    text = "## s1/00-packages\na b\n## s2/00-packages-nr\nb c d-\n## s3/00-packages\ne\n"
    assert pi_os.without_recommends(text) == {"c"}  # b is also installed with them
    assert pi_os.removed(text) == ["d"]
    assert pi_os.removed(text + "d\n") == []  # brought back later
