"""What a fresh Raspberry Pi OS Lite image holds, and whether an emulated rootfs holds
exactly that.

The image build's package lists (.ci/pi-os/RELEASE-ARCH-lite-packages.txt, read from
pi-gen, stage by stage; a name ending in '-' is removed) name what the image installs.
The emulated rootfs (.ci/pi_rootfs.sh) installs from Debian's archive every package
they name that Debian has; the rest, which only Raspberry Pi's archive has, are named in
.ci/pi-os/raspberry-pi-archive.toml, each with its stand-in or the reason it is not
needed.

    python3 .ci/pi_os.py include RELEASE ARCH [recommends|no-recommends]
        the Debian packages to install, comma-separated (mmdebstrap --include); fails
        when a list names a package that is neither installable here nor named in
        raspberry-pi-archive.toml (pass the names Debian has on standard input, one a
        line, to check that; without it the list is taken as it is). The image build
        installs a stage's 00-packages with their Recommends and its 00-packages-nr
        without: `recommends` prints the first kind, with 'name-' for each package a
        list removes (apt then keeps it out, as the image build's own apt call does),
        `no-recommends` the second.
    python3 .ci/pi_os.py check RELEASE ARCH ROOTFS
        fails when ROOTFS holds a package that nothing in the list brings: every package
        installed there must be one the list names, a stand-in's, the base system's
        (Essential, or of priority required or important, as the image build's
        debootstrap installs them, less info and ifupdown, which it leaves out), a
        dependency of one of those, or one apt installed as a dependency. Fails too when
        a package the list names is not installed.
        Also names the packages a new owner does not have (python3-dev, git, swig) if
        any of them is there at all.
    python3 .ci/pi_os.py priorities ROOTFS
        the packages the archive's index (ROOTFS's apt lists, before they are cleaned)
        gives priority required or important, one a line: what debootstrap's default
        variant installs. The archive overrides the priority a package's own control
        file states (Trixie's whiptail: important in the index, optional in dpkg's
        status), so .ci/pi_rootfs.sh keeps these names in ROOTFS/.archive-priorities for
        `check`, which counts them as the base system's.
"""

from __future__ import annotations

import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent / "pi-os"
RELEASES = ("trixie", "bookworm")
ARCHES = ("arm64", "armhf")
# Never on a fresh image, and never wanted by the README's commands on one: the build
# tools that would let a missing wheel compile unnoticed.
NEVER = ("python3-dev", "git", "swig")
# The image build starts from debootstrap's default variant, the packages of priority
# required and important (init and systemd-sysv among them: /sbin/init), less these two
# (pi-gen's bootstrap: --exclude=info,ifupdown); .ci/pi_rootfs.sh does the same.
BOOTSTRAP_PRIORITIES = ("required", "important")
BOOTSTRAP_EXCLUDED = ("info", "ifupdown")
# Debian packages a stand-in adds to the rootfs (none: the lgpio build's swig and
# python3-dev are in a throw-away layer).
STAND_IN_PACKAGES: tuple[str, ...] = ()


@dataclass(frozen=True)
class ImageList:
    debian: list[str]  # named by the list and in Debian's archive
    raspberry_pi_only: dict[str, str]  # name -> its stand-in or why it is absent
    no_recommends: frozenset[str] = frozenset()  # named only in 00-packages-nr lists
    removed: tuple[str, ...] = ()  # taken out by a later 'name-'


def list_file(release: str, arch: str, directory: Path = HERE) -> Path:
    if release not in RELEASES or arch not in ARCHES:
        raise SystemExit(f"pi_os: RELEASE is one of {RELEASES}, ARCH one of {ARCHES}")
    return directory / f"{release}-{arch}-lite-packages.txt"


def listed(text: str) -> list[str]:
    """The packages a list installs, in order, less those a later 'name-' removes."""
    names: list[str] = []
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        for word in line.split():
            if word.endswith("-"):
                names = [name for name in names if name != word[:-1]]
            elif word not in names:
                names.append(word)
    return names


