#!/bin/sh
# The grader's intake and build sandbox, on the host (no guest): each
# hostile submission is staged by scripts/grade/grade-stage.sh's
# stage_student, as `grade --batch` stages it, and must get the verdict
# that names what it tried, with nothing of the host read or written.
# Run as root (the builds drop to SYNCDEV_GRADE_USER, nobody by default)
# and as an ordinary user alike.
. tests/lib.sh

tmp=$(mktemp -d)
# A canary in the caller's home, as the TA's key would be.
canary=$HOME/.syncdev-sandbox-canary.$$
secret="syncdev-canary-$$-$(date +%s%N)"
trap 'rm -rf "$tmp" "$canary" "$HOME/touched.$$"' EXIT
echo "$secret" >"$canary"
chmod 600 "$canary"
# A short log cap, so that the endless output ends fast (the fork bomb
# gets a short time limit of its own below).
export SYNCDEV_SANDBOX_LOG_CAP=64

# stage NAME: stage submission $tmp/sub/NAME into $tmp/stage/NAME, as the
# batch does (stage_student); its output in $tmp/NAME.out.
stage() {
	timeout 120 bash -c '
		. scripts/vm/vm-common.sh && . scripts/grade/grade-stage.sh &&
		vm_pick_kernel && VM_MODULE=kernel/syncdev.ko && mkdir -p "$1" &&
		stage_student "$1" "$2"' \
		stage "$tmp/stage/$1" "$tmp/sub/$1" >"$tmp/$1.out" 2>&1
}

# verdict NAME: the fatal verdict of submission NAME, or nothing.
verdict() { cat "$tmp/stage/$1/fatal" 2>/dev/null; }

# no_secret NAME: no file staged for NAME holds the canary's secret.
no_secret() {
	if grep -rqF "$secret" "$tmp/stage/$1" 2>/dev/null; then
		fail "$1: nothing of the canary staged" "$(grep -rlF "$secret" "$tmp/stage/$1")"
	else
		pass "$1: nothing of the canary staged"
	fi
}

# new_sub NAME: a submission with our programs, to add one attack to.
new_sub() {
	mkdir -p "$tmp/sub/$1"
	cp build/master build/slave "$tmp/sub/$1/"
}

hello='#include <linux/module.h>
static int __init hello_init(void) { return 0; }
module_init(hello_init);
MODULE_LICENSE("GPL");'

# --- a Kbuild line that runs commands: it runs, but boxed --------------
# It writes what it could see and do into probe.ko, which comes back out
# as a module would.
new_sub kbuild-shell
mkdir "$tmp/sub/kbuild-shell/module"
echo "$hello" >"$tmp/sub/kbuild-shell/module/hello.c"
cat >"$tmp/sub/kbuild-shell/module/Kbuild" <<EOF
\$(shell touch $HOME/touched.$$; p=/tmp/build/module/probe.ko; id -u >\$\$p; \\
	for d in / /usr /etc /tmp/build; do touch \$\$d/w 2>/dev/null && echo writable \$\$d; done >>\$\$p; \\
	for f in $canary /etc/shadow /root $HOME; do [ -e \$\$f ] && echo visible \$\$f; done >>\$\$p; \\
	echo processes \$\$(ls -d /proc/[0-9]* | wc -l) >>\$\$p; \\
	echo links \$\$(cat /proc/net/dev | tail -n +3 | wc -l) >>\$\$p)
obj-m += hello.o
EOF
stage kbuild-shell
check_equal "kbuild-shell: the module built" "$(verdict kbuild-shell)" ""
probe=$tmp/stage/kbuild-shell/input/modules/probe.ko
check_equal "kbuild-shell: hello.ko staged" "$(grep -cx 'hello.ko' "$tmp/stage/kbuild-shell/input/modules/order" 2>/dev/null)" 1
if [ -f "$probe" ] && [ "$(head -n 1 "$probe")" != 0 ]; then
	pass "kbuild-shell: the build's commands run as non-root (uid $(head -n 1 "$probe") in the sandbox)"
else
	fail "kbuild-shell: the build's commands run as non-root" "probe: $(cat "$probe" 2>/dev/null)"
