#!/usr/bin/env bash
# install-qemu.sh: install QEMU user-mode emulators new enough for the
# cross-architecture tests (qemu >= 10, which has the loongarch64 emulator and
# the riscv64 rva23u64 CPU model). On Debian 12 (bookworm) that version is
# only in bookworm-backports.
#
# Usage: scripts/install-qemu.sh [--llvm] [--print-source]
#
#   --llvm          also install Debian's llvm-19 (for llvm-mca-19).
#   --print-source  print the backports apt source this script would write
#                   (or the existing source that already provides it) and
#                   exit; changes nothing. Useful for checking the logic.
#
# Idempotent: exits early when qemu-aarch64-static reports version >= 10 and
# qemu-loongarch64-static and qemu-riscv64-static exist (and, with --llvm,
# llvm-mca-19 exists).
#
# The backports apt source is derived from the system's own Debian source
# (so no mirror host name is hard-coded here):
#   1. /etc/apt/sources.list.d/debian.sources (deb822): copy the stanza whose
#      Suites field contains the word "bookworm" and replace its Suites field
#      with "bookworm-backports" -> /etc/apt/sources.list.d/chachakit-backports.sources
#   2. otherwise /etc/apt/sources.list (one-line format): take the first
#      "deb URL bookworm ... main" line and rewrite the suite
#      -> /etc/apt/sources.list.d/chachakit-backports.list
# Nothing is written if any enabled apt source already provides
# bookworm-backports (avoids duplicate-source warnings/conflicts).
#
# Environment (mainly for testing):
#   APT_ETC        apt configuration directory (default /etc/apt)
#   DEBIAN_SUITE   release code name (default: VERSION_CODENAME from
#                  /etc/os-release, else bookworm)
set -euo pipefail

MIN_QEMU_MAJOR=10
LLVM_VERSION=19

want_llvm=0
print_only=0
for arg in "$@"; do
	case "$arg" in
	--llvm) want_llvm=1 ;;
	--print-source) print_only=1 ;;
	-h | --help)
		sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0"
		exit 0
		;;
	*)
		echo "install-qemu.sh: unknown argument: $arg" >&2
		exit 2
		;;
	esac
done

APT_ETC=${APT_ETC:-/etc/apt}
if [[ -z "${DEBIAN_SUITE:-}" ]]; then
	DEBIAN_SUITE=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}") || true
	DEBIAN_SUITE=${DEBIAN_SUITE:-bookworm}
fi
BACKPORTS="${DEBIAN_SUITE}-backports"

log() { echo "install-qemu: $*" >&2; }

# ---------------------------------------------------------------------------
# Checks

qemu_major() {
	# "qemu-aarch64 version 10.0.2 (Debian ...)" -> 10
	local v
	v=$(qemu-aarch64-static --version 2>/dev/null | sed -n 's/.*version \([0-9][0-9]*\)\..*/\1/p' | head -n1) || true
	echo "${v:-0}"
}

qemu_ok() {
	command -v qemu-aarch64-static >/dev/null 2>&1 || return 1
	command -v qemu-loongarch64-static >/dev/null 2>&1 || return 1
	command -v qemu-riscv64-static >/dev/null 2>&1 || return 1
	[[ $(qemu_major) -ge $MIN_QEMU_MAJOR ]]
}

llvm_ok() {
	command -v "llvm-mca-$LLVM_VERSION" >/dev/null 2>&1 ||
		[[ -x "/usr/lib/llvm-$LLVM_VERSION/bin/llvm-mca" ]]
}

# ---------------------------------------------------------------------------
# apt source handling

