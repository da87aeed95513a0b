# render: the path-tracing task (kernels/tasks/render.cl), its CPU reference
# (host/common/render_ref.c), the PPM/PNG writer (host/common/image.c), and their test.
# Included after the Makefile: make -f Makefile -f host/render.mk build/tests/test_render

RENDER_OBJS := $(BUILD)/obj/host/common/render_ref.o $(BUILD)/obj/host/common/image.o $(OUTFILE_OBJ)
IMAGE_LIBS := -lz

$(BUILD)/obj/host/common/render_ref.o: host/common/render_ref.h
$(BUILD)/obj/host/common/image.o: host/common/image.h

# The pattern rule for tests links no other objects: this rule, with a recipe, replaces it.
$(BUILD)/tests/test_render: tests/test_render.c tests/testutil.h $(RENDER_OBJS) $(LIBA) $(GRAPH_OBJS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -Itests -Ilibcoop/src -Ihost/common -o $@ $< $(RENDER_OBJS) $(LIBA) \
	    $(GRAPH_OBJS) $(CHECK_LIBS) $(GRAPH_LIBS) $(IMAGE_LIBS) $(LDLIBS)
