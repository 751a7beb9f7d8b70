#!/usr/bin/env bash
# The two set-up commands of the README:  ./run.sh demo   and   ./run.sh test
# Both install everything from nothing (a venv from the lock file) before they run.
set -euo pipefail
cd "$(dirname "$0")"; ROOT="$PWD"
. .ci/env.sh

install_project() {  # the editable install: its metadata carries the games' entry points (pyproject.toml)
  if [ -x .cache/tools/bin/uv ]; then
    .cache/tools/bin/uv pip install -q --python .venv/bin/python --no-deps --no-build-isolation -e .
  else
    .venv/bin/pip install -q --no-deps --no-build-isolation -e .
  fi
  cp pyproject.toml .venv/.project-stamp
}

bootstrap() {
  local stamp=.venv/.lock-stamp
  if [ -x .venv/bin/python ] && cmp -s requirements.lock "$stamp" && [ -x .venv/bin/cardlab ]; then
    cmp -s pyproject.toml .venv/.project-stamp || install_project  # a new game or command: fresh metadata
    return
  fi
  echo "cardlab: installing the locked environment into .venv (first run only)" >&2
  rm -rf .venv && python3.11 -m venv .venv
  if [ -x .cache/tools/bin/uv ] || { python3.11 -m venv .cache/tools && .cache/tools/bin/pip install -q uv==0.13.9; }; then
    .cache/tools/bin/uv pip install -q --python .venv/bin/python --compile-bytecode -r requirements.lock
  else
    .venv/bin/pip install -q -r requirements.lock        # fallback: plain pip
  fi
  install_project
  cp requirements.lock "$stamp"
}

bootstrap
export PATH="$ROOT/.venv/bin:$PATH"
case "${1:-}" in
  demo) shift; exec cardlab demo "$@" ;;
  test)
    shift
    command -v chromium >/dev/null 2>&1 || .ci/install-browser.sh  # the browser test of the report pages
    ruff check engine bots flows reports cardlab bench tests  # the project's own code: a user's bots elsewhere in the folder never fail the tests
    set +e; python -m pytest -q "$@"; rc=$?; set -e
    [ "$rc" -eq 5 ] && { echo "no tests were collected" >&2; exit 1; }
    exit "$rc" ;;
  *) echo "usage: ./run.sh demo|test [args...]" >&2; exit 2 ;;
esac
