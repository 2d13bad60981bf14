#!/usr/bin/env bash
# wine_run.sh EXE ARGS...: a Windows program under Wine, as a Linux build of it runs:
# stdout and stderr kept apart, the CRLF line ends of its text-mode output made LF,
# its exit status. make test-windows writes the wrappers in build/win/bin that call it,
# so that tests/test_cli.sh runs the .exe files as it runs the Linux programs.
# WINEPREFIX: default, a prefix beside EXE (made on the first run).
set -u
exe=$1
shift
export WINEPREFIX=${WINEPREFIX:-$(cd "$(dirname "$exe")" && pwd)/wineprefix}
export WINEDEBUG=${WINEDEBUG:--all}
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml=}  # no Mono / Gecko install prompt
# WINE_RUN_LIMIT (default 600 s): a program still running then is a hang: its
# threads' backtraces (winedbg) go to stderr, and it is stopped (exit 124).
limit=${WINE_RUN_LIMIT:-600}
d=$(mktemp -d) || exit 125
${WINE:-wine} "$exe" "$@" >"$d/out" 2>"$d/err" &
pid=$!
(
    for ((i = 0; i < limit; i++)); do sleep 1; kill -0 "$pid" 2>/dev/null || exit 0; done
    name=$(basename "$exe")
    echo "wine_run: $name still running after $limit s; its threads:" >"$d/hang"
    winedbg --command "bt all" 2>/dev/null |
        awk -v n="$name" '/^Backtracing for thread/ { p = index($0, n) > 0 } p' >>"$d/hang"
    touch "$d/hung"
    kill "$pid"
) &
wait "$pid"
rc=$?
wait
[ -f "$d/hung" ] && { cat "$d/hang" >>"$d/err"; rc=124; }
sed 's/\r$//' "$d/out"
sed 's/\r$//' "$d/err" >&2
rm -rf "$d"
exit "$rc"
