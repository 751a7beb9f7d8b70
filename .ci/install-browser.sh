#!/usr/bin/env bash
# Headless Chromium for the browser test of the report and replay pages (tests/reports/test_browser.py),
# from Debian's packages. run.sh's test path calls this only when chromium is missing.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null 2>&1; then
  echo "install-browser: not root and no sudo; the browser test will be skipped" >&2; exit 0
fi
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "install-browser: installing Debian's chromium (first test run only)" >&2
$SUDO apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
