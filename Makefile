# kifu: game-record database and analysis toolkit.
#
#   make                 build libkifu and the tools into bin/
#   make test            build and run every test
#   make demo            build, then show what kifu does on the examples
#   make serve           kifu-serve on the demo's database (made first when missing),
#                        or on SERVE_DB=FILE|URI; SERVE_LISTEN=ADDR:PORT (127.0.0.1:8080)
#   make man             the tools' man pages, into build/default/man/ (make install installs them)
#   make bench           benchmarks (figures for the closing notes)
#   make fit-eval        fit the games' evaluation weights to self-play games
#   make fuzz            libFuzzer harnesses (clang)
#   make install PREFIX=/usr/local
#
# Switches: DEVELOPER=1 adds -Werror; SANITIZE=address,undefined builds with
# sanitizers (into its own build directory, so it never mixes with a plain build).

CC ?= cc
PKG_CONFIG ?= pkg-config
PREFIX ?= /usr/local
# What installs (or names) the missing Debian packages; tests put a stand-in here.
ENSURE_PACKAGES ?= sh build-aux/ensure-packages

WARNINGS = -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wwrite-strings -Wformat=2 -Wvla
ifeq ($(DEVELOPER),1)
WARNINGS += -Werror
endif

OPT ?= -O2 -g
ifneq ($(SANITIZE),)
OPT = -O2 -g -fno-omit-frame-pointer
SANFLAGS = -fsanitize=$(SANITIZE) -fno-sanitize-recover=all
O = build/san-$(subst $(comma),-,$(SANITIZE))
BIN = $(O)/bin
else
O = build/default
BIN = bin
endif
comma := ,

# One line per step (CC lib/store/store.c); V=1 shows the whole commands.
ifeq ($(V),1)
Q =
say = @:
else
Q = @
say = @printf '  %-4s %s\n'
endif

# The packages' flags are read when the first recipe needs them, not when
# make reads this file: on a fresh machine the deps target installs the
# packages first (an order-only prerequisite of every object), and flags
# read before that would lack them. Each package is asked on its own, so one
# missing package loses its own flags only (pkg-config fails a whole list
# for one), with its usual -l as the fallback. `lazy` sets VAR once, on
# first use, from the shell command given.
PKGS = sqlite3 libpq yaml-0.1 libarchive jansson libmicrohttpd
PKG_LIB_sqlite3 = -lsqlite3
PKG_LIB_libpq = -lpq
PKG_LIB_yaml-0.1 = -lyaml
PKG_LIB_libarchive = -larchive
PKG_LIB_jansson = -ljansson
PKG_LIB_libmicrohttpd = -lmicrohttpd
PKG_LIB_cmocka = -lcmocka
pkg_cflags = $(foreach p,$(1),$(shell $(PKG_CONFIG) --cflags $(p) 2>/dev/null))
pkg_libs = $(foreach p,$(1),$(or $(shell $(PKG_CONFIG) --libs $(p) 2>/dev/null),$(PKG_LIB_$(p))))
PKG_CFLAGS = $(eval PKG_CFLAGS := $$(call pkg_cflags,$$(PKGS)))$(PKG_CFLAGS)
PKG_LIBS = $(eval PKG_LIBS := $$(call pkg_libs,$$(PKGS)))$(PKG_LIBS)
CMOCKA_CFLAGS = $(eval CMOCKA_CFLAGS := $$(call pkg_cflags,cmocka))$(CMOCKA_CFLAGS)
CMOCKA_LIBS = $(eval CMOCKA_LIBS := $$(call pkg_libs,cmocka))$(CMOCKA_LIBS)

ALL_CFLAGS = $(WARNINGS) $(OPT) $(SANFLAGS) -pthread -D_POSIX_C_SOURCE=200809L -Iinclude -Ilib -Iimport \
	$(PKG_CFLAGS) -MMD -MP $(CFLAGS)
ALL_LDFLAGS = $(SANFLAGS) -pthread $(LDFLAGS)
LIBS = $(PKG_LIBS) -lm

