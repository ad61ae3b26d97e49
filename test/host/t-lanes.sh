#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t-lanes.sh - items run N at a time (tools/lib.sh lanes_start,
# lanes_wait_item; lint's files and make check's host files): each item
# once, its output and exit code kept by its index; a lane that is free
# takes the next item, so one long item holds up one lane only; an item
# whose every lane was killed is said to be lost, not waited for.

# shellcheck source=test/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=tools/lib.sh
. "$T_TOP/tools/lib.sh"

t_plan 6

# item(): item "NAME SECONDS RC": say its name, take its time, end so.
# shellcheck disable=SC2317  # called through lanes_start
item()
{
	local name secs rc
	read -r name secs rc <<< "$1"
	echo "$name"
	echo "$name $(date +%s.%N)" >> "$D/order"
	sleep "$secs"
	return "$rc"
}

D=$T_TMP/lanes
mkdir -p "$D"
: > "$D/order"
lanes=()
lanes_start lanes "$D" 2 item "long 3 0" "a 0.2 0" "b 0.2 1" "c 0.2 0" "d 0.2 0"
out=
for i in 0 1 2 3 4; do
	lanes_wait_item "$D" lanes "$i" || out+="lost $i "
	out+="$(cat "$D/$i"):$(cat "$D/$i.rc") "
done
wait "${lanes[@]}"
t_eq "each item's output and exit code, by its index" "long:0 a:0 b:1 c:0 d:0 " "$out"
t_eq "each item ran once" "5" "$(wc -l < "$D/order")"
# The short ones all started before the long one ended: the free lane
# took them one after another.
long_end=$(awk '$1 == "long" { printf "%.3f\n", $2 + 3 }' "$D/order")
t_eq "while one lane runs the long item, the other runs all the rest" "a b c d" \
	"$(awk -v e="$long_end" '$1 != "long" && $2 < e { print $1 }' "$D/order" | xargs)"

# Lanes killed before they are done: the items they never ran are lost.
D=$T_TMP/killed
mkdir -p "$D"
: > "$D/order"
lanes=()
lanes_start lanes "$D" 2 item "x 30 0" "y 30 0" "z 0 0"
sleep 0.5
mapfile -t kids < <(pgrep -P "$(IFS=,; echo "${lanes[*]}")")
kill "${lanes[@]}" "${kids[@]}"
t0=$(now_ms)
lanes_wait_item "$D" lanes 2
t_eq "an item no lane is left to run is lost (false)" 1 "$?"
t_rc "and said at once, not waited for" 0 test $(($(now_ms) - t0)) -lt 5000
wait 2> /dev/null
t_eq "one lane at a time: in the order given" "1 2 3" \
	"$(D=$T_TMP/one && mkdir -p "$D" && : > "$D/order" && lanes=() &&
		lanes_start lanes "$D" 1 item "1 0 0" "2 0 0" "3 0 0" && wait "${lanes[@]}" &&
		cut -d' ' -f1 "$D/order" | xargs)"

t_done
