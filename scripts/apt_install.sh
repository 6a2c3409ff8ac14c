# Sourced by the ensure_*.sh scripts: install Debian packages with apt-get when we may.
#   if apt_can_install; then apt_install PKG...; fi
# apt_can_install: apt-get exists and we are root or have passwordless sudo (sets APT_SUDO).
# apt_install: update the package lists and install; a failing apt-get stops the caller (set -e).
APT_SUDO=""

apt_can_install() {
    command -v apt-get >/dev/null 2>&1 || return 1
    if [ "$(id -u)" -eq 0 ]; then
        APT_SUDO=""
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        APT_SUDO="sudo"
    else
        return 1
    fi
}

apt_install() {
    $APT_SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $APT_SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" </dev/null
}