# Files apt actually reads (other extensions, e.g. *.disabled, are ignored).
apt_list_files() {
	[[ -f "$APT_ETC/sources.list" ]] && echo "$APT_ETC/sources.list"
	local f
	for f in "$APT_ETC"/sources.list.d/*.list; do
		[[ -f "$f" ]] && echo "$f"
	done
	return 0
}
apt_deb822_files() {
	local f
	for f in "$APT_ETC"/sources.list.d/*.sources; do
		[[ -f "$f" ]] && echo "$f"
	done
	return 0
}

# deb822 parser shared by the awk programs below: calls stanza() for each
# stanza with fields in F[lowercased name] and raw lines in L[1..n].
# Handles comment lines (#) and continuation lines (leading whitespace).
# Written for POSIX awk / mawk (Debian's default awk).
DEB822_AWK='
function reset() { n = 0; cur = ""; for (k in F) delete F[k] }
function flush() { if (n > 0) stanza(); reset() }
BEGIN { reset() }
/^[ \t]*$/ { flush(); next }
/^#/ { L[++n] = $0; next }
/^[ \t]/ { L[++n] = $0; if (cur != "") F[cur] = F[cur] " " $0; next }
{
	L[++n] = $0
	i = index($0, ":")
	if (i == 0) { cur = ""; next }
	cur = tolower(substr($0, 1, i - 1))
	F[cur] = substr($0, i + 1)
}
END { flush() }
function hasword(s, w,   a, m, j) {
	m = split(s, a, /[ \t]+/)
	for (j = 1; j <= m; j++) if (a[j] == w) return 1
	return 0
}
function enabled() { return !("enabled" in F) || !hasword(tolower(F["enabled"]), "no") }
'

# Print the names of enabled apt sources that already provide $BACKPORTS.
existing_backports_sources() {
	local f
	while read -r f; do
		# one-line format: deb [options] URI SUITE COMPONENT...
		if grep -Eq "^[[:space:]]*deb([[:space:]]+\[[^]]*\])?[[:space:]]+[^[:space:]]+[[:space:]]+${BACKPORTS}([[:space:]]|$)" "$f"; then
			echo "$f"
		fi
	done < <(apt_list_files)
	while read -r f; do
		if awk -v want="$BACKPORTS" "$DEB822_AWK"'
			function stanza() {
				if (enabled() && hasword(F["types"], "deb") && hasword(F["suites"], want)) found = 1
			}
			END { exit(found ? 0 : 1) }' "$f"; then
			echo "$f"
		fi
	done < <(apt_deb822_files)
}

# deb822: print the first enabled stanza of $1 whose Suites has the plain word
# $DEBIAN_SUITE, with Suites replaced by $BACKPORTS and Types by "deb".
derive_deb822() {
	awk -v want="$DEBIAN_SUITE" -v bp="$BACKPORTS" "$DEB822_AWK"'
		function stanza(   j, skip, line, name) {
			if (done || !enabled() || !hasword(F["types"], "deb") || !hasword(F["suites"], want)) return
			done = 1
			skip = 0
			for (j = 1; j <= n; j++) {
				line = L[j]
				if (line ~ /^[ \t]/ && skip) continue
				skip = 0
				name = tolower(line); sub(/:.*/, "", name)
				if (line !~ /^#/ && name == "suites") { print "Suites: " bp; skip = 1; continue }
				if (line !~ /^#/ && name == "types") { print "Types: deb"; skip = 1; continue }
				print line
			}
		}
		END { exit(done ? 0 : 1) }' "$1"
}

# One-line format: first "deb [opts] URI $DEBIAN_SUITE ... main ..." line with
# the suite rewritten.
derive_list() {
	awk -v want="$DEBIAN_SUITE" -v bp="$BACKPORTS" '
		/^[ \t]*deb[ \t]/ {
			line = $0
			sub(/^[ \t]+/, "", line)
			m = split(line, a, /[ \t]+/)
			j = 2
			if (a[j] ~ /^\[/) { while (j <= m && a[j] !~ /\]$/) j++; j++ }
			# a[j] = URI, a[j+1] = suite, a[j+2..] = components
			if (a[j + 1] != want) next
			hasmain = 0
			for (k = j + 2; k <= m; k++) if (a[k] == "main") hasmain = 1
			if (!hasmain) next
			out = a[1]
			for (k = 2; k <= m; k++) out = out " " (k == j + 1 ? bp : a[k])
			print out
			found = 1
			exit
		}
		END { exit(found ? 0 : 1) }' "$1"
}

