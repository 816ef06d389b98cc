#!/bin/sh
# scripts/vm/vm-shell driven through a pseudo-terminal (tmux): the banner,
# dmesg, Ctrl-C of a foreground sleep in the guest, --share in both
# directions, and quitting with "exit" and with Ctrl-A X.  Two guest boots.
. tests/lib.sh

command -v tmux >/dev/null || { fail "vm-shell" "no tmux (scripts/deps installs it)"; finish; }
tmp=$(mktemp -d)
sess=syncdev-test-$$
trap 'tmux kill-session -t "$sess" 2>/dev/null; rm -rf "$tmp"' EXIT

screen() { tmux capture-pane -p -J -S -200 -t "$sess"; }

# wait_for ERE [SECONDS]: until the pane shows a line matching ERE.
wait_for() {
	n=$((${2:-120} * 2))
	while [ $n -gt 0 ]; do
		screen 2>/dev/null | grep -Eq -- "$1" && return 0
		sleep 0.5
		n=$((n - 1))
	done
	return 1
}

# expect_screen NAME ERE [SECONDS]: a check that the pane shows ERE.
expect_screen() {
	if wait_for "$2" "${3:-30}"; then
		pass "$1"
	else
		fail "$1" "no line matching /$2/ on the screen: $(screen | grep . | tail -n 3 | paste -sd '|')"
	fi
}

# type_line TEXT: type TEXT and Enter into the guest's shell.
type_line() { tmux send-keys -t "$sess" -l "$1"; tmux send-keys -t "$sess" Enter; }

echo "from the host" >"$tmp/in.txt"
tmux new-session -d -s "$sess" -x 150 -y 50 \
	"scripts/vm/vm-shell --share $tmp; echo \"vm-shell exited \$?\"; sleep 600"
expect_screen "vm-shell boots to a root prompt" '^syncdev-vm:/root# ' 240
expect_screen "the banner says the module is loaded" \
	'module +/opt/syncdev/kernel/syncdev.ko: loaded' 1
expect_screen "the banner names the samples" '/samples/large/file1 \(12022885 bytes\)' 1
expect_screen "the banner names the share" 'share +/share is the host' 1
expect_screen "the banner says how to quit" 'Ctrl-A X' 1

type_line 'dmesg | grep "syncdev: loaded" | sed "s/^.*syncdev/seen: syncdev/"'
expect_screen "dmesg shows the module's load line" '^seen: syncdev: loaded: port 2325'
type_line 'wc -c /samples/large/file1 /samples/small/file10'
expect_screen "the course's samples are there" '^ *12022885 /samples/large/file1$'

type_line 'sleep 100'
sleep 3
tmux send-keys -t "$sess" C-c
type_line 'echo "after ctrl-c: $?"'
expect_screen "Ctrl-C ends the guest's foreground sleep (status 130), the shell lives on" \
	'^after ctrl-c: 130$' 20

type_line 'cat /share/in.txt; echo "from the guest" >/share/out.txt; echo share-done'
expect_screen "host -> guest through --share" '^from the host$'
wait_for '^share-done' 10
check_equal "guest -> host through --share" "$(cat "$tmp/out.txt" 2>/dev/null)" "from the guest"

type_line 'exit'
expect_screen "exit powers the guest off; vm-shell exits 0" '^vm-shell exited 0$' 60
tmux kill-session -t "$sess"

# Ctrl-A X: QEMU stops at once, whatever the guest does; --no-load, on
# the newest kernel (--kernel, which make shell's KERNEL= sets).
rel=$(cat "$(scripts/vm/vm-kernel newest)/release")
tmux new-session -d -s "$sess" -x 150 -y 50 \
	"scripts/vm/vm-shell --no-load --kernel newest; echo \"vm-shell exited \$?\"; sleep 600"
expect_screen "--no-load: the banner says so" 'module +.*: not loaded \(--no-load\)' 240
type_line 'echo "modules: $(lsmod | grep -c syncdev)"'
expect_screen "--no-load: the module is not loaded" '^modules: 0$'
type_line 'echo "kernel: $(uname -r)"'
expect_screen "--kernel newest boots the newest kernel" "^kernel: $(printf '%s' "$rel" | sed 's/[.+]/\\&/g')\$"
type_line 'sleep 100'
sleep 2
tmux send-keys -t "$sess" C-a x
expect_screen "Ctrl-A X stops QEMU at once" '^vm-shell exited 0$' 30
check_output "make shell KERNEL=6.12 boots 6.12" '^SYNCDEV_KERNEL=6\.12 scripts/vm/vm-shell$' \
	make -n -o all shell KERNEL=6.12
finish
