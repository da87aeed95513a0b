#!/bin/sh
# Runs Check test binaries from the repository root, shows their output, and ends with one line
# "N passed, N failed" counting Check test cases over all of them. Exits non-zero if a binary
# failed, crashed, or printed no Check summary.
#   sh tests/run-tests.sh build/tests/test_device build/tests/test_channel ...
set -u

if [ "$#" -eq 0 ]; then
    echo "usage: sh tests/run-tests.sh TEST_BINARY..." >&2
    exit 2
fi

root=$(cd "$(dirname "$0")/.." && pwd)
log=$(mktemp "${TMPDIR:-/tmp}/run-tests.XXXXXX")
status=$(mktemp "${TMPDIR:-/tmp}/run-tests.XXXXXX")
# Check's failure lines ("file:line:F:tcase:test:i: message"), repeated at the end so that a log's
# last lines say what failed
failures=$(mktemp "${TMPDIR:-/tmp}/run-tests.XXXXXX")
trap 'rm -f "$log" "$status" "$failures"' EXIT
trap 'exit 130' INT TERM

# Check's default limit is 4 s per test; a test case that sets none gets this instead.
CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-300}
export CK_DEFAULT_TIMEOUT

passed=0
failed=0
broken=""
suite_start=$(date +%s)
for binary in "$@"; do
    case "$binary" in
        /*) path=$binary ;;
        *) path=$PWD/$binary ;;
    esac
    echo "== $binary"
    start=$(date +%s)
    # Only standard output goes to the log: PoCL writes compiler chatter to standard error.
    { (cd "$root" && "$path"); echo $? > "$status"; } | tee "$log"
    rc=$(cat "$status")
    seconds=$(( $(date +%s) - start ))
    # Check prints "100%: Checks: 12, Failures: 0, Errors: 0" once per suite runner.
    counts=$(awk 'match($0, /[0-9]+%: Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+$/) {
                      summary = substr($0, RSTART, RLENGTH); gsub(",", "", summary); split(summary, field, " ")
                      checks += field[3]; bad += field[5] + field[7]; found = 1 }
                  END { if (found) print checks - bad, bad }' "$log")
    if [ -z "$counts" ]; then
        failed=$((failed + 1))
        broken="$broken $binary"
        echo "== $binary: no Check summary (exit status $rc), counted as 1 failed test; ${seconds} s"
        continue
    fi
    grep -E '^[^ :]+:[0-9]+:[EF]:' "$log" >> "$failures"
    passed=$((passed + ${counts% *}))
    failed=$((failed + ${counts#* }))
    [ "$rc" -ne 0 ] && broken="$broken $binary"
    echo "== $binary: exit status $rc; ${seconds} s"
done

if [ -s "$failures" ]; then
    echo "== failures:"
    cat "$failures"
fi
echo "== $(( $(date +%s) - suite_start )) s in all; binaries that failed:${broken:- none}"
echo "$passed passed, $failed failed"
[ -z "$broken" ] && [ "$failed" -eq 0 ]