def removed(text: str) -> list[str]:
    """The packages a list's 'name-' takes out and nothing later brings back."""
    names = listed(text)
    gone: list[str] = []
    for line in text.splitlines():
        if not line.startswith("#"):
            gone += [word[:-1] for word in line.split() if word.endswith("-")]
    return [name for name in dict.fromkeys(gone) if name not in names]


def without_recommends(text: str) -> set[str]:
    """The packages named only in sections the image build installs without their
    Recommends (pi-gen's NN-packages-nr files, a '## ...-packages-nr' header here)."""
    plain: set[str] = set()
    bare: set[str] = set()
    in_bare = False
    for line in text.splitlines():
        if line.startswith("##"):
            in_bare = line.rstrip().endswith("-packages-nr")
        elif not line.startswith("#"):
            words = {word for word in line.split() if not word.endswith("-")}
            (bare if in_bare else plain).update(words)
    return bare - plain


def raspberry_pi_archive(directory: Path = HERE) -> dict[str, str]:
    table = tomllib.loads((directory / "raspberry-pi-archive.toml").read_text())
    return {
        name: f"stand-in: {entry['stand_in']}" if "stand_in" in entry else f"absent: {entry['absent']}"
        for name, entry in table.items()
    }


def image_list(release: str, arch: str, directory: Path = HERE) -> ImageList:
    text = list_file(release, arch, directory).read_text()
    names = listed(text)
    others = raspberry_pi_archive(directory)
    return ImageList(
        debian=[name for name in names if name not in others],
        raspberry_pi_only={name: others[name] for name in names if name in others},
        no_recommends=frozenset(without_recommends(text) & set(names)),
        removed=tuple(removed(text)),
    )


def to_install(image: ImageList, kind: str = "") -> list[str]:
    """What `include` prints: every Debian package, or those of one kind (see above)."""
    if kind == "recommends":
        kept = [name for name in image.debian if name not in image.no_recommends]
        return kept + [f"{name}-" for name in image.removed]
    if kind == "no-recommends":
        return [name for name in image.debian if name in image.no_recommends]
    return image.debian


def unknown_names(image: ImageList, debian_has: set[str]) -> list[str]:
    return [name for name in image.debian if name not in debian_has]


@dataclass(frozen=True)
class Installed:
    name: str
    essential: bool
    priority: str
    auto: bool  # apt installed it as a dependency
    depends: tuple[str, ...] = ()  # every name its Depends and Pre-Depends mention
    provides: tuple[str, ...] = ()


def installed_packages(rootfs: Path) -> list[Installed]:
    """The packages dpkg has installed in ROOTFS, with apt's automatic marks."""
    auto: set[str] = set()
    states = rootfs / "var/lib/apt/extended_states"
    if states.exists():
        for stanza in states.read_text().split("\n\n"):
            fields = _fields(stanza)
            if fields.get("Auto-Installed") == "1":
                auto.add(fields["Package"])
    found: list[Installed] = []
    for stanza in (rootfs / "var/lib/dpkg/status").read_text().split("\n\n"):
        fields = _fields(stanza)
        if not fields.get("Status", "").endswith(" installed"):
            continue
        found.append(
            Installed(
                fields["Package"],
                fields.get("Essential") == "yes",
                fields.get("Priority", ""),
                fields["Package"] in auto,
                _names(fields.get("Depends", "") + "," + fields.get("Pre-Depends", "")),
                _names(fields.get("Provides", "")),
            )
        )
    return found


ARCHIVE_PRIORITIES = ".archive-priorities"  # in the rootfs's top folder, beside .complete


def archive_bootstrap(rootfs: Path) -> set[str]:
    """The names the archive's index gave priority required or important when ROOTFS was
    built (``priorities``), or none where the build kept no record."""
    record = rootfs / ARCHIVE_PRIORITIES
    return set(record.read_text().split()) if record.exists() else set()


def index_priorities(rootfs: Path) -> list[str]:
    """The packages ROOTFS's apt lists give priority required or important."""
    names = set()
    for index in sorted((rootfs / "var/lib/apt/lists").glob("*_Packages")):
        for stanza in index.read_text(encoding="utf-8", errors="replace").split("\n\n"):
            fields = _fields(stanza)
            if fields.get("Priority") in BOOTSTRAP_PRIORITIES and "Package" in fields:
                names.add(fields["Package"])
    return sorted(names)


