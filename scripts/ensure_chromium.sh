#!/usr/bin/env bash
# Make sure Debian's Chromium is installed: the browser test (tests/browser) drives JupyterLab in it
# through Playwright, which never downloads a browser of its own here.
# Installs it with apt-get when we may (root or passwordless sudo). Otherwise it only explains how,
# and exits 0: the browser test then skips itself and says why.
set -euo pipefail

for exe in "${MSLAB_CHROMIUM:-}" /usr/bin/chromium /usr/bin/chromium-browser; do
    if [ -n "$exe" ] && [ -x "$exe" ]; then
        exit 0
    fi
done

. "$(dirname "${BASH_SOURCE[0]}")/apt_install.sh"
if apt_can_install; then
    echo "Chromium not found: installing Debian's chromium package with apt-get (for the browser test) ..."
    apt_install chromium
    if [ -x /usr/bin/chromium ]; then
        echo "Chromium installed: $(/usr/bin/chromium --version 2>/dev/null | head -n 1)"
        exit 0
    fi
    echo "error: apt-get finished but /usr/bin/chromium is still missing." >&2
    exit 1
fi

cat >&2 <<'MSG'
note: Chromium is not installed and this script cannot install it (it needs root or passwordless
sudo on a system with apt-get), so the browser test will be skipped. To run it, install Chromium:

  Debian / Ubuntu:   sudo apt-get install chromium
  elsewhere:         any Chromium or Chrome, then  export MSLAB_CHROMIUM=/path/to/chromium
MSG
exit 0
