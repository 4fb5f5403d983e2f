# sonde build. Everything lands in build/ (or build-asan/ for the sanitizer
# build). New .c files under src/<module>/ and tests/unit/test_*.c are picked
# up by wildcard: adding a file needs no edit here.

O ?= build
SAN ?=
CC ?= cc
CLANG ?= clang
BPFTOOL ?= bpftool
ARCH := $(shell uname -m | sed 's/x86_64/x86/;s/aarch64/arm64/')

CFLAGS ?= -O2 -g
CFLAGS += -DSONDE_VERSION=\"0.1.0\" -std=gnu11 -Wall -Wextra -Werror -Wno-missing-field-initializers \
	  -D_GNU_SOURCE -Iinclude -I$(O) -Isrc -fno-omit-frame-pointer $(SAN)
LDFLAGS += $(SAN)
LDLIBS := -lbpf -ldw -liberty -lelf -lz -lzstd -lpthread -lm

LIB_SRCS := $(wildcard src/format/*.c src/decode/*.c src/decode/strace/*.c src/lang/*.c \
		       src/record/*.c src/analysis/*.c src/util/*.c src/stack/*.c src/inject/*.c)
CLI_SRCS := $(wildcard src/cli/*.c)
BPF_SRCS := $(wildcard bpf/*.bpf.c)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
FIXTURE_SRCS := $(wildcard tests/fixtures/*.c)
BENCH_SRCS := $(wildcard bench/*.c)

LIB_OBJS := $(LIB_SRCS:%.c=$(O)/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(O)/%.o)
SKELS := $(BPF_SRCS:bpf/%.bpf.c=$(O)/%.skel.h)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(O)/tests/%)
FIXTURE_BINS := $(FIXTURE_SRCS:tests/fixtures/%.c=$(O)/fixtures/%)
BENCH_BINS := $(BENCH_SRCS:bench/%.c=$(O)/bench/%)

# Keep generated BPF objects and skeletons (make would delete them as
# intermediates of the pattern chain).
.SECONDARY:

.PHONY: all deps demo check test unit integration asan fuzz bench clean format ioctl-names

all: $(O)/sonde $(UNIT_BINS) $(FIXTURE_BINS) $(BENCH_BINS)

deps:
	@bash scripts/deps.sh

$(O)/vmlinux.h:
	@mkdir -p $(@D)
	$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@.tmp && mv $@.tmp $@

# BPF objects: CO-RE, -g for BTF, -O2 because the verifier needs it,
# -mcpu=v3 for atomic fetch-or/and/xchg (BPF_ATOMIC | BPF_FETCH).
# Every shared header: record layouts and limits (payload.h) are compiled in.
$(O)/%.bpf.o: bpf/%.bpf.c $(O)/vmlinux.h $(wildcard bpf/*.h) $(wildcard include/sonde/*.h)
	@mkdir -p $(@D)
	$(CLANG) -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(ARCH) -Iinclude -I$(O) -Ibpf \
		-Wall -Werror -c $< -o $@

$(O)/%.skel.h: $(O)/%.bpf.o
	$(BPFTOOL) gen skeleton $< > $@.tmp && mv $@.tmp $@

$(O)/src/%.o: src/%.c $(SKELS) $(wildcard include/sonde/*.h src/*/*.h src/*/*/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

$(O)/libsonde.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(O)/sonde: $(CLI_OBJS) $(O)/libsonde.a
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) $(O)/libsonde.a $(LDLIBS)

$(O)/tests/%: tests/unit/%.c $(O)/libsonde.a tests/unit/check.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/unit -o $@ $< $(O)/libsonde.a $(LDFLAGS) $(LDLIBS)

# Fixtures are traced programs: plain, never sanitized, frame pointers on.
$(O)/fixtures/%: tests/fixtures/%.c
	@mkdir -p $(@D)
	$(CC) -O1 -g -fno-omit-frame-pointer -Wall -Wextra -Werror -D_GNU_SOURCE \
		-o $@ $< -lpthread

# This one compiles the generated table of ioctl names in.
$(O)/fixtures/strace_ioctl_names: src/decode/strace/ioctl_names.c src/decode/strace/ioctl_names.h

$(O)/bench/%: bench/%.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -o $@ $<

demo: deps all
	@bash scripts/demo.sh $(O)

test: all
	@bash tests/run.sh $(O)

unit: all
	@SONDE_TESTS=unit bash tests/run.sh $(O)

integration: all
	@SONDE_TESTS=integration bash tests/run.sh $(O)

asan:
	$(MAKE) O=build-asan SAN="-fsanitize=address,undefined -fno-sanitize-recover=all" all

# make check: dependencies, both builds, every test (unit + integration in
# the normal build, unit + integration again under ASan/UBSan), fuzzing for
# a bounded time; ends with "N passed, N failed".
check: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory asan
	@bash tests/run.sh $(O) build-asan

fuzz: deps
	@bash tests/fuzz/run.sh $(or $(FUZZ_SECONDS),60)

bench: deps all
	@bash bench/run.sh $(O)

# The ioctl request names, generated from the system's UAPI headers and
# committed (the build does not run the generator): regenerate after a
# headers update. Needs python3, gcc, linux-libc-dev and libdrm-dev.
ioctl-names:
	python3 scripts/gen_ioctl_names.py > src/decode/strace/ioctl_names.c.tmp
	mv src/decode/strace/ioctl_names.c.tmp src/decode/strace/ioctl_names.c

format:
	clang-format -i $(shell git ls-files '*.c' '*.h')

clean:
	rm -rf build build-asan build-fuzz