fi
check_equal "kbuild-shell: only /tmp/build is writable" "$(grep writable "$probe")" "writable /tmp/build"
check_equal "kbuild-shell: no home, /root, /etc/shadow or canary visible" "$(grep visible "$probe")" ""
check_equal "kbuild-shell: no network but loopback" "$(grep links "$probe")" "links 1"
if [ -f "$probe" ] && [ "$(sed -n 's/^processes //p' "$probe")" -lt 10 ]; then
	pass "kbuild-shell: /proc shows the sandbox's processes only"
else
	fail "kbuild-shell: /proc shows the sandbox's processes only" "$(grep processes "$probe")"
fi
if [ -e "$HOME/touched.$$" ]; then
	fail "kbuild-shell: nothing written in the caller's home" "$HOME/touched.$$ exists"
else
	pass "kbuild-shell: nothing written in the caller's home"
fi

# --- .incbin of a host file into the student's binary -------------------
new_sub incbin
rm "$tmp/sub/incbin/master"
printf 'int main(void) { return 0; }\n__asm__(".incbin \\"%s\\"");\n' "$canary" >"$tmp/sub/incbin/master.c"
stage incbin
check_output "incbin: the build fails, the host file not being there" \
	"^master build failed: .*file not found: $canary" verdict incbin
check_equal "incbin: no master staged (the slave is)" "$(ls "$tmp/stage/incbin/input/bin" 2>&1)" slave
no_secret incbin

# --- a header the host's secret hides behind a link in the tree ---------
new_sub tree-link
mkdir "$tmp/sub/tree-link/module"
printf '#include "secret.h"\n%s\n' "$hello" >"$tmp/sub/tree-link/module/hello.c"
echo 'obj-m += hello.o' >"$tmp/sub/tree-link/module/Kbuild"
ln -s "$canary" "$tmp/sub/tree-link/module/secret.h"
stage tree-link
check_output "tree-link: a link in a Kbuild tree is not copied (the build misses it)" \
	"^module build failed in tree-link/module: .*secret.h" verdict tree-link
no_secret tree-link

# --- #include "/dev/zero": the memory limit, with its reason -------------
new_sub dev-zero
rm "$tmp/sub/dev-zero/slave"
echo '#include "/dev/zero"' >"$tmp/sub/dev-zero/slave.c"
stage dev-zero
check_equal "dev-zero: ends by the memory limit, named" "$(verdict dev-zero)" \
	"slave build exceeded its memory limit (1 GiB)"

# --- a fork bomb in a Makefile: bounded, ended by the time limit ---------
new_sub fork-bomb
mkdir "$tmp/sub/fork-bomb/module"
echo "$hello" >"$tmp/sub/fork-bomb/module/hello.c"
printf '%s\n' "\$(shell bash -c 'b() { b | b & }; b')" 'obj-m += hello.o' >"$tmp/sub/fork-bomb/module/Makefile"
(export SYNCDEV_SANDBOX_TIME=5; stage fork-bomb)
check_output "fork-bomb: ended by a limit, named" \
	'^module build exceeded its (time limit \(5 s\)|process limit \(128 at once\))$' verdict fork-bomb

# --- a build that prints without end: its log is capped ----------------
new_sub huge-output
mkdir "$tmp/sub/huge-output/module"
echo "$hello" >"$tmp/sub/huge-output/module/hello.c"
printf '%s\n' '$(shell yes syncdev >&2)' 'obj-m += hello.o' >"$tmp/sub/huge-output/module/Kbuild"
stage huge-output
check_equal "huge-output: ended by the output limit, named" "$(verdict huge-output)" \
	"module build exceeded its output limit (64 KiB of build log)"
check_equal "huge-output: the log is cut at 64 KiB" \
	"$(stat -c %s "$tmp/stage/huge-output/module-build.log")" 65536

# --- links and special files where a program, module or grade.cli is -----
new_sub linked-master
ln -sf "$canary" "$tmp/sub/linked-master/master"
stage linked-master
check_equal "linked-master: refused by name" "$(verdict linked-master)" \
	"master is a symbolic link: a submission's files must be regular files"
no_secret linked-master

