#!/usr/bin/env bash
# The two set-up commands of the README:  ./run.sh demo   and   ./run.sh test
# Both install what they need from nothing before they run: demo the runtime (requirements.lock), test
# adds the test packages (requirements-test.lock: pytest, lint, oracles). Measured: docs/setup.md.
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

install_lock() {  # $1: a lock file, installed into .venv (what it already holds at these pins stays)
  if [ -x .cache/tools/bin/uv ] || { python3.11 -m venv .cache/tools && .cache/tools/bin/pip install -q uv==0.13.9; }; then
    .cache/tools/bin/uv pip install -q --python .venv/bin/python -r "$1"  # bytecode unless UV_COMPILE_BYTECODE=0
  else
    .venv/bin/pip install -q -r "$1"        # fallback: plain pip
  fi
}

bootstrap() {
  local stamp=.venv/.lock-stamp
  if [ -x .venv/bin/python ] && cmp -s requirements.lock "$stamp" && [ -x .venv/bin/cardlab ]; then
    cmp -s pyproject.toml .venv/.project-stamp || install_project  # a new game or command: fresh metadata
    return
  fi
  echo "cardlab: installing the locked runtime into .venv (first run only)" >&2
  local start=$SECONDS
  rm -rf .venv && python3.11 -m venv .venv
  # Bytecode for all but the packages' own test suites, which nothing imports: less CPU than uv compiling
  # everything (docs/setup.md). Every module we run still has it, as PYTHONDONTWRITEBYTECODE may be set.
  UV_COMPILE_BYTECODE=0 install_lock requirements.lock
  .venv/bin/python -m compileall -q -j 0 -x '/tests?/' .venv/lib/python3.11/site-packages >/dev/null \
    || echo "cardlab: some files did not compile to bytecode (they still import, more slowly)" >&2
  install_project
  cp requirements.lock "$stamp"
  echo "cardlab: runtime installed in $((SECONDS - start)) s" >&2
}

checked_count() {  # $1: a variable's name, $2: its value; a count is ASCII digits, said in one line otherwise
  case "$2" in
    ''|*[!0-9]*) echo "error: $1 must be a whole number of workers (0 runs the tests in one process), got '$2'" >&2; exit 2 ;;
  esac
}

bootstrap_tests() {  # the runtime's venv plus the test packages; a new runtime lock rebuilt .venv and its stamp
  local stamp=.venv/.test-lock-stamp
  cmp -s requirements-test.lock "$stamp" && return
  echo "cardlab: adding the test packages to .venv (first test run only)" >&2
  local start=$SECONDS
  install_lock requirements-test.lock
  cp requirements-test.lock "$stamp"
  echo "cardlab: test packages installed in $((SECONDS - start)) s" >&2
}

bootstrap
export PATH="$ROOT/.venv/bin:$PATH"
case "${1:-}" in
  demo) shift; exec cardlab demo "$@" ;;
  test)
    shift
    bootstrap_tests
    command -v chromium >/dev/null 2>&1 || .ci/install-browser.sh  # the browser test of the report pages
    ruff check engine bots flows reports cardlab bench tests  # the project's own code: a user's bots elsewhere in the folder never fail the tests
    # one pytest worker per core by default (pytest-xdist; a file's tests stay on one worker so its module
    # fixtures are built once); CARDLAB_TEST_WORKERS=0 runs in this process, as a debugger wants
    workers=${CARDLAB_TEST_WORKERS:-$(nproc)}
    checked_count CARDLAB_TEST_WORKERS "$workers"
    xdist=(); [ "$workers" -gt 0 ] && xdist=(-n "$workers" --dist loadfile)
    set +e; python -m pytest -q "${xdist[@]}" "$@"; rc=$?; set -e
    [ "$rc" -eq 5 ] && { echo "no tests were collected" >&2; exit 1; }
    exit "$rc" ;;
  *) echo "usage: ./run.sh demo|test [args...]" >&2; exit 2 ;;
esac
