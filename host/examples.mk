# host/examples.mk: the tutorial, docs/TUTORIAL.md's "Your first cooperative kernel".
#   build/bin/components   connected components by label propagation beside a periodic task
# Its program is kernels/generated/components_mega.cl, what coop-merge makes of
# kernels/examples/components.cl and tick.cl (kernels/generated/merges.txt; `make regenerate`).

$(BUILD)/gen/components_mega_source.c: $(GENERATED)/components_mega.cl scripts/embed.sh
	@mkdir -p $(@D)
	sh scripts/embed.sh components_mega_source $< > $@

$(BUILD)/obj/host/examples/components.o: host/examples/components.c $(GENERATED)/components_mega.h $(LIB_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -I$(GENERATED) -c $< -o $@

$(BUILD)/bin/components: $(BUILD)/obj/host/examples/components.o $(BUILD)/obj/gen/components_mega_source.o $(LIBA)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDLIBS)

# built with the programs, not installed as one: `make install` ships its sources as an example
programs: $(BUILD)/bin/components

EXAMPLE_DOCS := kernels/examples/components.cl kernels/examples/tick.cl $(GENERATED)/components_mega.cl \
    $(GENERATED)/components_mega.h host/examples/components.c

install: install-examples
.PHONY: install-examples
install-examples:
	install -d $(DESTDIR)$(PREFIX)/share/doc/coop/examples
	install -m 644 $(EXAMPLE_DOCS) $(DESTDIR)$(PREFIX)/share/doc/coop/examples/

# Rewrites every merged program of kernels/generated/merges.txt with the coop-merge built here.
regenerate: $(BUILD)/bin/coop-merge
	@grep -v '^#' $(GENERATED)/merges.txt | while read -r name args; do \
	    [ -n "$$name" ] || continue; \
	    echo "coop-merge $$args -> $(GENERATED)/$$name.cl, $$name.h"; \
	    $(BUILD)/bin/coop-merge $$args -o $(GENERATED)/$$name.cl --host-header $(GENERATED)/$$name.h || exit 1; \
	done
