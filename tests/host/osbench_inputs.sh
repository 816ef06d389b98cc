# shellcheck shell=sh
# osbench refuses what it cannot measure before it starts: an
# empty input file, and a --plot file it could not write.
. tests/lib.sh

B=build
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
: >"$T/empty"
$B/tests/tools/gendata 65536 1 >"$T/data"

for cmd in sweep cache; do
	check_exit "osbench $cmd on an empty file: exit 1" 1 $B/osbench $cmd "$T/empty"
	check_output "osbench $cmd on an empty file: says so" \
		"'$T/empty' is empty: there is nothing to read" $B/osbench $cmd "$T/empty"
done
check_exit "osbench sweep --plot into a missing directory: usage error" 2 \
	$B/osbench sweep "$T/data" --plot "$T/no/such/dir/plot.svg"
check_output "osbench sweep --plot into a missing directory: says so" \
	"plot: cannot write $T/no/such/dir/plot.svg into directory $T/no/such/dir" \
	$B/osbench sweep "$T/data" --plot "$T/no/such/dir/plot.svg"
finish
