#!/usr/bin/env bash
# Make sure Graphviz's `dot` is on PATH: mslab.viz turns graphs into SVG with it.
# Installs it with apt-get when we may (root or passwordless sudo); otherwise explains how.
set -euo pipefail

if command -v dot >/dev/null 2>&1; then
    exit 0
fi

. "$(dirname "${BASH_SOURCE[0]}")/apt_install.sh"
if apt_can_install; then
    echo "Graphviz 'dot' not found: installing the graphviz package with apt-get ..."
    apt_install graphviz
    if command -v dot >/dev/null 2>&1; then
        echo "Graphviz installed: $(dot -V 2>&1)"
        exit 0
    fi
    echo "error: apt-get finished but 'dot' is still not on PATH." >&2
    exit 1
fi

cat >&2 <<'EOF'
error: Graphviz's `dot` program is not installed, and this script cannot install it
(it needs root or passwordless sudo on a system with apt-get).

mslab draws its forward and backward graphs with Graphviz. Install it, then run make again:

  Debian / Ubuntu:   sudo apt-get install graphviz
  macOS (Homebrew):  brew install graphviz
  conda:             conda install -c conda-forge graphviz

Check with:  dot -V
EOF
exit 1