def _names(relations: str) -> tuple[str, ...]:
    """The package names in a Depends-style field, alternatives and all."""
    names = []
    for part in relations.replace("|", ",").split(","):
        name = part.split("(")[0].split("[")[0].strip().split(":")[0]
        if name:
            names.append(name)
    return tuple(names)


def brought_in(roots: set[str], packages: list[Installed]) -> set[str]:
    """``roots`` and every installed package they depend on, directly or not."""
    by_name = {package.name: package for package in packages}
    providers: dict[str, list[str]] = {}
    for package in packages:
        for virtual in package.provides:
            providers.setdefault(virtual, []).append(package.name)
    seen: set[str] = set()
    pending = [name for name in roots if name in by_name]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        for wanted in by_name[name].depends:
            pending += [wanted] if wanted in by_name else providers.get(wanted, [])
    return seen


def _fields(stanza: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for line in stanza.splitlines():
        if line and not line[0].isspace() and ":" in line:
            key, value = line.split(":", 1)
            fields[key] = value.strip()
    return fields


def unexpected(
    image: ImageList, packages: list[Installed], bootstrap: set[str] | frozenset[str] = frozenset()
) -> list[str]:
    """Why each package that does not belong in the image is there; ``bootstrap``: the
    names the archive's index gave priority required or important (``archive_bootstrap``)."""
    roots = set(image.debian) | set(STAND_IN_PACKAGES) | {"apt"} | {
        package.name
        for package in packages
        if package.name not in BOOTSTRAP_EXCLUDED
        and (
            package.essential
            or package.priority in BOOTSTRAP_PRIORITIES
            or package.name in bootstrap
        )
    }
    allowed = brought_in(roots, packages)
    installed = {package.name for package in packages}
    problems = [
        f"{name}: named by the image's list, and not installed" for name in image.debian
        if name not in installed
    ]
    for package in packages:
        if package.name in BOOTSTRAP_EXCLUDED and package.name not in allowed:
            problems.append(
                f"{package.name}: the image's build leaves it out (debootstrap --exclude)"
            )
        elif package.name in NEVER:
            problems.append(f"{package.name}: a fresh Raspberry Pi OS Lite image has none")
        elif not package.auto and package.name not in allowed:
            problems.append(
                f"{package.name}: installed by hand, and neither the image's list nor a "
                "named stand-in has it"
            )
    return problems


def main(argv: list[str]) -> int:
    kinds = ("recommends", "no-recommends")
    if len(argv) in (3, 4) and argv[0] == "include" and argv[3:] in ([], *[[k] for k in kinds]):
        image = image_list(argv[1], argv[2])
        if not sys.stdin.isatty():
            debian_has = {line.strip() for line in sys.stdin if line.strip()}
            if debian_has:
                missing = unknown_names(image, debian_has)
                if missing:
                    print(
                        f"pi_os: Debian {argv[1]} {argv[2]} has no {', '.join(missing)}: name "
                        "each in .ci/pi-os/raspberry-pi-archive.toml with its stand-in",
                        file=sys.stderr,
                    )
                    return 1
        print(",".join(to_install(image, argv[3] if len(argv) == 4 else "")))
        return 0
    if len(argv) == 4 and argv[0] == "check":
        image = image_list(argv[1], argv[2])
        packages = installed_packages(Path(argv[3]))
        problems = unexpected(image, packages, archive_bootstrap(Path(argv[3])))
        if problems:
            print(
                f"The {argv[1]} {argv[2]} rootfs is not what Raspberry Pi OS Lite holds:\n  "
                + "\n  ".join(problems),
                file=sys.stderr,
            )
            return 1
        print(
            f"the {argv[1]} {argv[2]} rootfs holds what Raspberry Pi OS Lite holds: "
            f"{len(packages)} packages, {len(image.debian)} named by the image's list; "
            "in place of those only Raspberry Pi's archive has:"
        )
        for name, why in image.raspberry_pi_only.items():
            print(f"  {name}: {why}")
        return 0
    if len(argv) == 2 and argv[0] == "priorities":
        print("\n".join(index_priorities(Path(argv[1]))))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
