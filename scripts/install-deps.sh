#!/bin/sh
# Installs the Debian packages the project needs, when some are missing; says what it installs.
# Does nothing (and prints nothing) when all are present.
set -eu
# clang-14 and libclang-rt-14-dev: libFuzzer for make fuzz; gzip and xz-utils: its seeds; libjansson-dev:
# the tests read trace files back with jansson.
packages="gcc make pkg-config ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo check
libclang-dev zlib1g-dev liblzma-dev libjansson-dev python3 python3-matplotlib help2man clang-14 libclang-rt-14-dev
gzip xz-utils"
missing=""
for package in $packages; do
    status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
    case "$status" in
        *"install ok installed"*) ;;
        *) missing="$missing $package" ;;
    esac
done
[ -z "$missing" ] && exit 0
echo "install-deps: installing missing Debian packages:$missing"
if [ "$(id -u)" -eq 0 ]; then
    run=""
elif command -v sudo >/dev/null 2>&1; then
    run="sudo"
else
    echo "install-deps: not root and no sudo; install these by hand:$missing" >&2
    exit 1
fi
$run apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $run apt-get install -y -qq --no-install-recommends $missing
