#!/usr/bin/env bash
# The whole test suite under Python 3.14, the roboRIO's Python, on a machine whose own Python is
# older: Debian unstable's python3.14 in a chroot (debootstrap, from Debian's package mirror, the
# only place this needs besides PyPI), with this checkout's committed HEAD cloned into it.
#
#   sudo scripts/py314_suite.sh [ROOT]      (ROOT: the chroot, default /opt/sid-py314; kept, so a
#                                            second run skips debootstrap and reuses the venv)
#
# Needs root, debootstrap and network access to deb.debian.org and PyPI. Prints pytest's summary
# and exits with pytest's code. By hand, not in CI: CI tests the machine's own Python.
set -euo pipefail

root="${1:-/opt/sid-py314}"
[[ "$(realpath -m "$root")" != / ]] || { echo "ROOT must not be /" >&2; exit 2; }
repo="$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

if [[ ! -x "$root/usr/bin/python3.14" ]]; then
    # libxcb1, libgl1, libglib2.0-0t64: what opencv-python (photonlibpy's simulation) loads
    debootstrap --variant=minbase \
        --include=python3.14,python3.14-venv,ca-certificates,git,libxcb1,libgl1,libglib2.0-0t64 \
        sid "$root" "$mirror"
fi
# the host's name resolution and certificate authorities (a proxy's own CA included)
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"

mounted=()
cleanup() {
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
        umount -R "${mounted[i]}" || true
    done
}
trap cleanup EXIT
mount -t proc proc "$root/proc" && mounted+=("$root/proc")
mount --rbind /dev "$root/dev" && mounted+=("$root/dev")
mount --make-rslave "$root/dev"

rm -rf "$root/root/swervelib"
git clone -q "$repo" "$root/root/swervelib"
echo "testing $(git -C "$root/root/swervelib" log --oneline -1) under $(chroot "$root" python3.14 -V)"

# (the host's pip settings name folders that are not in the chroot)
status=0
chroot "$root" env -i HOME=/root PATH=/usr/bin:/bin TERM=dumb \
    PIP_CERT=/etc/ssl/certs/ca-certificates.crt bash -euc '
    cd /root/swervelib
    [[ -x /root/venv/bin/python ]] || python3.14 -m venv /root/venv
    /root/venv/bin/pip install -q --disable-pip-version-check -e ".[all,dev]"
    /root/venv/bin/python -m pytest -q -n 2 -p no:cacheprovider
' || status=$?
exit "$status"