# libkifu: the library's module folders (lib/README.md gives their order),
# and the foreign formats of import/. A new .c file in a folder is found here.
LIB_DIRS := $(sort $(dir $(wildcard lib/*/*.c lib/*/*/*.c)))
LIB_SRCS := $(sort $(wildcard $(addsuffix *.c,$(LIB_DIRS)) import/*.c))
SCHEMA_C := $(O)/gen/schema.c
SCHEMA_PG_C := $(O)/gen/schema_pg.c
LIB_OBJS := $(LIB_SRCS:%.c=$(O)/%.o) $(SCHEMA_C:.c=.o) $(SCHEMA_PG_C:.c=.o)
LIBKIFU := $(O)/libkifu.a

CLI_SRCS := $(sort $(wildcard cli/kifu-*.c))
CLI_COMMON_SRCS := $(sort $(filter-out cli/kifu-%,$(wildcard cli/*.c)))
CLI_COMMON_OBJS := $(CLI_COMMON_SRCS:%.c=$(O)/%.o)
TOOLS := $(CLI_SRCS:cli/%.c=$(BIN)/%)

TEST_SRCS := $(sort $(wildcard tests/test_*.c))
TEST_BINS := $(TEST_SRCS:tests/%.c=$(O)/tests/%)
# The helpers every test program shares (tests/helpers.h).
TEST_HELPER_OBJS := $(O)/tests/helpers.o

DEB_BUILD = gcc make pkg-config libsqlite3-dev libyaml-dev libarchive-dev libjansson-dev help2man libpq-dev \
	libmicrohttpd-dev
DEB_TEST = libcmocka-dev libxml2-utils time chromium python3 python3-yaml sqlite3 nodejs node-js-yaml \
	zip zstd xz-utils bzip2 p7zip-full groff-base postgresql-15
DEB_FUZZ = clang libclang-rt-14-dev
# What the benchmarks load, compare with and fit with (wrk: bench/serve.sh;
# scid: bench/import.sh's chess baseline; valgrind: instruction counts).
DEB_BENCH = wrk scid valgrind python3-numpy

.PHONY: all test demo serve man bench fit-eval review-rows fuzz install clean deps deps-test deps-fuzz deps-bench \
	check-tests
.DEFAULT_GOAL := all
# keep object files that pattern chains would treat as intermediate
.SECONDARY:

all: $(TOOLS)

# Installs missing Debian packages when run as root with apt-get, otherwise
# says exactly what to install. Runs once per make invocation.
deps:
	@$(ENSURE_PACKAGES) $(DEB_BUILD)

deps-test:
	@$(ENSURE_PACKAGES) $(DEB_BUILD) $(DEB_TEST)

deps-fuzz:
	@$(ENSURE_PACKAGES) $(DEB_BUILD) $(DEB_TEST) $(DEB_FUZZ)

deps-bench:
	@$(ENSURE_PACKAGES) $(DEB_BUILD) $(DEB_TEST) $(DEB_BENCH)

# Every compile waits for the packages (and so for their flags).
DEPS_FIRST = $(if $(filter test,$(MAKECMDGOALS)),deps-test,$(if $(filter bench,$(MAKECMDGOALS)),deps-bench,deps))
$(O)/%.o: %.c | $(DEPS_FIRST)
	@mkdir -p $(dir $@)
	$(say) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

# The database schema (schema/NNN-*.sql, in order) compiled into libkifu.
$(SCHEMA_C): $(sort $(wildcard schema/*.sql)) build-aux/embed-sql
	@mkdir -p $(dir $@)
	$(say) GEN $@
	$(Q)sh build-aux/embed-sql $(filter %.sql,$^) >$@.tmp && mv $@.tmp $@
$(SCHEMA_C:.c=.o): $(SCHEMA_C) | $(DEPS_FIRST)
	$(say) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@
# The PostgreSQL backend's migrations (schema/pg/NNN-*.sql, the same versions).
$(SCHEMA_PG_C): $(sort $(wildcard schema/pg/*.sql)) build-aux/embed-sql
	@mkdir -p $(dir $@)
	$(say) GEN $@
	$(Q)sh build-aux/embed-sql --name kifu_pg_migrations_ $(filter %.sql,$^) >$@.tmp && mv $@.tmp $@
$(SCHEMA_PG_C:.c=.o): $(SCHEMA_PG_C) | $(DEPS_FIRST)
	$(say) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIBKIFU): $(LIB_OBJS)
	@rm -f $@
	$(say) AR $@
	$(Q)$(AR) rcs $@ $^

$(BIN)/%: $(O)/cli/%.o $(CLI_COMMON_OBJS) $(LIBKIFU)
	@mkdir -p $(dir $@)
	$(say) LD $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $< $(CLI_COMMON_OBJS) $(LIBKIFU) $(LIBS)

$(O)/tests/%.o: tests/%.c | deps-test
	@mkdir -p $(dir $@)
	$(say) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) -DKIFU_SOURCE_DIR='"$(CURDIR)"' -c $< -o $@

$(O)/tests/test_%: $(O)/tests/test_%.o $(TEST_HELPER_OBJS) $(LIBKIFU)
	$(say) LD $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $< $(TEST_HELPER_OBJS) $(LIBKIFU) $(CMOCKA_LIBS) $(LIBS)

# libFuzzer harnesses: tests/fuzz/fuzz_NAME.c, each built with the whole
# library by clang; tests/fuzz/run seeds and runs them for FUZZ_SECONDS each.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=build/fuzz/%)

build/fuzz/%: tests/fuzz/%.c $(LIB_SRCS) $(SCHEMA_C) $(SCHEMA_PG_C) | deps-fuzz
	@mkdir -p $(dir $@)
	$(say) CC $@
	$(Q)$(FUZZ_CC) $(WARNINGS) -g -O1 -fsanitize=fuzzer,address,undefined -D_POSIX_C_SOURCE=200809L \
		-Iinclude -Ilib -Iimport $(PKG_CFLAGS) $< $(LIB_SRCS) $(SCHEMA_C) $(SCHEMA_PG_C) -o $@ $(LIBS)

fuzz: $(FUZZ_BINS)
	@FUZZ_SECONDS=$(FUZZ_SECONDS) sh tests/fuzz/run $(FUZZ_BINS)

check-tests: $(TEST_BINS) $(TOOLS)

# deps-test has installed (or checked) every package of DEB_TEST, so a test
# whose declared dependency is missing fails instead of skipping.
test: deps-test check-tests
	@KIFU_BIN=$(CURDIR)/$(BIN) KIFU_BUILD=$(CURDIR)/$(O) KIFU_TEST_DEPS=required KIFU_SANITIZE=$(SANITIZE) \
		sh tests/run $(TEST_BINS)

demo: all
	@sh examples/demo $(BIN)

# SERVE_DB: another database (a file or a PostgreSQL URI); only the demo's is made when missing.
SERVE_DB ?= build/demo.db
SERVE_LISTEN ?= 127.0.0.1:8080
serve: all
	@test "$(SERVE_DB)" != build/demo.db || test -f build/demo.db || sh examples/demo $(BIN) >/dev/null
	$(BIN)/kifu-serve --db '$(SERVE_DB)' --listen $(SERVE_LISTEN)

bench: deps-bench all
	@sh bench/run $(BIN)

# The games' evaluation weights (bench/fit-eval.c): plays self-play games,
# fits the weights by logistic regression and prints them as C to paste
# into each game's file. FIT_EVAL_ARGS: --games N --players SPEC --seed S --only GAME.
FIT_EVAL_ARGS ?=
$(O)/bench/fit-eval: bench/fit-eval.c $(LIBKIFU)
	@mkdir -p $(dir $@)
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIBKIFU) $(LIBS)

# Every ply of some records reviewed, a row each (bench/review-rows.c), for
# bench/calibrate.sh and bench/review-sums.py.
$(O)/bench/review-rows: bench/review-rows.c $(LIBKIFU)
	@mkdir -p $(dir $@)
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIBKIFU) $(LIBS)

review-rows: $(O)/bench/review-rows

fit-eval: $(O)/bench/fit-eval
	nice -n 10 $(O)/bench/fit-eval $(FIT_EVAL_ARGS)

# Man pages: one per tool from its --help (help2man) and man/kifu-NAME.h2m,
# the tool's whole reference (the sections --help leaves out: details,
# examples), then man/kifu.h2m, what every page shares; and kifu-records(5).
MAN1 := $(CLI_SRCS:cli/%.c=$(O)/man/%.1)
MAN_NAME_kifu-validate = check game records against the record format
MAN_NAME_kifu-import = store game records in the game database
MAN_NAME_kifu-export = write games as records, JSON, text, SVG or HTML
MAN_NAME_kifu-search = list stored games by header or position
MAN_NAME_kifu-stats = statistics over the stored games
MAN_NAME_kifu-play = play games between built-in players
MAN_NAME_kifu-perft = count move sequences of a game
MAN_NAME_kifu-analyse = review games with the built-in engine
MAN_NAME_kifu-serve = serve the game database to a browser, read-only
MAN_NAME_kifu-check = check the game database against a replay of its games

$(O)/man/%.1: $(BIN)/% man/%.h2m man/kifu.h2m
	@mkdir -p $(dir $@)
	$(say) MAN $@
	$(Q)help2man --no-info --version-string=$(VERSION) --include=man/$*.h2m --include=man/kifu.h2m \
		--name="$(or $(MAN_NAME_$*),a kifu tool)" --output=$@ ./$<

man: $(MAN1)

VERSION = $(shell sed -n 's/^\#define KIFU_VERSION "\(.*\)"/\1/p' cli/cli.h)

install: all $(MAN1)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
		$(DESTDIR)$(PREFIX)/include/kifu $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/man/man5
	install -m 755 $(TOOLS) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(LIBKIFU) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/kifu/*.h $(DESTDIR)$(PREFIX)/include/kifu/
	@# pkg-config: libkifu is a static library, so its dependencies are public
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include' '' \
		'Name: kifu' 'Description: game-record database and analysis toolkit (libkifu)' \
		'Version: $(VERSION)' 'Requires: $(PKGS)' \
		'Libs: -L$${libdir} -lkifu -lm -pthread' 'Cflags: -I$${includedir}' \
		>$(DESTDIR)$(PREFIX)/lib/pkgconfig/kifu.pc
	install -m 644 $(MAN1) $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 man/kifu-records.5 $(DESTDIR)$(PREFIX)/share/man/man5/

clean:
	rm -rf build bin

-include $(LIB_OBJS:.o=.d) $(CLI_SRCS:cli/%.c=$(O)/cli/%.d) $(CLI_COMMON_OBJS:.o=.d) \
	$(TEST_SRCS:tests/%.c=$(O)/tests/%.d) $(TEST_HELPER_OBJS:.o=.d)
