#!/usr/bin/env bash
# Runs every fuzz target in the module for FUZZTIME each (default 20s), one
# after another, stopping at the first failure. The targets are found, not
# listed, so a new Fuzz function runs without editing this file or the
# Taskfile. With -n it prints the commands instead of running them.
set -euo pipefail
cd "$(dirname "$0")/.."

fuzztime=${FUZZTIME:-20s}

# flags prints the extra go test flags of one target, given as
# "<package> <target>". Each exception says why it is one.
flags() {
	case "$1" in
	# Minimizing each new-coverage workbook (17 kB) otherwise stalls the run
	# for minutes; see the comment on FuzzParseSZSE.
	"./adapters/asharelistings FuzzParseSZSE") echo "-fuzzminimizetime 1x" ;;
	esac
}

# targets prints "<package> <target>" for every fuzz target. grep only picks
# the packages to ask: go test -list runs each package's test binary, and
# e2e's TestMain would start its containers. go test -list then names the
# targets the build really holds.
targets() {
	local module dirs
	module=$(go list -m)
	dirs=$(grep -rl --include='*_test.go' --exclude-dir=testdata '^func Fuzz' . | xargs -n1 dirname | sort -u)
	# shellcheck disable=SC2086 # one argument per package directory
	go test -list '^Fuzz' $dirs | awk -v module="$module" '
		/^ok / { pkg = $2; sub("^" module, ".", pkg); for (i = 0; i < n; i++) print pkg, names[i]; n = 0; next }
		/^Fuzz/ { names[n++] = $1 }'
}

list=$(targets)
if [ -z "$list" ]; then
	echo "fuzz.sh: found no fuzz target" >&2
	exit 1
fi
while read -r pkg target <&3; do
	# shellcheck disable=SC2046 # flags are words
	cmd=(go test "$pkg" -run '^$' -fuzz "^$target\$" -fuzztime "$fuzztime" $(flags "$pkg $target"))
	if [ "${1:-}" = -n ]; then
		echo "${cmd[@]}"
	else
		"${cmd[@]}"
	fi
done 3<<<"$list"
