# syncdev: kernel module, user programs, VM image and tests.
#
#   make              build the programs (build/) and, where kernel headers
#                     are installed, the module (kernel/syncdev.ko)
#   make CC=clang     the programs by clang (the module as the kernel was built)
#   make module       the module only;  make user: the programs only
#   make unit         the C unit tests (build/tests/), without running them
#   make test         install what is missing, run every test, print "N passed, N failed"
#   make check-kernel the module with W=1 and sparse
#   make demo         boot the VM and run the course demo (the README's main command)
#   make vm           build the VM image (scripts/vm/vm-build)
#   make shell        boot the VM to a root shell on this terminal (vm-shell)
#   KERNEL=6.12       demo and shell boot that kernel: 6.1, 6.12, newest, debug
#   ACCEL=tcg         demo and shell run the guest under it: auto, kvm, tcg
#   make bench-transfer  the device against a userspace TCP copy, in the VM
#   make bench-io     fast against dd, cat, fio and the memory bandwidth
#   make install      master, slave, tcpcopy, osbench and their man pages (PREFIX, DESTDIR)
#   make uninstall    remove what make install put in place
#   make install-udev the udev rule: group syncdev may use the devices (uninstall-udev)
#   make dkms-src     the module's sources as DKMS wants them (/usr/src/syncdev-VERSION)
#   make dkms-install build and install the module with DKMS (every kernel)
#   make dkms-remove  remove it from DKMS and /usr/src
#   make clean        remove everything the build made
#   make help         this text
#
# The module is built against KDIR: the running kernel's headers when they
# exist, else the newest Debian "-amd64" (Ubuntu "-generic") headers
# installed: the VM's kernel.

KVER    ?= $(shell uname -r)
KDIR    ?= $(firstword $(wildcard /lib/modules/$(KVER)/build) \
                       $(lastword $(sort $(wildcard /lib/modules/*-amd64/build \
                                                    /lib/modules/*-generic/build))))
BUILD   := build
# make demo KERNEL=6.12 ACCEL=tcg: the guest's kernel and accelerator
# (scripts/vm/vm-common.sh).
KERNEL_ENV = $(strip $(if $(KERNEL),SYNCDEV_KERNEL=$(KERNEL)) $(if $(ACCEL),SYNCDEV_ACCEL=$(ACCEL)))
OBJDIR  := $(BUILD)/obj

# CC, CFLAGS, LDFLAGS and LDLIBS are the user's (make CC=clang
# CFLAGS=-O3); what the code needs is added to them, not replaced by them.
# The module is compiled as the kernel was (gcc, or clang with LLVM=1),
# whatever CC says.
CC      ?= cc
CFLAGS  ?= -O2 -g
NEEDED_CFLAGS  := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -pthread -MMD -MP
# Static binaries run unchanged in the busybox VM image and on any host.
NEEDED_LDFLAGS := -static -pthread
NEEDED_LDLIBS  := -lm
ALL_CFLAGS  = $(NEEDED_CFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(NEEDED_LDFLAGS) $(LDFLAGS)
ALL_LDLIBS  = $(LDLIBS) $(NEEDED_LDLIBS)
KBUILD_CC   = $(if $(LLVM),,CC=$(CROSS_COMPILE)gcc)

# Three libraries in layers (docs/design.md, "map of the code"):
#   common      generic helpers: messages, exit codes, parsing, full I/O
#   libsyncdev  the device and moving files: the only code that issues
#               syncdev ioctls, so the only one that sees kernel/uapi
#   libbench    measurement, statistics, tables, plots, machine facts
# Each library and program is compiled with the include paths of the
# layers it may use and no others, so a wrong-layer #include fails the build.
LIBS         := common libsyncdev libbench
DEPS_common     :=
DEPS_libsyncdev := common
DEPS_libbench   := common
INC_libsyncdev  := -Ikernel/uapi

# Every other directory under user/ is one program built from all of its
# .c files (subdirectories included), with the layers it names here.
PROGS    := $(filter-out $(LIBS),$(notdir $(patsubst %/,%,$(wildcard user/*/))))
LAYERS_master  := libsyncdev common
LAYERS_slave   := libsyncdev common
LAYERS_tcpcopy := libsyncdev common
LAYERS_gradeclass := common
LAYERS_osbench := libbench libsyncdev common
BINS     := $(PROGS:%=$(BUILD)/%)
# The course's I/O programs are osbench called by another name.
ALIASES  := run run2 fast