new_sub linked-ko
ln -s "$canary" "$tmp/sub/linked-ko/syncdev.ko"
stage linked-ko
check_equal "linked-ko: refused by name, not replaced by ours" "$(verdict linked-ko)" \
	"syncdev.ko is a symbolic link: a submission's files must be regular files"
check_equal "linked-ko: nothing staged as a module" "$(ls "$tmp/stage/linked-ko/input/modules" | grep -c '\.ko$')" 0
no_secret linked-ko

new_sub linked-cli
ln -s "$canary" "$tmp/sub/linked-cli/grade.cli"
stage linked-cli
check_equal "linked-cli: refused by name" "$(verdict linked-cli)" \
	"grade.cli is a symbolic link: a submission's files must be regular files"
no_secret linked-cli
check_output "linked-cli: the canary's line never printed" '^$' sh -c "grep -F '$secret' '$tmp/linked-cli.out'"

new_sub fifo-master
rm "$tmp/sub/fifo-master/master"
mkfifo "$tmp/sub/fifo-master/master"
stage fifo-master
check_equal "fifo-master: refused by name, without blocking" "$(verdict fifo-master)" \
	"master is not a regular file (fifo): a submission's files must be regular files"

new_sub big-ko
truncate -s 4000001 "$tmp/sub/big-ko/big.ko"
(export SYNCDEV_INTAKE_FILE_MAX=4000000; stage big-ko)
check_equal "big-ko: a module over the size cap refused by name" "$(verdict big-ko)" \
	"big.ko is too big (4000001 bytes; a file may have 4000000)"

new_sub many-files
mkdir "$tmp/sub/many-files/module"
echo 'obj-m += hello.o' >"$tmp/sub/many-files/module/Kbuild"
for i in $(seq 30); do : >"$tmp/sub/many-files/module/f$i.h"; done
(export SYNCDEV_INTAKE_TREE_FILES=20; stage many-files)
check_equal "many-files: a tree over the file cap refused" "$(verdict many-files)" \
	"module sources: the submission has more than 20 files and directories"

# --- what an honest student gives still builds and stages ----------------
new_sub honest
rm "$tmp/sub/honest/master"
printf '#include "greet.h"\nint main(void) { return GREET; }\n' >"$tmp/sub/honest/master.c"
echo '#define GREET 7' >"$tmp/sub/honest/greet.h"
stage honest
check_equal "honest: master.c compiled in the sandbox, no verdict" "$(verdict honest)" ""
"$tmp/stage/honest/input/bin/master"
check_equal "honest: the compiled master runs (exit 7, from its own header)" "$?" 7
check_equal "honest: our module staged (none given)" "$(cat "$tmp/stage/honest/input/modules/order" 2>/dev/null)" syncdev.ko

# The course's layout: several trees, one using another's symbol.
new_sub honest-trees
mkdir -p "$tmp/sub/honest-trees/ksocket" "$tmp/sub/honest-trees/user"
printf '%s\nint ks_value(void) { return 1; }\nEXPORT_SYMBOL(ks_value);\n' "$hello" \
	>"$tmp/sub/honest-trees/ksocket/ks.c"
echo 'obj-m += ks.o' >"$tmp/sub/honest-trees/ksocket/Kbuild"
printf '#include <linux/module.h>\nint ks_value(void);\nstatic int __init u_init(void) { return ks_value() - 1; }\nmodule_init(u_init);\nMODULE_LICENSE("GPL");\n' \
	>"$tmp/sub/honest-trees/user/u.c"
echo 'obj-m += u.o' >"$tmp/sub/honest-trees/user/Kbuild"
stage honest-trees
check_equal "honest-trees: both trees built, no verdict" "$(verdict honest-trees)" ""
check_equal "honest-trees: both modules staged, in name order" \
	"$(tr '\n' ' ' <"$tmp/stage/honest-trees/input/modules/order" 2>/dev/null)" "ks.ko u.ko "
check_equal "honest-trees: u.ko depends on ks (the second pass saw its symbols)" \
	"$(modinfo -F depends "$tmp/stage/honest-trees/input/modules/u.ko" 2>&1)" ks

finish
