#!/usr/bin/env bash
# Build BlurApp as one folder with PyInstaller (JAX inside), then smoke-test the built program.
#
#   packaging/build.sh               build into $BLURAPP_DIST_DIR (default packaging/dist), test
#   packaging/build.sh --smoke-only  test an existing build again, without rebuilding
#
# Run it with the environment BlurApp runs in active (jax, PySide6-Essentials, numpy, pillow
# installed); PyInstaller is installed into that environment when it is missing.
# Variables: BLURAPP_DIST_DIR (output folder), PYTHON (interpreter, default: python).
# The program is $BLURAPP_DIST_DIR/blurapp/blurapp; PyInstaller's work files go to
# $BLURAPP_DIST_DIR/.work.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
DIST="${BLURAPP_DIST_DIR:-$HERE/dist}"
PYTHON="${PYTHON:-python}"
PROGRAM="$DIST/blurapp/blurapp"
PYINSTALLER_REQUIREMENT="pyinstaller>=6.10"

say() { printf '== %s\n' "$*"; }
fail() { printf 'build.sh: %s\n' "$*" >&2; exit 1; }

smoke_only=0
case "${1:-}" in
  "") ;;
  --smoke-only) smoke_only=1 ;;
  -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
  *) fail "unknown option: $1 (try --help)" ;;
esac

mkdir -p "$DIST"
DIST="$(cd "$DIST" && pwd)"
PROGRAM="$DIST/blurapp/blurapp"

if [[ $smoke_only -eq 0 ]]; then
  command -v "$PYTHON" >/dev/null || fail "no Python interpreter '$PYTHON' (activate the environment, or set PYTHON)"
  "$PYTHON" -c "import jax, jaxlib, PySide6, numpy, PIL" 2>/dev/null \
    || fail "'$PYTHON' lacks BlurApp's dependencies: pip install jax PySide6-Essentials numpy pillow"
  if ! "$PYTHON" -c "import PyInstaller" 2>/dev/null; then
    say "installing $PYINSTALLER_REQUIREMENT into $("$PYTHON" -c 'import sys; print(sys.prefix)')"
    "$PYTHON" -m pip install --quiet "$PYINSTALLER_REQUIREMENT"
  fi
  say "PyInstaller $("$PYTHON" -c 'import PyInstaller; print(PyInstaller.__version__)'), \
jax $("$PYTHON" -c 'import jax; print(jax.__version__)'), Python $("$PYTHON" -c 'import platform; print(platform.python_version())')"
  say "building into $DIST/blurapp"
  started=$SECONDS
  (cd "$ROOT" && "$PYTHON" -m PyInstaller --noconfirm --log-level WARN \
      --distpath "$DIST" --workpath "$DIST/.work" "$HERE/blurapp.spec")
  build_seconds=$((SECONDS - started))
fi

[[ -x "$PROGRAM" ]] || fail "no built program at $PROGRAM"

# ---------------------------------------------------------------------------------------------
# Smoke test of the built program, with its cache, log and screenshot in a scratch folder.
scratch="$(mktemp -d "${TMPDIR:-/tmp}/blurapp-smoke.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
export BLURAPP_CACHE_DIR="$scratch/cache" BLURAPP_STATE_DIR="$scratch/state"
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"

# The build must hold this checkout's BlurApp (an editable install elsewhere must not win).
cmp -s "$ROOT/blurapp/cli/__init__.py" "$DIST/blurapp/_internal/blurapp/cli/__init__.py" \
  || fail "the build's blurapp/cli/__init__.py is not this checkout's"

say "$PROGRAM --version"
version="$("$PROGRAM" --version)"
echo "$version"
[[ "$version" == "blurapp $(sed -n 's/^__version__ = "\(.*\)"/\1/p' "$ROOT/blurapp/_version.py")" ]] \
  || fail "--version printed '$version'"

check_compare() {  # $1: the JSON output, $2: the compilation expected
  "$PYTHON_CHECK" - "$1" "$2" "$DIST/blurapp" <<'PY'
import json, sys
report, expected, bundle = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
jax = report["jax"]
problems = []
if jax["error"] is not None:
    problems.append(f"JAX failed: {jax['error']}")
if not jax["device"]:
    problems.append("no JAX device")
if report["max_abs_diff"] is None or not report["max_abs_diff"] <= 1e-5:
    problems.append(f"max_abs_diff {report['max_abs_diff']} > 1e-5")
if not report["image"]["path"].startswith(bundle):
    problems.append(f"the sample photo came from outside the build: {report['image']['path']}")
if jax["compilation"] != expected:
    problems.append(f"compilation '{jax['compilation']}', expected '{expected}'")
print(f"   device={jax['device']} max_abs_diff={report['max_abs_diff']:.2e} "
      f"compilation={jax['compilation']} first_call={jax['first_call_seconds'] * 1000:.0f} ms "
      f"image={report['image']['width']}x{report['image']['height']}")
if problems:
    sys.exit("build.sh: " + "; ".join(problems))
PY
}
# The checks need a Python; the build's own does not run scripts, so use any python3.
PYTHON_CHECK="$(command -v "$PYTHON" || command -v python3)"

say "$PROGRAM compare --json   (first launch: compiles)"
start_ns=$(date +%s%N)
check_compare "$("$PROGRAM" compare --json)" "compiled"
echo "   wall $(( ($(date +%s%N) - start_ns) / 1000000 )) ms"

say "$PROGRAM compare --json   (second launch: the saved program)"
check_compare "$("$PROGRAM" compare --json)" "from cache"

say "QT_QPA_PLATFORM=$QT_QPA_PLATFORM $PROGRAM --screenshot $scratch/window.png"
"$PROGRAM" --screenshot "$scratch/window.png" 2> >(grep -v "does not support propagateSizeHints" >&2)
[[ "$(head -c 8 "$scratch/window.png" | od -An -tx1 | tr -d ' \n')" == "89504e470d0a1a0a" ]] \
  || fail "the screenshot is not a PNG"
echo "   PNG written, $(stat -c %s "$scratch/window.png") bytes"

say "result"
echo "   program: $PROGRAM"
echo "   size:    $(du -sh "$DIST/blurapp" | cut -f1) ($DIST/blurapp)"
if [[ $smoke_only -eq 0 ]]; then
  echo "   build:   ${build_seconds} s wall (PyInstaller)"
fi
echo "   smoke test passed"
