#!/usr/bin/env bash
# Install or uninstall quakemap (`make install`, `make uninstall`).
#
#   scripts/install.sh install   [built binaries' folder]
#   scripts/install.sh uninstall
#
# Environment (the Makefile passes its variables): PREFIX (default /usr/local), DESTDIR (a
# staging root for packagers, default none), SWIFT (default swift), BUILD_FLAGS (the swift build
# flags of the binaries installed, e.g. `-c release …`).
#
# Installs, under $DESTDIR$PREFIX:
#   bin/quakemap, bin/quakemap-server                        stripped
#   share/man/man1/quakemap.1, quakemap.SUBCOMMAND.1,        from the commands' own help
#     quakemap-server.1                                      (swift-argument-parser's generate-manual)
#   share/bash-completion/completions/{quakemap,quakemap-server}
#   share/zsh/site-functions/{_quakemap,_quakemap-server}
#   share/fish/vendor_completions.d/{quakemap,quakemap-server}.fish
#   lib/systemd/system/quakemap.{service,timer}              contrib/systemd, @BINDIR@ filled in
#   share/doc/quakemap/{LICENSE,NOTICE}                      the licence and what the binaries carry
#   share/quakemap/installed-files                           the list of all of the above
# `uninstall` removes exactly the files that list names, then the list, and nothing else.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX="${PREFIX:-/usr/local}"
DESTDIR="${DESTDIR:-}"
SWIFT="${SWIFT:-swift}"
read -r -a FLAGS <<< "${BUILD_FLAGS:-}"
STAGE="$DESTDIR$PREFIX"
MANIFEST="$STAGE/share/quakemap/installed-files"
PROGRAMS=(quakemap quakemap-server)
work=""

say() { printf 'install: %s\n' "$*" >&2; }
die() { say "ERROR: $*"; exit 1; }

uninstall() {
    [[ -f "$MANIFEST" ]] || die "$MANIFEST is missing: nothing installed there by make install"
    while IFS= read -r path; do
        [[ -n "$path" ]] || continue
        rm -f "$DESTDIR$path"
    done < "$MANIFEST"
    rm -f "$MANIFEST"
    say "removed what $PREFIX held of quakemap"
}

install_files() {
    cd "$ROOT"
    local bin
    bin="$("$SWIFT" build "${FLAGS[@]}" --show-bin-path)"
    for program in "${PROGRAMS[@]}"; do
        [[ -x "$bin/$program" ]] || die "$bin/$program is not built (make install builds it first)"
    done
    # The manual generator of swift-argument-parser, the package the commands are written with.
    "$SWIFT" build "${FLAGS[@]}" --product generate-manual >&2
    work="$(mktemp -d "${TMPDIR:-/tmp}/quakemap-install.XXXXXX")"
    trap 'rm -rf "$work"' EXIT
    mkdir -p "$work/man" "$work/completions"
    for program in "${PROGRAMS[@]}"; do
        "$bin/generate-manual" "$bin/$program" --multi-page --authors "the quakemap developers" \
            --output-directory "$work/man" >&2
        for shell in bash zsh fish; do
            "$bin/$program" --generate-completion-script "$shell" > "$work/completions/$program.$shell"
            [[ -s "$work/completions/$program.$shell" ]] || die "no $shell completion from $program"
        done
    done
    ls "$work/man"/*.1 >/dev/null 2>&1 || die "generate-manual wrote no page"

    local installed=()
    put() {  # put MODE SOURCE TARGET (TARGET under $PREFIX)
        install -D -m "$1" "$2" "$DESTDIR$3"
        installed+=("$3")
    }
    for program in "${PROGRAMS[@]}"; do
        put 755 "$bin/$program" "$PREFIX/bin/$program"
        strip --strip-all "$DESTDIR$PREFIX/bin/$program"
        put 644 "$work/completions/$program.bash" "$PREFIX/share/bash-completion/completions/$program"
        put 644 "$work/completions/$program.zsh" "$PREFIX/share/zsh/site-functions/_$program"
        put 644 "$work/completions/$program.fish" "$PREFIX/share/fish/vendor_completions.d/$program.fish"
    done
    for page in "$work/man"/*.1; do
        # Not the page of argument parser's own `help` subcommand: `--help` is on every page.
        [[ "$(basename "$page")" == *.help.1 ]] && continue
        put 644 "$page" "$PREFIX/share/man/man1/$(basename "$page")"
    done
    for unit in quakemap.service quakemap.timer; do
        sed "s|@BINDIR@|$PREFIX/bin|g" "contrib/systemd/$unit" > "$work/$unit"
        put 644 "$work/$unit" "$PREFIX/lib/systemd/system/$unit"
    done
    # The binaries carry other people's data and code: their credits travel with them.
    put 644 LICENSE "$PREFIX/share/doc/quakemap/LICENSE"
    put 644 NOTICE "$PREFIX/share/doc/quakemap/NOTICE"
    mkdir -p "$(dirname "$MANIFEST")"
    printf '%s\n' "${installed[@]}" > "$MANIFEST"
    say "installed ${#installed[@]} files under $STAGE (listed in ${MANIFEST#"$DESTDIR"})"
}

case "${1:-}" in
    install) install_files ;;
    uninstall) uninstall ;;
    *) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; exit 2 ;;
esac