srcs_in  = $(shell find user/$(1) -name '*.c' | sort)
objs_of  = $(patsubst %.c,$(OBJDIR)/%.o,$(1))
lib_a    = $(OBJDIR)/lib$(1).a

UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
# Test tools (one .c file each) also run inside the VM; they drive the
# raw ABI on purpose, so they see kernel/uapi.
TOOL_SRCS := $(wildcard tests/tools/*.c)
TOOL_BINS := $(TOOL_SRCS:tests/tools/%.c=$(BUILD)/tests/tools/%)
# What several tools share (the data pattern, on libbench's; the
# course's connect), linked into each; libc only.
TOOL_LIB_SRCS := $(wildcard tests/tools/lib/*.c) user/libbench/pattern.c
TOOL_LIB_OBJS := $(TOOL_LIB_SRCS:%.c=$(OBJDIR)/%.o)
# The fuzzer also as a 32-bit program, for the compat ioctl path, when the
# compiler can build one (gcc-multilib, installed by scripts/deps).
M32_OK   := $(shell printf 'int main(void){return 0;}' | \
              $(CC) -m32 -static -x c -o /dev/null - 2>/dev/null && echo yes)
ifeq ($(M32_OK),yes)
TOOL_BINS += $(BUILD)/tests/tools/fuzz32
endif

.SECONDARY:
.PHONY: all module user unit clean test demo vm bench-transfer bench-io \
        check-kernel help shell install uninstall install-udev uninstall-udev \
        dkms-src dkms-install dkms-remove
# The programs build anywhere; the module only where kernel headers are.
all: user $(if $(KDIR),module)
ifeq ($(KDIR),)
	@echo "make: programs built in $(BUILD)/; no kernel headers, so no module: install linux-headers-$(KVER) (or run scripts/deps), then run make module"
endif

help:
	@sed -n '3,/^#$$/{/^#$$/!s/^# \{0,1\}//p}' Makefile

user: $(BINS) $(BUILD)/osbench-O0 $(ALIASES:%=$(BUILD)/%) $(TOOL_BINS)

$(OBJDIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(OBJ_FLAGS) $(INCS) -c -o $@ $<

define LIB_RULE
$(call objs_of,$(call srcs_in,$(1))): INCS := $(foreach d,$(1) $(DEPS_$(1)),-Iuser/$(d)) $(INC_$(1))
$(call lib_a,$(1)): $(call objs_of,$(call srcs_in,$(1)))
	$$(AR) rcs $$@ $$^
endef
$(foreach l,$(LIBS),$(eval $(call LIB_RULE,$(l))))

define PROG_RULE
$(call objs_of,$(call srcs_in,$(1))): INCS := -Iuser/$(1) $(foreach d,$(LAYERS_$(1)),-Iuser/$(d))
$(BUILD)/$(1): $(call objs_of,$(call srcs_in,$(1))) $(foreach d,$(LAYERS_$(1)),$(call lib_a,$(d)))
	$$(CC) $$(ALL_LDFLAGS) -o $$@ $$^ $$(ALL_LDLIBS)
endef
$(foreach p,$(PROGS),$(eval $(call PROG_RULE,$(p))))

$(ALIASES:%=$(BUILD)/%): $(BUILD)/osbench
	ln -sf osbench $@

# osbench-O0: osbench with the micro-benchmarks (user/osbench/micro/)
# compiled once more with -O0 after CFLAGS (the last -O wins) and linked
# with the rest of osbench as built; "osbench micro-opt" runs both and
# sets their figures side by side.  Each micro-benchmark object records
# the options it was compiled with (.GCC.command.line, tests/host read it).
O0_OBJDIR  := $(BUILD)/obj-O0
MICRO_SRCS := $(call srcs_in,osbench/micro)
MICRO_O0   := $(MICRO_SRCS:%.c=$(O0_OBJDIR)/%.o)
$(call objs_of,$(MICRO_SRCS)) $(MICRO_O0): OBJ_FLAGS := -frecord-gcc-switches
$(call objs_of,$(MICRO_SRCS)) $(MICRO_O0): Makefile
$(MICRO_O0): INCS := -Iuser/osbench $(foreach d,$(LAYERS_osbench),-Iuser/$(d))
$(O0_OBJDIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -O0 $(OBJ_FLAGS) $(INCS) -c -o $@ $<
$(BUILD)/osbench-O0: $(MICRO_O0) \
	$(filter-out $(call objs_of,$(MICRO_SRCS)),$(call objs_of,$(call srcs_in,osbench))) \
	$(foreach d,$(LAYERS_osbench),$(call lib_a,$(d)))
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ALL_LDLIBS)

ALL_LIBS := $(foreach l,libbench libsyncdev common,$(call lib_a,$(l)))
$(UNIT_SRCS:%.c=$(OBJDIR)/%.o): INCS := $(foreach l,$(LIBS),-Iuser/$(l))
$(TOOL_SRCS:%.c=$(OBJDIR)/%.o): INCS := -Iuser/common -Iuser/libsyncdev -Ikernel/uapi -Itests/tools/lib
$(filter $(OBJDIR)/tests/%,$(TOOL_LIB_OBJS)): INCS := -Itests/tools/lib -Iuser/libbench -Ikernel/uapi

# libc, the uapi header and the tools' pattern only (tests/tools/devtest.h).
$(BUILD)/tests/tools/fuzz32: tests/tools/fuzz.c tests/tools/devtest.h kernel/uapi/syncdev_abi.h \
	$(TOOL_LIB_SRCS) $(wildcard tests/tools/lib/*.h) user/libbench/pattern.h
	@mkdir -p $(dir $@)
	$(CC) -m32 $(filter-out -MMD -MP,$(ALL_CFLAGS)) -Ikernel/uapi -Itests/tools/lib -Iuser/libbench \
		$(ALL_LDFLAGS) \
		-o $@ $< $(TOOL_LIB_SRCS)

# A unit test of a program's pure part links that part's object too.
$(OBJDIR)/tests/unit/test_fast_method.o: INCS += -Iuser/osbench/io
$(BUILD)/tests/test_fast_method: $(OBJDIR)/user/osbench/io/fast_method.o \
	$(OBJDIR)/user/osbench/io/fast_run.o \
	$(OBJDIR)/user/osbench/io/fast_read.o
$(OBJDIR)/tests/unit/test_readq.o: INCS += -Iuser/osbench/io
$(BUILD)/tests/test_readq: $(OBJDIR)/user/osbench/io/readq.o
$(OBJDIR)/tests/unit/test_report.o: INCS += -Iuser/osbench/report -Iuser/osbench/micro
$(BUILD)/tests/test_report: $(OBJDIR)/user/osbench/report/anomaly.o \
	$(OBJDIR)/user/osbench/report/csvtab.o $(OBJDIR)/user/osbench/report/csvmeta.o \
	$(OBJDIR)/user/osbench/report/docout.o \
	$(OBJDIR)/user/osbench/micro/pingparse.o
$(OBJDIR)/tests/unit/test_gradeclass.o: INCS += -Iuser/gradeclass
$(BUILD)/tests/test_gradeclass: $(OBJDIR)/user/gradeclass/csv.o \
	$(OBJDIR)/user/gradeclass/options.o $(OBJDIR)/user/gradeclass/rubric.o \
	$(OBJDIR)/user/gradeclass/text.o $(OBJDIR)/user/gradeclass/names.o \
	$(OBJDIR)/user/gradeclass/times.o $(OBJDIR)/user/gradeclass/accel.o \
	$(OBJDIR)/user/gradeclass/tables.o $(OBJDIR)/user/gradeclass/summary.o \
	$(OBJDIR)/user/gradeclass/report_md.o $(OBJDIR)/user/gradeclass/result.o \
	$(OBJDIR)/user/gradeclass/timeline.o $(OBJDIR)/user/gradeclass/attrib.o \
	$(OBJDIR)/user/gradeclass/slurp.o
$(OBJDIR)/tests/unit/test_testpat.o: INCS += -Itests/tools/lib -Iuser/libbench
$(BUILD)/tests/test_testpat: $(TOOL_LIB_OBJS)
$(OBJDIR)/tests/unit/test_share.o: INCS += -Iuser/gradeclass
$(BUILD)/tests/test_share: $(OBJDIR)/user/gradeclass/share.o
$(OBJDIR)/tests/unit/test_watch.o: INCS += -Iuser/gradeclass
$(BUILD)/tests/test_watch: $(OBJDIR)/user/gradeclass/watch_event.o

unit: $(UNIT_BINS)
$(BUILD)/tests/%: $(OBJDIR)/tests/unit/%.o $(ALL_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(filter %.a,$^) $(ALL_LDLIBS)

$(BUILD)/tests/tools/%: $(OBJDIR)/tests/tools/%.o $(TOOL_LIB_OBJS) $(call lib_a,libsyncdev) $(call lib_a,common)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ALL_LDLIBS)

module:
	@test -n "$(KDIR)" || { echo "no kernel headers: install linux-headers-amd64 (scripts/deps)"; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(KBUILD_CC) modules

# W=1 and sparse (C=2 re-checks every file even when it is up to date).
check-kernel:
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(KBUILD_CC) W=1 C=2 modules

vm: all
	scripts/vm/vm-build

test:
	scripts/deps
	tests/run

demo:
	scripts/deps --demo
	$(MAKE) all
	$(KERNEL_ENV) scripts/demo

bench-transfer:
	scripts/deps --demo
	$(MAKE) all
	scripts/bench/bench-transfer

bench-io:
	scripts/deps --bench
	$(MAKE) user
	scripts/bench/bench-io

shell: all
	$(KERNEL_ENV) scripts/vm/vm-build
	$(KERNEL_ENV) scripts/vm/vm-shell

# Installing on a real machine, like any out-of-tree driver.
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
UDEVDIR ?= /etc/udev/rules.d
INSTALL_PROGS := master slave tcpcopy osbench
DKMS_CONF := scripts/dkms/dkms.conf
VERSION  := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' $(DKMS_CONF))
DKMS_SRC := $(DESTDIR)/usr/src/syncdev-$(VERSION)
# DKMS builds for the kernel whose headers KDIR is: the running one when
# its headers are installed.
DKMS_KVER ?= $(notdir $(patsubst %/build,%,$(KDIR)))

install: $(INSTALL_PROGS:%=$(BUILD)/%)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 0755 $(INSTALL_PROGS:%=$(BUILD)/%) $(DESTDIR)$(BINDIR)/
	install -m 0644 $(INSTALL_PROGS:%=docs/man/%.1) $(DESTDIR)$(MANDIR)/man1/

uninstall:
	rm -f $(INSTALL_PROGS:%=$(DESTDIR)$(BINDIR)/%) \
	      $(INSTALL_PROGS:%=$(DESTDIR)$(MANDIR)/man1/%.1)

install-udev:
	install -D -m 0644 scripts/udev/60-syncdev.rules $(DESTDIR)$(UDEVDIR)/60-syncdev.rules

uninstall-udev:
	rm -f $(DESTDIR)$(UDEVDIR)/60-syncdev.rules

# The module's sources as DKMS wants them: /usr/src/syncdev-<version>.
dkms-src:
	install -d $(DKMS_SRC)/kernel/uapi
	install -m 0644 Kbuild $(DKMS_CONF) $(DKMS_SRC)/
	install -m 0644 kernel/Kbuild $(filter-out %.mod.c,$(wildcard kernel/*.c kernel/*.h)) $(DKMS_SRC)/kernel/
	install -m 0644 $(wildcard kernel/uapi/*.h) $(DKMS_SRC)/kernel/uapi/

dkms-install: dkms-src
	@command -v dkms >/dev/null || { echo "no dkms: apt-get install dkms"; exit 1; }
	dkms status -m syncdev -v $(VERSION) | grep -q . || dkms add -m syncdev -v $(VERSION)
	dkms install -m syncdev -v $(VERSION) -k $(DKMS_KVER)

dkms-remove:
	-dkms remove -m syncdev -v $(VERSION) --all
	rm -rf $(DKMS_SRC)

clean:
	@if [ -n "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	rm -rf $(BUILD)

-include $(shell find $(OBJDIR) $(O0_OBJDIR) -name '*.d' 2>/dev/null)
