# syncdev: kernel module, user programs, VM image and tests.
#
#   make              build the module (kernel/syncdev.ko) and the programs (build/)
#   make test         install what is missing, run every test, print "N passed, N failed"
#   make demo         boot the VM and run the course demo (the README's main command)
#   make clean        remove everything the build made
#
# The module is built against KDIR: the running kernel's headers when they
# exist, else the newest Debian "-amd64" (Ubuntu "-generic") headers
# installed: the VM's kernel.

KVER    ?= $(shell uname -r)
KDIR    ?= $(firstword $(wildcard /lib/modules/$(KVER)/build) \
                       $(lastword $(sort $(wildcard /lib/modules/*-amd64/build \
                                                    /lib/modules/*-generic/build))))
BUILD   := build
OBJDIR  := $(BUILD)/obj

CC      ?= cc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -pthread \
           -Ikernel/uapi -Iuser/lib -MMD -MP
# Static binaries run unchanged in the busybox VM image and on any host.
LDFLAGS += -static -pthread
LDLIBS  += -lm

# Every directory under user/ except lib/ is one program built from all of
# its .c files; user/lib/ is the shared helper library linked into each.
PROGS    := $(filter-out lib,$(notdir $(patsubst %/,%,$(wildcard user/*/))))
LIB_SRCS := $(wildcard user/lib/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(OBJDIR)/%.o)
LIB      := $(OBJDIR)/libsyncdev.a
BINS     := $(PROGS:%=$(BUILD)/%)
# The course's I/O programs are osbench called by another name.
ALIASES  := run run2 fast

UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
# Test tools (one .c file each) also run inside the VM.
TOOL_SRCS := $(wildcard tests/tools/*.c)
TOOL_BINS := $(TOOL_SRCS:tests/tools/%.c=$(BUILD)/tests/tools/%)

.SECONDARY:
.PHONY: all module user unit clean test demo vm bench-transfer bench-io \
        check-kernel help
all: module user

help:
	@sed -n '2,8p' Makefile | sed 's/^# \{0,1\}//'

user: $(BINS) $(ALIASES:%=$(BUILD)/%) $(TOOL_BINS)

$(LIB): $(LIB_OBJS)
	$(AR) rcs $@ $^

$(OBJDIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

define PROG_RULE
$(BUILD)/$(1): $(patsubst %.c,$(OBJDIR)/%.o,$(wildcard user/$(1)/*.c)) $(LIB)
	$$(CC) $$(LDFLAGS) -o $$@ $$^ $$(LDLIBS)
endef
$(foreach p,$(PROGS),$(eval $(call PROG_RULE,$(p))))

$(ALIASES:%=$(BUILD)/%): $(BUILD)/osbench
	ln -sf osbench $@

unit: $(UNIT_BINS)
$(BUILD)/tests/%: $(OBJDIR)/tests/unit/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/tools/%: $(OBJDIR)/tests/tools/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

module:
	@test -n "$(KDIR)" || { echo "no kernel headers: install linux-headers-amd64 (scripts/deps)"; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# W=1 and sparse (C=2 re-checks every file even when it is up to date).
check-kernel:
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 C=2 modules

vm: all
	scripts/vm-build

test:
	scripts/deps
	tests/run

demo:
	scripts/deps
	$(MAKE) all
	scripts/demo

bench-transfer:
	scripts/deps
	$(MAKE) all
	scripts/bench-transfer

bench-io:
	$(MAKE) user
	scripts/bench-io

clean:
	@if [ -n "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	rm -rf $(BUILD)

-include $(shell find $(OBJDIR) -name '*.d' 2>/dev/null)