# Sets SRC_FILE and SRC_TEXT to what should be written; returns 1 if a
# backports source already exists (SRC_FILE = existing file), 2 if nothing
# could be derived.
plan_source() {
	local existing
	existing=$(existing_backports_sources | head -n1)
	if [[ -n "$existing" ]]; then
		SRC_FILE=$existing
		SRC_TEXT=""
		return 1
	fi
	local deb822="$APT_ETC/sources.list.d/debian.sources"
	if [[ -f "$deb822" ]] && SRC_TEXT=$(derive_deb822 "$deb822"); then
		SRC_FILE="$APT_ETC/sources.list.d/chachakit-backports.sources"
		return 0
	fi
	if [[ -f "$APT_ETC/sources.list" ]] && SRC_TEXT=$(derive_list "$APT_ETC/sources.list"); then
		SRC_FILE="$APT_ETC/sources.list.d/chachakit-backports.list"
		return 0
	fi
	SRC_FILE=""
	SRC_TEXT=""
	return 2
}

# ---------------------------------------------------------------------------

if [[ $print_only == 1 ]]; then
	rc=0
	plan_source || rc=$?
	case $rc in
	0)
		echo "# would write $SRC_FILE:"
		printf '%s\n' "$SRC_TEXT"
		;;
	1) echo "# $BACKPORTS already provided by $SRC_FILE; would write nothing" ;;
	*)
		echo "# no '$DEBIAN_SUITE' source found in $APT_ETC; cannot derive $BACKPORTS" >&2
		exit 1
		;;
	esac
	exit 0
fi

need_qemu=1
need_llvm=0
qemu_ok && need_qemu=0
[[ $want_llvm == 1 ]] && ! llvm_ok && need_llvm=1

if [[ $need_qemu == 0 && $need_llvm == 0 ]]; then
	log "already installed: $(qemu-aarch64-static --version | head -n1)"
	[[ $want_llvm == 1 ]] && log "llvm-mca-$LLVM_VERSION present"
	exit 0
fi

SUDO=()
if [[ $(id -u) != 0 ]]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=(sudo -n)
	else
		log "must run as root (or have sudo) to install packages"
		exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
APT_GET=("${SUDO[@]}" apt-get -q -o Acquire::Retries=3 -o Dpkg::Use-Pty=0)

apt_target=()
if [[ $need_qemu == 1 ]]; then
	rc=0
	plan_source || rc=$?
	case $rc in
	0)
		log "writing $SRC_FILE"
		printf '%s\n' "$SRC_TEXT" | "${SUDO[@]}" tee "$SRC_FILE" >/dev/null
		apt_target=(-t "$BACKPORTS")
		;;
	1)
		log "$BACKPORTS already provided by $SRC_FILE"
		apt_target=(-t "$BACKPORTS")
		;;
	*)
		log "warning: could not derive a $BACKPORTS source; trying the default suites"
		;;
	esac
fi

"${APT_GET[@]}" update

if [[ $need_qemu == 1 ]]; then
	"${APT_GET[@]}" install -y --no-install-recommends "${apt_target[@]}" qemu-user-static
	if ! qemu_ok; then
		log "error: qemu >= $MIN_QEMU_MAJOR with aarch64/loongarch64/riscv64 emulators still missing"
		qemu-aarch64-static --version 2>&1 | head -n1 >&2 || true
		exit 1
	fi
fi
log "$(qemu-aarch64-static --version | head -n1)"

if [[ $need_llvm == 1 ]]; then
	"${APT_GET[@]}" install -y --no-install-recommends "llvm-$LLVM_VERSION"
	llvm_ok || {
		log "error: llvm-mca-$LLVM_VERSION missing after install"
		exit 1
	}
	log "installed llvm-$LLVM_VERSION (llvm-mca-$LLVM_VERSION)"
fi
