#!/usr/bin/env bash
# The browser tests' headless Chromium (tests/web): Debian's chromium and chromium-driver, and CJK
# fonts for the Chinese page. Installed with apt-get when this runs as root on a machine with apt;
# otherwise one line says why the browser tests will skip. Never fails `make test` by itself.
set -u
have() { command -v chromium >/dev/null && command -v chromedriver >/dev/null && fc-list :lang=zh 2>/dev/null | grep -q .; }
have && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "==> installing chromium, chromium-driver and fonts-noto-cjk for the browser tests (apt-get)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver fonts-noto-cjk >/dev/null
    have && exit 0
    echo "==> apt-get could not install chromium: the browser tests will skip"
else
    echo "==> chromium/chromedriver missing and not root with apt-get: the browser tests will skip" \
         "(apt-get install chromium chromium-driver fonts-noto-cjk)"
fi
exit 0
