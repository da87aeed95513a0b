# fuzz/smith/smith.mk: random cooperative kernels (fuzz/smith/, docs/TESTING.md). Included by the
# Makefile after merge-tool/Makefile.inc.
#   make smith [SECONDS=N] [FIRST=S] [CHAOS=K]   a campaign of N seconds (default 60) from seed S
#                                                (default: a random one), K chaos seeds a program
# test_smith (make check) runs a fixed seed range through the same driver.

SECONDS ?= 60
CHAOS ?= 3
SMITH_RUN := $(BUILD)/bin/smith-run

.PHONY: smith

$(SMITH_RUN): fuzz/smith/smith-run.c $(LIB_HEADERS) $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIBA) $(LDLIBS)

$(BUILD)/tests/test_smith: $(SMITH_RUN) fuzz/smith/gen.py fuzz/smith/smith.py

smith: $(SMITH_RUN) $(BUILD)/bin/coop-merge
	python3 fuzz/smith/smith.py campaign --seconds $(SECONDS) --chaos $(CHAOS) $(if $(FIRST),--first $(FIRST))
